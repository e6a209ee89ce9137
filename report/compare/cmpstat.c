/*
 * cmpstat.c - Welch's t-test, Student's t distribution (through the
 * regularised incomplete beta function, Lentz's continued fraction) and
 * Holm-Bonferroni, for compare and history (cmpstat.h).
 */
#include <math.h>
#include <stdlib.h>

#include "cmpstat.h"

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2 * m;
		double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	double bt = exp(lbt);
	/* the continued fraction converges fast on this side of the mean */
	if (x < (a + 1) / (a + b + 2))
		return bt * beta_cf(a, b, x) / a;
	return 1 - bt * beta_cf(b, a, 1 - x) / b;
}

double cmpstat_t_cdf(double t, double df)
{
	if (!(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t)); /* P(T > |t|) */
	return t >= 0 ? 1 - tail : tail;
}

double cmpstat_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* bisection on the CDF: monotone, and 200 steps reach double precision */
	double lo = -1, hi = 1;
	while (cmpstat_t_cdf(lo, df) > p)
		lo *= 2;
	while (cmpstat_t_cdf(hi, df) < p)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = (lo + hi) / 2;
		if (cmpstat_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double cmpstat_welch_p(const struct cmpstat_side *a, const struct cmpstat_side *b)
{
	if (a->n < 2 || b->n < 2)
		return -1;
	double va = a->stddev * a->stddev / a->n, vb = b->stddev * b->stddev / b->n;
	double se = sqrt(va + vb);
	if (se == 0)
		return a->mean == b->mean ? 1 : 0;
	double t = fabs(b->mean - a->mean) / se;
	double dof = (va + vb) * (va + vb) /
		     (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	if (!isfinite(dof) || dof < 1)
		dof = 1;
	return 2 * (1 - cmpstat_t_cdf(t, dof));
}

struct pidx {
	double p;
	size_t i;
};

static int pidx_cmp(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;
	return a->p < b->p ? -1 : a->p > b->p ? 1 : (a->i > b->i) - (a->i < b->i);
}

void cmpstat_holm(const double *p, size_t n, double alpha, bool *reject)
{
	struct pidx *v = n ? malloc(n * sizeof(*v)) : NULL;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		reject[i] = false;
		if (v && p[i] >= 0)
			v[m++] = (struct pidx){ p[i], i };
	}
	if (!v)
		return;
	qsort(v, m, sizeof(*v), pidx_cmp);
	/* step down: stop at the first p above alpha / (m - k) */
	for (size_t k = 0; k < m; k++) {
		if (v[k].p > alpha / (double)(m - k))
			break;
		reject[v[k].i] = true;
	}
	free(v);
}
