/*
 * ratio.h - how much a workload changed between two sets, with the
 * uncertainty the repetitions allow: the ratio new/old of the geometric
 * means and its confidence interval, from Welch's t on the logs of the
 * repetitions (performance noise is multiplicative: a drive that is 10 %
 * slower is slower by a ratio, not by a number of IOPS).  The verdict then
 * asks where the whole interval lies against +-threshold, so a change the
 * data cannot rule out is "inconclusive", never "within noise".  Shared by
 * compare, history, the summary and the ratio table.  Pure code, no IO.
 */
#ifndef IOMATRIX_RATIO_H
#define IOMATRIX_RATIO_H

#include <stdbool.h>
#include <stddef.h>

struct ratio_ci {
	bool ok;           /* false: fewer than 2 values a side, or one <= 0 */
	double ratio;      /* exp(mean log new - mean log old) */
	double lo, hi;     /* its confidence interval */
	double df;         /* Welch-Satterthwaite degrees of freedom (inf: no spread) */
};

/*
 * The ratio new/old and its two-sided (1 - alpha) confidence interval.
 * alpha is the error rate of this one interval: for a family of m
 * comparisons pass alpha / m (Bonferroni: every interval of the family
 * holds at once with probability >= 1 - alpha).
 */
void ratio_ci(const double *old, size_t n_old, const double *new_, size_t n_new,
	      double alpha, struct ratio_ci *out);

enum ratio_verdict {
	RATIO_UP,            /* the whole interval above 1 + threshold */
	RATIO_DOWN,          /* the whole interval below 1 - threshold */
	RATIO_SAME,          /* the whole interval within 1 +- threshold */
	RATIO_INCONCLUSIVE,  /* the interval reaches across a bound */
};

/* Where c's interval lies against 1 +- threshold (a fraction, 0.05 for
 * 5 %).  c must be ok. */
enum ratio_verdict ratio_judge(const struct ratio_ci *c, double threshold);

/* A --threshold as compare, history and site take it: a percentage, 0 or
 * more, "%" allowed after it ("5", "2.5%").  0 with *pct set, or -1 with
 * the fix printed to stderr. */
int ratio_parse_threshold(const char *v, double *pct);

#endif
