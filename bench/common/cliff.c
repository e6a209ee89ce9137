/*
 * cliff.c - two-segment change-point fit by prefix sums, and stall
 * detection, for the per-interval bandwidth of write cells and
 * preconditioning passes.
 */
#include "cliff.h"

#include <stdlib.h>
#include <string.h>

/*
 * For a break at k the squared error of the two constant segments is
 *   SSE(k) = (Q - S(k)^2/k - (S - S(k))^2/(n - k))   with Q = sum x^2 over
 * everything; Q is the same for every k, so minimising SSE means
 * maximising S(k)^2/k + (S-S(k))^2/(n-k): one running prefix sum, O(n).
 */
void cliff_fit(const double *x, size_t n, struct cliff *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n < 2)
		return;
	double total = 0, sumsq = 0;
	for (size_t i = 0; i < n; i++) {
		total += x[i];
		sumsq += x[i] * x[i];
	}
	double pre = 0, best = -1;
	size_t bk = 1;
	for (size_t k = 1; k < n; k++) {
		pre += x[k - 1];
		double post = total - pre;
		double score = pre * pre / (double)k +
			       post * post / (double)(n - k);
		if (score > best) {
			best = score;
			bk = k;
		}
	}
	double s1 = 0;
	for (size_t i = 0; i < bk; i++)
		s1 += x[i];
	out->fitted = true;
	out->brk = bk;
	out->mean1 = s1 / (double)bk;
	out->mean2 = (total - s1) / (double)(n - bk);
	out->sse = sumsq - best;
	if (out->sse < 0)
		out->sse = 0; /* rounding on a perfect fit */
	out->drop = out->mean1 > 0 ? 1.0 - out->mean2 / out->mean1 : 0;
	out->found = bk >= CLIFF_MIN_SEG && n - bk >= CLIFF_MIN_SEG &&
		     out->drop >= CLIFF_MIN_DROP;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int cliff_median(const double *x, size_t n, double *out)
{
	*out = 0;
	if (n == 0)
		return 0;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	*out = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
	free(s);
	return 0;
}

long cliff_stalls(const double *x, size_t n, size_t *idx, size_t max)
{
	double med;
	if (cliff_median(x, n, &med) < 0)
		return -1;
	long count = 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i] < CLIFF_STALL_FRAC * med) {
			if ((size_t)count < max)
				idx[count] = i;
			count++;
		}
	}
	return count;
}

long cliff_bw_series(const struct series *s, uint64_t runtime_ns, double **out)
{
	*out = NULL;
	if (s->n == 0 || s->interval_ns == 0)
		return 0;
	double *bw = malloc(s->n * sizeof(*bw));
	if (!bw)
		return -1;
	size_t n = 0;
	double iv = (double)s->interval_ns / 1e9;
	for (size_t i = 0; i < s->n; i++) {
		double len = iv;
		if (i + 1 == s->n && runtime_ns) {
			double rest = (double)runtime_ns / 1e9 - iv * (double)i;
			if (rest < iv / 2)
				break;
			if (rest < iv)
				len = rest;
		}
		bw[n++] = (double)s->bytes[i] / len;
	}
	*out = bw;
	return (long)n;
}
