/*
 * ivhist.h - one latency histogram per interval of a time series
 * (results/README.md, series.hist), kept sparse: an interval holds only
 * its non-empty buckets, as (bucket index, count) pairs in rising bucket
 * order.  For every bucket the intervals of a repetition add up to its
 * histogram exactly, and two series of one interval length merge interval
 * by interval, bucket by bucket (the jobs of a repetition, the hosts of a
 * fleet aggregate), so the sums keep holding.
 *
 * Memory: 10 bytes per non-empty bucket of an interval (an hour of 1 s
 * intervals at 400 buckets each: 14 MB).  Pure code, no IO.  Functions
 * that allocate return -1 when out of memory and leave the series as it
 * was.
 */
#ifndef IOMATRIX_IVHIST_H
#define IOMATRIX_IVHIST_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

struct ivhist {
	size_t n;           /* intervals */
	size_t *off;        /* n + 1 entries once allocated: interval i holds
			     * the pairs [off[i], off[i + 1]) */
	uint16_t *idx;      /* bucket index (hist.h), rising in an interval */
	uint64_t *cnt;      /* its count, never 0 */
	size_t npairs;
	size_t alloc_n, alloc_pairs;
};

void ivhist_init(struct ivhist *s);
void ivhist_release(struct ivhist *s);
/* Room for `intervals` intervals and `pairs` pairs in all, so that the
 * appends below allocate nothing until they are used up. */
int ivhist_reserve(struct ivhist *s, size_t intervals, size_t pairs);

/*
 * Close the next interval: it holds what `run` counts above `snap`, bucket
 * by bucket (run's counts only grow), and snap becomes run.  The worker
 * counts into the repetition's histogram and closes an interval when the
 * first completion of a later one arrives: one compare per reaped batch in
 * the hot path, a pass over the buckets once per interval.  The totals of
 * both histograms are not read.
 */
int ivhist_close(struct ivhist *s, struct lat_hist *snap, const struct lat_hist *run);
/* Append an interval of k pairs (k may be 0), idx rising, cnt > 0. */
int ivhist_push(struct ivhist *s, const uint16_t *idx, const uint64_t *cnt, size_t k);
/* Drop the intervals from n on (nothing when n >= s->n). */
void ivhist_truncate(struct ivhist *s, size_t n);
/* dst += src, interval by interval (dst grows to src's length). */
int ivhist_merge(struct ivhist *dst, const struct ivhist *src);
/* A copy of src into dst (released first). */
int ivhist_copy(struct ivhist *dst, const struct ivhist *src);

/*
 * The buckets `run` counts above `snap` into idx/cnt (room for
 * HIST_BUCKETS each), rising; snap becomes run.  Their number.  What
 * ivhist_close appends as one interval.
 */
size_t ivhist_diff(struct lat_hist *snap, const struct lat_hist *run, uint16_t *idx,
		   uint64_t *cnt);

/*
 * The intervals of a repetition gathered from its jobs as each closes one
 * (worker.c, jobs as threads), so that all the jobs keep one set of
 * intervals, not one each (16 jobs at 100 ms intervals for a minute:
 * 36 MB of per-job pairs at peak, against a few MB for the sum).  An
 * interval that some job may still add to is dense (one count per
 * bucket; the jobs are rarely more than an interval or two apart); once
 * every adder is past it, it is settled: its non-empty buckets appended
 * to `done`, in order.  The caller serializes the calls.
 */
struct ivacc {
	struct ivhist done;         /* intervals [0, done.n) settled */
	struct ivacc_open {
		size_t at;
		uint64_t *count;    /* HIST_BUCKETS */
	} *open;
	size_t nopen, aopen;
	size_t *pos;                /* each adder's open interval */
	unsigned nadders;
};
/* nadders adders, each at interval 0.  -1 out of memory. */
int ivacc_init(struct ivacc *a, unsigned nadders);
/* Adder i closes interval at with k pairs (idx rising) and has interval
 * next open (SIZE_MAX: it is done).  -1 out of memory. */
int ivacc_add(struct ivacc *a, unsigned i, size_t at, size_t next, const uint16_t *idx,
	      const uint64_t *cnt, size_t k);
/* Everything settled, cut or filled (with empty intervals) to n, moved
 * into out (released first); a is released.  -1 out of memory. */
int ivacc_take(struct ivacc *a, size_t n, struct ivhist *out);
void ivacc_release(struct ivacc *a);

/* IOs in interval i (0 past the end). */
uint64_t ivhist_count(const struct ivhist *s, size_t i);
/* Percentile p of interval i, as hist_percentile: the midpoint of the
 * bucket holding the sample of rank ceil(p/100 x count); 0 when empty. */
uint64_t ivhist_percentile(const struct ivhist *s, size_t i, double p);
/* The intervals' sum, bucket by bucket, into out (zeroed first; its total
 * set).  0, or -1 when a sum would not fit in 64 bits. */
int ivhist_sum(const struct ivhist *s, struct lat_hist *out);
/* Interval i into out (zeroed first; its total set). */
void ivhist_interval(const struct ivhist *s, size_t i, struct lat_hist *out);

#endif
