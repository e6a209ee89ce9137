/*
 * student.h - Student's t distribution, the one copy: the 95 % confidence
 * interval of every summary (stats.c, so the report), and the ratio
 * interval that `compare` and `history` judge by (report/model/ratio.c,
 * used by report/archive/changepoint.c) all use these.  Pure code, no IO,
 * no state: safe from any thread.
 */
#ifndef IOMATRIX_STUDENT_H
#define IOMATRIX_STUDENT_H

#include <stddef.h>

/* P(T <= t) for Student's t with df degrees of freedom; NAN unless df > 0. */
double student_t_cdf(double t, double df);
/* The t with P(T <= t) = p; NAN unless 0 < p < 1 and df > 0.  Within
 * 1e-12 (relative) of the exact quantile. */
double student_t_quantile(double p, double df);
/* The two-sided 95 % critical value, student_t_quantile(0.975, dof);
 * 0 for dof 0 (no interval from one value). */
double student_t95(size_t dof);

#endif
