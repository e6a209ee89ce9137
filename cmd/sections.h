/*
 * sections.h - report_sections[] (sections.c): the table of every optional
 * report section, which a command hands to report_load() (model/report.h).
 * Only the commands room names it: the model, renderer and charts below
 * iterate the table they are given (struct report's sections).
 */
#ifndef IOMATRIX_CMD_SECTIONS_H
#define IOMATRIX_CMD_SECTIONS_H

#include "model/section.h"

/* NULL-terminated, in the order sections are loaded and drawn. */
extern const struct report_section *const report_sections[];

#endif
