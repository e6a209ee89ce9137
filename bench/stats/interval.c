/*
 * interval.c - the length and the chart position of a time series' samples
 * (interval.h).
 */
#include "interval.h"

double interval_sample_len(size_t i, size_t n, double iv_s, double runtime_s)
{
	if (i + 1 != n || !(runtime_s > 0))
		return iv_s;
	double rest = runtime_s - iv_s * (double)i;
	if (rest < iv_s / 2)
		return 0;
	return rest < iv_s ? rest : iv_s;
}

double interval_sample_mid(size_t i, size_t n, double iv_s, double runtime_s)
{
	double len = interval_sample_len(i, n, iv_s, runtime_s);
	return iv_s * (double)i + (len > 0 ? len : iv_s) / 2;
}
