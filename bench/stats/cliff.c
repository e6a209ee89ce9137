/*
 * cliff.c - the bandwidth series and stall detection for the write
 * cells and preconditioning passes (cliff.h).
 */
#include "cliff.h"

#include <stdlib.h>
#include <string.h>

int cliff_median(const double *x, size_t n, double *out)
{
	*out = 0;
	if (n == 0)
		return 0;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	*out = stats_median_inplace(s, n);
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
		if (x[i] < PLATEAU_STALL * med) {
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
		double len = interval_sample_len(i, s->n, iv, (double)runtime_ns / 1e9);
		if (len <= 0)
			break;
		bw[n++] = (double)s->bytes[i] / len;
	}
	*out = bw;
	return (long)n;
}
