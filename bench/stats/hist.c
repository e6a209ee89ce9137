/*
 * hist.c - the log-linear latency histogram of hist.h (64 sub-buckets per
 * power of two): bucket arithmetic, merge, percentiles.  Pure computation;
 * the hot path (hist_add) is branch-light.
 */
#include "hist.h"

uint64_t hist_bucket_low(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	unsigned group = (idx - HIST_SUB) / HIST_SUB;
	unsigned sub = (idx - HIST_SUB) % HIST_SUB;
	return (uint64_t)(HIST_SUB + sub) << group;
}

uint64_t hist_bucket_high(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	if (idx >= HIST_BUCKETS - 1)
		return UINT64_MAX; /* the last bucket also holds everything larger */
	unsigned group = (idx - HIST_SUB) / HIST_SUB;
	return hist_bucket_low(idx) + (1ull << group) - 1;
}

uint64_t hist_bucket_mid(unsigned idx)
{
	uint64_t lo = hist_bucket_low(idx);
	if (idx < HIST_SUB)
		return lo;
	/* the last bucket is open-ended: report its nominal midpoint */
	unsigned group = (idx - HIST_SUB) / HIST_SUB;
	uint64_t hi = lo + (1ull << group) - 1;
	return lo + (hi - lo) / 2;
}

void hist_add(struct lat_hist *h, uint64_t ns)
{
	h->count[hist_index(ns)]++;
	h->total++;
}

void hist_add_n(struct lat_hist *h, uint64_t ns, uint64_t n)
{
	h->count[hist_index(ns)] += n;
	h->total += n;
}

void hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
	dst->total += src->total;
}

uint64_t hist_rank(uint64_t total, double p)
{
	if (!total || !(p > 0))
		return 0;
	if (p > 100)
		p = 100;
	/* rank = ceil(p/100 * N); guard against 99.99/100*10000 = 9999.0000001 */
	double x = p / 100.0 * (double)total;
	uint64_t rank = (uint64_t)x;
	if (x - (double)rank > 1e-9 * (x > 1 ? x : 1))
		rank++;
	if (rank < 1)
		rank = 1;
	if (rank > total)
		rank = total;
	return rank;
}

uint64_t hist_percentile(const struct lat_hist *h, double p)
{
	uint64_t rank = h ? hist_rank(h->total, p) : 0, cum = 0;
	if (!rank)
		return 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		cum += h->count[i];
		if (cum >= rank)
			return hist_bucket_mid(i);
	}
	return hist_bucket_mid(HIST_BUCKETS - 1);
}

const double stats_fio_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};
const size_t stats_fio_npercentiles =
	sizeof(stats_fio_percentiles) / sizeof(stats_fio_percentiles[0]);

