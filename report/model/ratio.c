/*
 * ratio.c - the ratio of two sets' repetitions with its confidence
 * interval, and the verdict against a threshold (ratio.h).
 */
#include "ratio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/student.h"

/* Mean and sample variance of log(x); false when some x <= 0. */
static bool log_moments(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return false;
		s += log(x[i]);
	}
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = log(x[i]) - *mean;
		ss += d * d;
	}
	*var = n > 1 ? ss / (double)(n - 1) : 0;
	return true;
}

void ratio_ci(const double *old, size_t n_old, const double *new_, size_t n_new,
	      double alpha, struct ratio_ci *out)
{
	double mo, vo, mn, vn;
	*out = (struct ratio_ci){ .ok = false, .ratio = NAN, .lo = NAN, .hi = NAN };
	if (n_old < 2 || n_new < 2 || !(alpha > 0 && alpha < 1) ||
	    !log_moments(old, n_old, &mo, &vo) || !log_moments(new_, n_new, &mn, &vn))
		return;
	double a = vo / (double)n_old, b = vn / (double)n_new;
	double se = sqrt(a + b), d = mn - mo;
	out->ok = true;
	out->ratio = exp(d);
	if (se == 0) {
		/* no spread on either side: the ratio is what it is */
		out->df = INFINITY;
		out->lo = out->hi = out->ratio;
		return;
	}
	/* Welch-Satterthwaite; a side without spread contributes no term */
	double den = (a > 0 ? a * a / (double)(n_old - 1) : 0) +
		     (b > 0 ? b * b / (double)(n_new - 1) : 0);
	out->df = (a + b) * (a + b) / den;
	double t = student_t_quantile(1 - alpha / 2, out->df);
	out->lo = exp(d - t * se);
	out->hi = exp(d + t * se);
}

static enum ratio_verdict ratio_judge(const struct ratio_ci *c, double threshold)
{
	if (c->lo > 1 + threshold)
		return RATIO_UP;
	if (c->hi < 1 - threshold)
		return RATIO_DOWN;
	if (c->lo >= 1 - threshold && c->hi <= 1 + threshold)
		return RATIO_SAME;
	return RATIO_INCONCLUSIVE;
}

bool ratio_judgeable(size_t n_old, size_t n_new)
{
	return n_old >= VERDICT_MIN_REPS && n_new >= VERDICT_MIN_REPS;
}

enum ratio_verdict ratio_verdict(const double *old, size_t n_old, const double *new_,
				 size_t n_new, size_t family, double threshold,
				 struct ratio_ci *ci)
{
	*ci = (struct ratio_ci){ .ok = false, .ratio = NAN, .lo = NAN, .hi = NAN };
	if (!ratio_judgeable(n_old, n_new))
		return RATIO_FEW;
	ratio_ci(old, n_old, new_, n_new, VERDICT_ALPHA / (double)(family ? family : 1), ci);
	if (!ci->ok)
		return RATIO_INCONCLUSIVE;
	return ratio_judge(ci, threshold);
}

double ratio_spread(const double *v, size_t n, size_t family)
{
	double m, var;
	if (n < VERDICT_MIN_REPS || !log_moments(v, n, &m, &var))
		return NAN;
	double t = student_t_quantile(1 - VERDICT_ALPHA / (double)(family ? family : 1) / 2,
				      (double)(n - 1));
	return exp(t * sqrt(var / (double)n)) - 1;
}

int ratio_parse_threshold(const char *v, double *pct)
{
	char *end;
	double t = strtod(v, &end);

	if (*end == '%')
		end++;
	if (end == v || *end || !(t >= 0 && t < 1e6)) {
		fprintf(stderr, "iomatrix: bad --threshold '%s' (a percentage, e.g. 5)\n", v);
		return -1;
	}
	*pct = t;
	return 0;
}
