/*
 * cliff.h - the per-interval bandwidth of a write's time series, and its
 * stalls (intervals far below the median).  The plateaus and the write
 * cliff found in that series are plateau.h's.
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
#include "interval.h" /* interval_sample_len() */
#include "plateau.h"  /* PLATEAU_STALL: what a stall is */

/* Median of x[0..n) (0 when n == 0); x is not modified.  -1 on OOM. */
int cliff_median(const double *x, size_t n, double *out);

/*
 * Indexes of stalls: samples below PLATEAU_STALL of the median.  Writes
 * up to max indexes into idx and returns how many stalls there are in
 * total (may exceed max), or -1 on OOM.
 */
long cliff_stalls(const double *x, size_t n, size_t *idx, size_t max);

/*
 * Bandwidth (bytes/s) per interval of a time series that covered runtime_ns.
 * The last interval is usually partial: it is scaled to its real length,
 * or dropped (interval_sample_len).  Returns the count and sets
 * *out (caller frees), or -1 on OOM.
 */
long cliff_bw_series(const struct series *s, uint64_t runtime_ns, double **out);

#endif
