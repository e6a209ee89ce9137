/*
 * interval.h - where the samples of a time series lie: each interval's
 * length (the last is cut short by the end of the run) and the x at which
 * every chart draws it.  One rule for the fit (cliff.h), the report's
 * reader (rset_load.c) and the charts, so that they agree sample by sample.
 * Pure code, no IO, no other header.
 */
#ifndef IOMATRIX_INTERVAL_H
#define IOMATRIX_INTERVAL_H

#include <stddef.h>

/*
 * The length in seconds of sample i of n (interval iv_s each) of a series
 * that covered runtime_s: iv_s, except for the last, which is usually cut
 * short by the end of the run: its real length, or 0 when shorter than
 * half an interval (too few IOs to mean anything, and it would look like a
 * cliff: the sample is dropped).  runtime_s 0: unknown, every sample full.
 * The one rule for the fit, the report's reader and the charts.
 */
double interval_sample_len(size_t i, size_t n, double iv_s, double runtime_s);

/*
 * Where a chart draws sample i: the MIDPOINT of its interval (start + half
 * its length, interval_sample_len), the one x convention of every time-series
 * chart; the axis says so (INTERVAL_X_LABEL).
 */
double interval_sample_mid(size_t i, size_t n, double iv_s, double runtime_s);
#define INTERVAL_X_LABEL "time (s), each interval at its midpoint"

#endif
