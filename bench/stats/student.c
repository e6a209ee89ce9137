/*
 * student.c - student.h: the CDF through the regularised incomplete beta
 * function (Lentz's continued fraction, Numerical Recipes 6.4), the
 * quantile by Newton's method kept inside a bracket.  Before this file the
 * summaries used a 4-digit table for dof <= 30 and a Cornish-Fisher series
 * above it, while compare and history used the exact CDF: two answers to
 * one question.
 */
#include "student.h"

#include <math.h>
#include <pthread.h>

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
		if (fabs(del - 1) < 1e-15)
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

/* P(T > t) for t >= 0.  Through I_x(df/2, 1/2) with x = df/(df+t^2) when
 * that is far from 1, else through the complementary I_{1-x}(1/2, df/2)
 * with 1-x computed directly: at large df, x rounds to 1 and the tail
 * would be lost. */
static double upper_tail(double t, double df)
{
	double tt = t * t, x = df / (df + tt), y = tt / (df + tt);
	if (x < 0.5)
		return 0.5 * beta_inc(df / 2, 0.5, x);
	return 0.5 * (1 - beta_inc(0.5, df / 2, y));
}

double student_t_cdf(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double tail = upper_tail(fabs(t), df);
	return t >= 0 ? 1 - tail : tail;
}

static double pdf(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI) -
		   (df + 1) / 2 * log1p(t * t / df));
}

double student_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -student_t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	/* Upper tail q = 1 - p, exact for p near 1: solve tail(t) = q. */
	double q = 1 - p, lo = 0, hi = 1;
	while (upper_tail(hi, df) > q && hi < 1e300) {
		lo = hi;
		hi *= 2;
	}
	double t = (lo + hi) / 2;
	for (int i = 0; i < 200; i++) {
		double f = upper_tail(t, df) - q; /* decreasing in t */
		if (f > 0)
			lo = t;
		else
			hi = t;
		double nt = t + f / pdf(t, df);
		if (!(nt > lo && nt < hi))
			nt = (lo + hi) / 2;
		if (fabs(nt - t) <= 1e-14 * t || hi - lo <= 1e-14 * hi)
			return nt;
		t = nt;
	}
	return t;
}

/* Summaries ask for t95 once per metric of every cell read (160,000 times
 * for a 20,000-cell set), and one quantile costs ~10 us: the common small
 * dof are computed once, by the same function, under pthread_once. */
#define T95_CACHED 256
static double t95[T95_CACHED];
static pthread_once_t t95_once = PTHREAD_ONCE_INIT;

static void t95_fill(void)
{
	for (size_t d = 1; d < T95_CACHED; d++)
		t95[d] = student_t_quantile(0.975, (double)d);
}

double student_t95(size_t dof)
{
	if (dof == 0)
		return 0;
	if (dof >= T95_CACHED)
		return student_t_quantile(0.975, (double)dof);
	pthread_once(&t95_once, t95_fill);
	return t95[dof];
}
