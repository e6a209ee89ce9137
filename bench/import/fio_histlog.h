/*
 * fio_histlog.h - fio's histogram logs (write_hist_log with log_hist_msec)
 * into a cell's per-interval histograms (series.hist, results/README.md):
 * `iomatrix import fio JOB.json --hist-log LOG...`.
 *
 * fio's latency bins are iomatrix's buckets: both are 64 per power of two
 * with the same edges (fio's stat.h: values below 128 ns exact, then the 6
 * bits under the top one; iomatrix's stats/hist.h), so bin i of fio lands
 * whole in the bucket of its lowest value and no count moves.  A log line
 * is "msec, ddir, bs, c0, ..., c1855": what each of fio's 1,856 bins
 * gained in one window of log_hist_msec (fio's iolog.c, flush_hist_samples).
 * fio logs a window when the first completion after its end arrives, so
 * the IOs after the last line are in no line: they are in the job's json+
 * bins, and become the cell's last interval (the bins less every line),
 * so that the intervals add up to the histogram as every cell's do.
 *
 * Errors: parsers return -1 and add "file:line:col: message" to errs.
 */
#ifndef IOMATRIX_FIO_HISTLOG_H
#define IOMATRIX_FIO_HISTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "stats/rep.h"
#include "util/errlist.h"

/* fio's bins per line (FIO_IO_U_PLAT_NR of fio's stat.h: 29 x 64). */
#define FIO_HISTLOG_BINS 1856

/*
 * Read the logs (fio writes one per job clone: they are summed window by
 * window) and give each direction of rep that they hold its series: one
 * interval per window, then the rest of its json+ histogram.  rep must
 * hold fio's json+ histogram of completion latency (the kind fio logs)
 * for every direction a log has.  interval_ns: the job's log_hist_msec
 * as fio echoed it, 0 unknown (then the median spacing of the lines).
 * 0, or -1 with the reason in errs (the log's file:line:col where there
 * is one).
 */
int fio_histlog_attach(struct rep_result *rep, const char *const *paths, size_t n,
		       uint64_t interval_ns, struct errlist *errs);

#endif
