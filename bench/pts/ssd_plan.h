/*
 * ssd_plan.h - the purge, preconditioning and rounds part of `plan`'s text
 * output (ssd_plan.c).  Prints nothing for a suite that uses none of them.
 */
#ifndef IOMATRIX_SSD_PLAN_H
#define IOMATRIX_SSD_PLAN_H

#include <stdio.h>

#include "suite/cell.h"

void ssd_plan_print(const struct suite *s, FILE *f);

#endif
