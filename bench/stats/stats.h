/*
 * stats.h - latency statistics as exact as fio's: a log-linear histogram
 * (hist.h: 64 sub-buckets per power of two, <= 0.78 % error at the bucket
 * midpoint, exactly mergeable), exact min/max/mean/stddev (Welford),
 * per-interval time series with a histogram per interval (ivhist.h),
 * and summaries across repetitions (mean, stddev, CV, Student-t CI).
 *
 * Values are nanoseconds.  Pure code, no IO: unit-tested against sorting.
 */
#ifndef IOMATRIX_STATS_H
#define IOMATRIX_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"        /* the latency histogram */
#include "ivhist.h"  /* one histogram per interval */
#include "student.h"     /* student_t95() of the CI */

/* Exact running statistics (Welford); mergeable (Chan et al.). */
struct welford {
	uint64_t n;
	double mean;
	double m2;
	uint64_t min, max;
};
void welford_init(struct welford *w);
void welford_add(struct welford *w, double x);
void welford_merge(struct welford *dst, const struct welford *src);
double welford_stddev(const struct welford *w); /* sample stddev, n-1 */

/* The finer samples of the start of a write (a cache of a few hundred ms
 * runs out inside a few coarse intervals): SERIES_FINE_NS intervals over
 * the first SERIES_FINE_SPAN_NS, beside the coarse series, never instead
 * of it: every IO is counted in the coarse series as before. */
#define SERIES_FINE_NS 20000000ull          /* 20 ms */
#define SERIES_FINE_SPAN_NS 2000000000ull   /* the first 2 s */

/* One time series per direction: ios, bytes and latency sum per interval;
 * with fine_n, also per fine interval over [0, fine_n * fine_interval_ns);
 * and each interval's latency histogram. */
struct series {
	uint64_t interval_ns;
	size_t n, alloc;
	uint64_t *ios;
	uint64_t *bytes;
	uint64_t *lat_sum_ns;
	uint64_t fine_interval_ns;  /* 0: no fine samples */
	size_t fine_n;              /* fixed at series_init_fine */
	uint64_t *fine_ios, *fine_bytes, *fine_lat_sum_ns;
	/* the latency histogram of each coarse interval (ivhist.h):
	 * filled by the worker (series_add does not touch it), merged and
	 * released with the series; n equals the series' n once a
	 * repetition has ended, 0 where there are none (imports, old sets) */
	struct ivhist hist;
};
void series_init(struct series *s, uint64_t interval_ns);
/* Also keep fine samples of fine_ns over the first span_ns (allocated here,
 * once: no allocation while IO runs).  Nothing is done when fine_ns is not
 * finer than the coarse interval.  -1 on OOM. */
int series_init_fine(struct series *s, uint64_t fine_ns, uint64_t span_ns);
/* Account one IO completed at t_ns after measurement start. -1 on OOM. */
int series_add(struct series *s, uint64_t t_ns, uint64_t bytes, uint64_t lat_ns);
/* Account n IOs completed at the same time t_ns (a reaped batch): bytes and
 * lat_sum_ns are their totals.  -1 on OOM. */
int series_add_n(struct series *s, uint64_t t_ns, uint64_t ios, uint64_t bytes,
		 uint64_t lat_sum_ns);
/* series_add_n when the caller knows the interval: idx = t_ns /
 * interval_ns (the worker keeps it with the open interval, worker.c):
 * no division in the hot path, and no call while idx is below n. */
int series_add_slow(struct series *s, size_t idx, uint64_t t_ns, uint64_t ios,
		    uint64_t bytes, uint64_t lat_sum_ns);
static inline int series_add_at(struct series *s, size_t idx, uint64_t t_ns, uint64_t ios,
				uint64_t bytes, uint64_t lat_sum_ns)
{
	if (idx >= s->n || s->fine_n)
		return series_add_slow(s, idx, t_ns, ios, bytes, lat_sum_ns);
	s->ios[idx] += ios;
	s->bytes[idx] += bytes;
	s->lat_sum_ns[idx] += lat_sum_ns;
	return 0;
}
/* Make room for n intervals up front (no allocation later).  -1 on OOM. */
int series_reserve(struct series *s, size_t n);
int series_merge(struct series *dst, const struct series *src);
void series_release(struct series *s);

/* Summary of a sample of repetitions (e.g. IOPS of each repetition). */
struct summary {
	size_t n;
	double mean, stddev, min, max;
	double cv;    /* stddev / mean, 0 when n < 2 or mean == 0 */
	double ci95;  /* half-width of the 95 % CI (Student's t), 0 when n < 2 */
};
void summary_compute(const double *x, size_t n, struct summary *out);

/* Median of v[0..n), n > 0, in expected O(n) (Hoare's selection); v is
 * reordered.  The one median of the code (cliff_median copies first). */
double stats_median_inplace(double *v, size_t n);

#endif
