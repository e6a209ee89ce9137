/*
 * cliff.h - the write cliff found in the data: a two-segment change-point fit
 * of a per-interval bandwidth series (least squares over every break point,
 * O(n) from prefix sums), and stalls (intervals far below the median).
 *
 * Pure code, no IO: unit-tested on synthetic series.  Its JSON (the
 * "cliff" object of a cell file) is resultset_cliff_to_json()'s.
 */
#ifndef IOMATRIX_CLIFF_H
#define IOMATRIX_CLIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define CLIFF_MIN_SEG 3      /* samples each segment must hold */
#define CLIFF_MIN_DROP 0.30  /* second mean at least 30 % below the first */
#define CLIFF_STALL_FRAC 0.10 /* a stall: an interval below 10 % of the median */

struct cliff {
	bool fitted;     /* n >= 2: brk, mean1, mean2 are the best fit */
	bool found;      /* a cliff: drop >= CLIFF_MIN_DROP, segments >= MIN_SEG */
	size_t brk;      /* first sample of the second segment */
	size_t n;        /* samples fitted */
	double mean1;    /* level before the break */
	double mean2;    /* level from the break on */
	double drop;     /* 1 - mean2 / mean1 (0 when mean1 <= 0) */
	double sse;      /* squared error of the two-segment fit */
};

/*
 * Fit two constant segments to x[0..n) with the break at the place that
 * minimises the squared error over every break point 1..n-1 (each segment
 * at least one sample), then decide whether it is a cliff.  The break is
 * chosen without the 3-sample rule so that a drop in the last two samples
 * stays where it is (and is not reported) instead of being stretched into
 * a 3-sample segment that would look like a cliff.
 */
void cliff_fit(const double *x, size_t n, struct cliff *out);

/* Median of x[0..n) (0 when n == 0); x is not modified.  -1 on OOM. */
int cliff_median(const double *x, size_t n, double *out);

/*
 * Indexes of stalls: samples below CLIFF_STALL_FRAC of the median.  Writes
 * up to max indexes into idx and returns how many stalls there are in
 * total (may exceed max), or -1 on OOM.
 */
long cliff_stalls(const double *x, size_t n, size_t *idx, size_t max);

/*
 * Bandwidth (bytes/s) per interval of a time series that covered runtime_ns.
 * The last interval is usually partial: it is scaled to its real length,
 * or dropped when shorter than half an interval (too few IOs to mean
 * anything, and it would look like a cliff).  Returns the count and sets
 * *out (caller frees), or -1 on OOM.
 */
long cliff_bw_series(const struct series *s, uint64_t runtime_ns, double **out);

#endif
