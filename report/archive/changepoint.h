/*
 * changepoint.h - where a series of dated measurements changed level, by
 * compare's own statistics (model/ratio.h; documented for users in
 * `iomatrix history --help`):
 *
 *  - each pair of neighbouring sets gets the confidence interval of the
 *    ratio new/old, from Welch's t on the logs of the repetitions, with
 *    Bonferroni over the series' own neighbouring pairs (n - 1 of them: the
 *    family is this series and nothing else, so adding sets of other
 *    devices or workloads to the archive never changes its change points);
 *  - a step is a pair whose whole interval lies beyond +-threshold
 *    (ratio_judge: RATIO_UP or RATIO_DOWN), and whose new level stays: a set
 *    that a later one leaves again for the old level was an excursion, and
 *    the way back from it is no change either;
 *  - a series of two sets has no change point: one odd set is not a change.
 *
 * The archive keeps the mean, standard deviation and count of each set's
 * repetitions, not the values (archive.h).  When values are absent, the
 * log-scale mean and spread are those of a log-normal with that mean and
 * standard deviation (s^2 = ln(1 + cv^2), mu = ln(mean) - s^2 / 2), and
 * ratio_ci gets n values with exactly that sample mean and deviation of
 * their logs, which is all Welch's t reads.  Pure code.
 */
#ifndef IOMATRIX_CHANGEPOINT_H
#define IOMATRIX_CHANGEPOINT_H

#include <stddef.h>

#include "model/ratio.h"

struct cp_point {
	double mean, stddev;   /* over the repetitions of one set */
	int n;                 /* repetitions (0 or 1: no spread known) */
	const double *reps;    /* NULL, or the n repetition values (not owned) */
};

enum cp_kind { CP_NONE, CP_STEP };

struct cp_result {
	enum cp_kind kind;     /* on the first point of the new level */
	double change_pct;     /* ratio new/old of the pair, as percent change */
};

/* The family-wise error rate over a series' neighbouring pairs: the one
 * verdict's (model/ratio.h). */
#define CP_ALPHA VERDICT_ALPHA
/* Most repetitions a set may have for the values rebuilt from its mean and
 * standard deviation (a set of more is rebuilt as this many: fewer degrees
 * of freedom, so a wider interval, never a narrower one). */
#define CP_MAX_REPS 64

/*
 * Fill out[0..n-1].  threshold_pct: the smallest change that counts (as
 * compare's --threshold).  Returns the number of change points.
 */
int cp_detect(const struct cp_point *x, size_t n, double threshold_pct,
	      struct cp_result *out);

/* Kind as a word: "step", "" for none. */
const char *cp_kind_name(enum cp_kind k);

#endif
