/*
 * steady.c - the SNIA PTS steady-state rule on a series of rounds (range and
 * least-squares slope excursion over the measurement window, both relative
 * to the window average).
 */
#include "steady.h"

#include <math.h>
#include <string.h>

/* Limits are "<=": a value on the limit passes.  The tolerance keeps a range
 * of exactly 20 % from failing on the last bit of a division. */
#define STEADY_EPS 1e-9

void steady_rule_init(struct steady_rule *r)
{
	r->window = STEADY_WINDOW_DEFAULT;
	r->range_frac = STEADY_RANGE_DEFAULT;
	r->slope_frac = STEADY_SLOPE_DEFAULT;
	r->max = STEADY_MAX_DEFAULT;
}

void steady_judge(const double *x, size_t n, const struct steady_rule *r,
		  struct steady_verdict *v)
{
	memset(v, 0, sizeof(*v));
	size_t w = r->window < 2 ? 2 : r->window;
	size_t from = n > w ? n - w : 0;
	size_t m = n - from;
	if (m == 0)
		return;
	double sum = 0, lo = x[from], hi = x[from];
	for (size_t i = from; i < n; i++) {
		sum += x[i];
		if (x[i] < lo)
			lo = x[i];
		if (x[i] > hi)
			hi = x[i];
	}
	v->avg = sum / (double)m;
	v->range = hi - lo;
	/* least squares over (0, x0) .. (m-1, x_{m-1}) */
	double tbar = (double)(m - 1) / 2.0, sxy = 0, sxx = 0;
	for (size_t i = 0; i < m; i++) {
		double dt = (double)i - tbar;
		sxy += dt * (x[from + i] - v->avg);
		sxx += dt * dt;
	}
	v->slope = sxx > 0 ? sxy / sxx : 0;
	v->excursion = v->slope * (double)(m - 1);
	if (v->avg != 0) {
		v->range_frac = v->range / fabs(v->avg);
		v->slope_frac = fabs(v->excursion) / fabs(v->avg);
	}
	v->judged = m >= w;
	if (!v->judged)
		return;
	v->range_ok = v->avg != 0 && v->range_frac <= r->range_frac + STEADY_EPS;
	v->slope_ok = v->avg != 0 && v->slope_frac <= r->slope_frac + STEADY_EPS;
	v->steady = v->range_ok && v->slope_ok;
}

size_t steady_first_round(const double *x, size_t n,
			  const struct steady_rule *r)
{
	struct steady_verdict v;
	for (size_t k = 1; k <= n; k++) {
		steady_judge(x, k, r, &v);
		if (v.steady)
			return k;
	}
	return 0;
}
