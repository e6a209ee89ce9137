/*
 * merge.h - aggregate mode's arithmetic: read back the repetitions that
 * each host's agent measured and merge them into one fleet repetition.
 * Rates add up over the common window; the latency distribution is the
 * bucket-by-bucket sum of the hosts' log-linear histograms (never an
 * average of percentiles); min/max/mean/stddev merge exactly (Chan).
 */
#ifndef IOMATRIX_FLEET_MERGE_H
#define IOMATRIX_FLEET_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "stats/rep.h"

/*
 * Read one repetition object of a cell file (results/README.md REP) into
 * out: runtime, cpu, and per direction ios, bytes, latency moments and the
 * histogram (the series too).  0, or -1 with the reason in why.  out must
 * be released with rep_result_release() either way.
 */
int fleet_rep_from_json(const cJSON *rep, struct rep_result *out,
			char *why, size_t whylen);

/*
 * Merge n hosts' repetitions into out.  window_ns is the common window
 * (the latest start to the earliest end across hosts); out->runtime_ns
 * becomes window_ns and out's ios/bytes each host's rate times the window,
 * so that out's IOPS is exactly the sum of the hosts' IOPS.  Histograms,
 * latency moments and per-interval series are summed exactly; CPU is the
 * sum of the hosts' percentages of one CPU.  0; -EOVERFLOW when a sum of
 * counts (a histogram bucket or total, samples, a series interval) would
 * not fit in 64 bits (out is then empty: refuse, never wrap); -1 out of
 * memory.
 */
int fleet_rep_merge(const struct rep_result *hosts, size_t n,
		    uint64_t window_ns, struct rep_result *out);

/*
 * The common window of n repetitions that started at start_ns[i] (on one
 * clock) and measured for ramp_ns then runtime[i]: from the latest start
 * of measurement to the earliest end.  Falls back to the shortest runtime
 * when they do not overlap.  *skew_ns gets max - min of the starts.
 */
uint64_t fleet_common_window(const int64_t *start_ns, const uint64_t *runtime_ns,
			     size_t n, int64_t *skew_ns);

#endif
