/*
 * ratio.h - how much a workload changed between two sets, with the
 * uncertainty the repetitions allow: the ratio new/old of the geometric
 * means and its confidence interval, from Welch's t on the logs of the
 * repetitions (performance noise is multiplicative: a drive that is 10 %
 * slower is slower by a ratio, not by a number of IOPS).  The verdict then
 * asks where the whole interval lies against +-threshold, so a change the
 * data cannot rule out is "inconclusive", never "within noise".  Shared by
 * compare, reproduce, history, the summary and the ratio table.  Pure
 * code, no IO.
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
	RATIO_FEW,           /* fewer than VERDICT_MIN_REPS on a side */
};

/*
 * The one verdict between two samples: compare, reproduce
 * (and the reproduction tables of compare and site), the report's summary
 * and history's change points all decide by it, so one pair judged with
 * the same threshold among the same pairs gets one verdict everywhere.
 *
 * family is the number of pairs judged together (ratio_judgeable ones, at
 * least 1): each interval is taken at VERDICT_ALPHA / family (Bonferroni),
 * so that every verdict of the family holds at once with probability at
 * least 95 %; a report of 12 workloads that called each at its own 95 %
 * would call about one of 12 identical pairs different.  threshold is a
 * fraction (0.05 for 5 %).  *ci gets the interval (ok false for RATIO_FEW,
 * and for a value <= 0, which is RATIO_INCONCLUSIVE).  UP and DOWN are the
 * ratio new/old; for latency the caller reads UP as slower.
 */
#define VERDICT_ALPHA 0.05
#define VERDICT_MIN_REPS 2
enum ratio_verdict ratio_verdict(const double *old, size_t n_old, const double *new_,
				 size_t n_new, size_t family, double threshold,
				 struct ratio_ci *ci);
/* Can a pair of n_old and n_new repetitions be judged (and so count in a
 * family)? */
bool ratio_judgeable(size_t n_old, size_t n_new);

/* The spread of one sample: the half-width of its own interval as a
 * fraction of its geometric mean (the interval of the ratio of the sample
 * to a copy of itself measured without spread), at VERDICT_ALPHA / family.
 * A sample whose spread alone exceeds a threshold can tell no change of
 * that size.  NAN with fewer than VERDICT_MIN_REPS values or one <= 0. */
double ratio_spread(const double *v, size_t n, size_t family);

/* A --threshold as compare, history and site take it: a percentage, 0 or
 * more, "%" allowed after it ("5", "2.5%").  0 with *pct set, or -1 with
 * the fix printed to stderr. */
int ratio_parse_threshold(const char *v, double *pct);

#endif
