/*
 * stats.c - latency statistics: exact running moments (Welford, mergeable),
 * per-interval time series and the across-repetition summary with a
 * Student-t confidence interval.  Pure computation.  The histogram is
 * hist.c's, the per-interval histograms ivhist.c's.
 */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Welford ---- */

void welford_init(struct welford *w)
{
	w->n = 0;
	w->mean = 0;
	w->m2 = 0;
	w->min = UINT64_MAX;
	w->max = 0;
}

void welford_add(struct welford *w, double x)
{
	w->n++;
	double d = x - w->mean;
	w->mean += d / (double)w->n;
	w->m2 += d * (x - w->mean);
	uint64_t v = x <= 0 ? 0 : (uint64_t)x;
	if (v < w->min)
		w->min = v;
	if (v > w->max)
		w->max = v;
}

/* Chan, Golub and LeVeque's pairwise combination: exact in real arithmetic. */
void welford_merge(struct welford *dst, const struct welford *src)
{
	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	double na = (double)dst->n, nb = (double)src->n, n = na + nb;
	double d = src->mean - dst->mean;
	dst->mean += d * nb / n;
	dst->m2 += src->m2 + d * d * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double welford_stddev(const struct welford *w)
{
	if (w->n < 2 || w->m2 <= 0)
		return 0;
	return sqrt(w->m2 / (double)(w->n - 1));
}

/* ---- time series ---- */

void series_init(struct series *s, uint64_t interval_ns)
{
	memset(s, 0, sizeof(*s));
	ivhist_init(&s->hist);
	s->interval_ns = interval_ns ? interval_ns : 1000000000ull;
}

int series_init_fine(struct series *s, uint64_t fine_ns, uint64_t span_ns)
{
	if (!fine_ns || fine_ns >= s->interval_ns || span_ns < fine_ns || s->fine_n)
		return 0;
	size_t n = (size_t)(span_ns / fine_ns);
	s->fine_ios = calloc(n, sizeof(uint64_t));
	s->fine_bytes = calloc(n, sizeof(uint64_t));
	s->fine_lat_sum_ns = calloc(n, sizeof(uint64_t));
	if (!s->fine_ios || !s->fine_bytes || !s->fine_lat_sum_ns) {
		free(s->fine_ios);
		free(s->fine_bytes);
		free(s->fine_lat_sum_ns);
		s->fine_ios = s->fine_bytes = s->fine_lat_sum_ns = NULL;
		return -1;
	}
	s->fine_interval_ns = fine_ns;
	s->fine_n = n;
	return 0;
}

int series_reserve(struct series *s, size_t n)
{
	if (n <= s->alloc)
		return 0;
	uint64_t *a = realloc(s->ios, n * sizeof(*a));
	if (!a)
		return -1;
	s->ios = a;
	a = realloc(s->bytes, n * sizeof(*a));
	if (!a)
		return -1;
	s->bytes = a;
	a = realloc(s->lat_sum_ns, n * sizeof(*a));
	if (!a)
		return -1;
	s->lat_sum_ns = a;
	size_t old = s->alloc;
	memset(s->ios + old, 0, (n - old) * sizeof(*a));
	memset(s->bytes + old, 0, (n - old) * sizeof(*a));
	memset(s->lat_sum_ns + old, 0, (n - old) * sizeof(*a));
	s->alloc = n;
	return 0;
}

/* Grow so index idx exists; new intervals are zero. */
static int series_grow(struct series *s, size_t idx)
{
	if (idx >= s->alloc) {
		size_t n = s->alloc ? s->alloc * 2 : 16;
		while (n <= idx)
			n *= 2;
		if (series_reserve(s, n) < 0)
			return -1;
	}
	if (idx >= s->n)
		s->n = idx + 1;
	return 0;
}

int series_add_n(struct series *s, uint64_t t_ns, uint64_t ios, uint64_t bytes,
		 uint64_t lat_sum_ns)
{
	return series_add_slow(s, (size_t)(t_ns / s->interval_ns), t_ns, ios, bytes, lat_sum_ns);
}

int series_add_slow(struct series *s, size_t idx, uint64_t t_ns, uint64_t ios,
		    uint64_t bytes, uint64_t lat_sum_ns)
{
	if (series_grow(s, idx) < 0)
		return -1;
	s->ios[idx] += ios;
	s->bytes[idx] += bytes;
	s->lat_sum_ns[idx] += lat_sum_ns;
	/* past the fine span (after 2 s): one compare, no division */
	if (s->fine_n && t_ns < (uint64_t)s->fine_n * s->fine_interval_ns) {
		size_t f = (size_t)(t_ns / s->fine_interval_ns);
		if (f < s->fine_n) {
			s->fine_ios[f] += ios;
			s->fine_bytes[f] += bytes;
			s->fine_lat_sum_ns[f] += lat_sum_ns;
		}
	}
	return 0;
}

int series_add(struct series *s, uint64_t t_ns, uint64_t bytes, uint64_t lat_ns)
{
	return series_add_n(s, t_ns, 1, bytes, lat_ns);
}

int series_merge(struct series *dst, const struct series *src)
{
	if (src->n == 0)
		return 0;
	if (series_grow(dst, src->n - 1) < 0 || ivhist_merge(&dst->hist, &src->hist) < 0)
		return -1;
	for (size_t i = 0; i < src->n; i++) {
		dst->ios[i] += src->ios[i];
		dst->bytes[i] += src->bytes[i];
		dst->lat_sum_ns[i] += src->lat_sum_ns[i];
	}
	if (src->fine_n && !dst->fine_n &&
	    series_init_fine(dst, src->fine_interval_ns, src->fine_n * src->fine_interval_ns) < 0)
		return -1;
	if (src->fine_n && dst->fine_n == src->fine_n &&
	    dst->fine_interval_ns == src->fine_interval_ns)
		for (size_t i = 0; i < src->fine_n; i++) {
			dst->fine_ios[i] += src->fine_ios[i];
			dst->fine_bytes[i] += src->fine_bytes[i];
			dst->fine_lat_sum_ns[i] += src->fine_lat_sum_ns[i];
		}
	return 0;
}

void series_release(struct series *s)
{
	free(s->ios);
	free(s->bytes);
	free(s->lat_sum_ns);
	free(s->fine_ios);
	free(s->fine_bytes);
	free(s->fine_lat_sum_ns);
	s->ios = s->bytes = s->lat_sum_ns = NULL;
	s->fine_ios = s->fine_bytes = s->fine_lat_sum_ns = NULL;
	s->n = s->alloc = 0;
	s->fine_n = 0;
	s->fine_interval_ns = 0;
	ivhist_release(&s->hist);
}

/* ---- summaries ---- */

void summary_compute(const double *x, size_t n, struct summary *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n == 0)
		return;
	double sum = 0, mn = x[0], mx = x[0];
	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < mn)
			mn = x[i];
		if (x[i] > mx)
			mx = x[i];
	}
	double mean = sum / (double)n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	out->mean = mean;
	out->min = mn;
	out->max = mx;
	if (n >= 2) {
		out->stddev = sqrt(ss / (double)(n - 1));
		out->cv = mean != 0 ? out->stddev / fabs(mean) : 0;
		out->ci95 = student_t95(n - 1) * out->stddev / sqrt((double)n);
	}
}

/* The k-th smallest of v[0..n) (k < n), in expected O(n): Hoare's
 * selection with a median-of-three pivot; reorders v so that v[0..k) are
 * <= v[k]. */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		double a = v[lo], b = v[mid], c = v[hi];
		double piv = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < piv)
				i++;
			while (v[j] > piv)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

double stats_median_inplace(double *v, size_t n)
{
	double hi = select_kth(v, n, n / 2);
	if (n % 2)
		return hi;
	double lo = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + hi) / 2.0;
}
