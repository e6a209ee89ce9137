/*
 * changepoint.h - where a series of dated measurements changed level.
 * Two rules together (documented for users in `iomatrix history --help`):
 *
 *  - consecutive: two neighbouring sets differ by compare's rules, i.e. by
 *    at least the threshold and significantly by Welch's t-test, with
 *    Holm-Bonferroni over the series' neighbouring pairs (cmpstat.h), and
 *    no verdict with fewer than 3 repetitions on either side;
 *  - step detection: binary segmentation of the whole series finds a level
 *    shift of at least the threshold that is significant against the
 *    series' own set-to-set scatter (a robust estimate from successive
 *    differences), Bonferroni over the candidate splits.
 *
 * A change point is a split of the step detection.  It is a "step" when the
 * consecutive rule agrees at that point, a "shift" when the level moved but
 * no single pair of sets proves it, and a "drift" when several splits of
 * the same sign follow each other closely (a slow slide carved into
 * stairs): those are reported once, at the first.  A single set out of line
 * (an excursion that comes back) is not a change point.  Pure code.
 */
#ifndef IOMATRIX_CHANGEPOINT_H
#define IOMATRIX_CHANGEPOINT_H

#include <stddef.h>

struct cp_point {
	double mean, stddev;   /* over the repetitions of one set */
	int n;                 /* repetitions (0 or 1: no spread known) */
};

enum cp_kind { CP_NONE, CP_STEP, CP_SHIFT, CP_DRIFT };

struct cp_result {
	enum cp_kind kind;     /* on the first point of the new level */
	double change_pct;     /* new level against the old, percent */
	size_t span;           /* drift: points from its start to the new level */
};

/* Default family-wise error rate of both rules. */
#define CP_ALPHA 0.05
/* Fewest repetitions on each side for compare's rule to give a verdict
 * (compare's MIN_REPS). */
#define CP_MIN_REPS 3

/*
 * Fill out[0..n-1].  threshold_pct: the smallest change that counts (as
 * compare's --threshold).  Returns the number of change points, -1 when
 * out of memory.
 */
int cp_detect(const struct cp_point *x, size_t n, double threshold_pct,
	      double alpha, struct cp_result *out);

/* Kind as a word: "step", "shift", "drift", "" for none. */
const char *cp_kind_name(enum cp_kind k);

#endif
