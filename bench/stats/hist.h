/*
 * hist.h - the latency histogram: log-linear, 64 sub-buckets per power of
 * two (<= 0.78 % error at the bucket midpoint), exactly mergeable: two
 * histograms add bucket by bucket, so the histogram of many jobs, hosts or
 * intervals is the sum of theirs, never an average of percentiles.
 *
 * Values are nanoseconds.  Pure code, no IO: unit-tested against sorting.
 */
#ifndef IOMATRIX_HIST_H
#define IOMATRIX_HIST_H

#include <stddef.h>
#include <stdint.h>

/* 0..63 ns exact; then 64 buckets for each power of two 2^6 .. 2^39 ns
 * (~18 minutes).  Larger values land in the last bucket. */
#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_GROUPS 34
#define HIST_BUCKETS (HIST_SUB + HIST_GROUPS * HIST_SUB)

struct lat_hist {
	uint64_t count[HIST_BUCKETS];
	uint64_t total;
};

/* The bucket of ns: inline, as the worker calls it for every IO. */
static inline unsigned hist_index(uint64_t ns)
{
	if (ns < HIST_SUB)
		return (unsigned)ns;
	unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
	unsigned group = msb - HIST_SUB_BITS;
	if (group >= HIST_GROUPS)
		return HIST_BUCKETS - 1;
	unsigned sub = (unsigned)(ns >> group) & (HIST_SUB - 1);
	return HIST_SUB + group * HIST_SUB + sub;
}
uint64_t hist_bucket_low(unsigned idx);   /* smallest value in bucket */
uint64_t hist_bucket_high(unsigned idx);  /* largest value in bucket */
uint64_t hist_bucket_mid(unsigned idx);   /* representative value */
void hist_add(struct lat_hist *h, uint64_t ns);
void hist_add_n(struct lat_hist *h, uint64_t ns, uint64_t n);
void hist_merge(struct lat_hist *dst, const struct lat_hist *src);
/* Value at percentile p (0 < p <= 100): the bucket holding the sample of rank
 * ceil(p/100 * total), reported at the bucket midpoint; 0 if empty. */
uint64_t hist_percentile(const struct lat_hist *h, double p);
/* That rank, ceil(p/100 x total) within [1, total]; 0 when total is 0 or
 * p is not above 0. */
uint64_t hist_rank(uint64_t total, double p);

/* fio's default percentile list. */
extern const double stats_fio_percentiles[];
extern const size_t stats_fio_npercentiles;

#endif
