/*
 * changepoint.c - change points of a dated series: compare's ratio rule
 * between neighbouring sets, Bonferroni over the series' own pairs
 * (changepoint.h says why, and how values are rebuilt from the archive).
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "changepoint.h"
#include "model/ratio.h"

const char *cp_kind_name(enum cp_kind k)
{
	return k == CP_STEP ? "step" : "";
}

/*
 * The repetition values of one set, or n values whose logs have the
 * sample mean and standard deviation of a log-normal with the set's mean
 * and standard deviation: logs mu +- a*s, one mu when n is odd, with a
 * chosen so that the sample deviation (n - 1 in the denominator) is s.
 * Returns the count (0: nothing to test).
 */
static size_t point_values(const struct cp_point *p, double *v)
{
	size_t n = p->n > CP_MAX_REPS ? CP_MAX_REPS : (p->n > 0 ? (size_t)p->n : 0);
	if (n < 2 || !(p->mean > 0))
		return 0;
	if (p->reps) {
		memcpy(v, p->reps, n * sizeof(*v));
		return n;
	}
	double cv = p->stddev > 0 ? p->stddev / p->mean : 0;
	double s2 = log1p(cv * cv), mu = log(p->mean) - s2 / 2;
	double a = n % 2 ? 1 : sqrt((double)(n - 1) / (double)n);
	for (size_t i = 0; i < n; i++)
		v[i] = exp(mu + (n % 2 && i == n - 1 ? 0 : (i % 2 ? -a : a)) * sqrt(s2));
	return n;
}

/* Is the pair (x[i-1], x[i]) a change beyond the threshold by compare's
 * rule?  *pct: the ratio as percent change. */
static bool pair_changed(const struct cp_point *a, const struct cp_point *b, double thr,
			 size_t family, double *pct)
{
	double va[CP_MAX_REPS], vb[CP_MAX_REPS];
	size_t na = point_values(a, va), nb = point_values(b, vb);
	/* the interval holds the ratio of the log means, so a pair whose
	 * ratio lies within the threshold is no change: its interval cannot
	 * lie beyond it (most pairs of a series; Student's t was 10 % of
	 * history's CPU).  The margin keeps rounding on the verdict's side. */
	if (na >= 2 && nb >= 2) {
		double la = 0, lb = 0;
		for (size_t i = 0; i < na; i++)
			la += log(va[i]);
		for (size_t i = 0; i < nb; i++)
			lb += log(vb[i]);
		double r = exp(lb / (double)nb - la / (double)na), t = thr / 100 * (1 - 1e-9);
		if (r >= 1 - t && r <= 1 + t)
			return false;
	}
	struct ratio_ci c;
	enum ratio_verdict v = ratio_verdict(va, na, vb, nb, family, thr / 100, &c);
	if (!c.ok)
		return false;
	*pct = (c.ratio - 1) * 100;
	return v == RATIO_UP || v == RATIO_DOWN;
}

int cp_detect(const struct cp_point *x, size_t n, double thr, struct cp_result *out)
{
	memset(out, 0, n * sizeof(*out));
	if (n < 3)
		return 0;   /* two sets: one odd set is not a change */
	size_t fam = n - 1;   /* the series' neighbouring pairs */
	bool excursion = false;
	int found = 0;
	for (size_t i = 1; i < n; i++) {
		double pct = 0;
		bool sig = pair_changed(&x[i - 1], &x[i], thr, fam, &pct);
		/* the new level stays when every later set is nearer it than
		 * the old level */
		bool stays = true;
		for (size_t j = i + 1; sig && j < n; j++)
			stays &= fabs(x[j].mean - x[i].mean) < fabs(x[j].mean - x[i - 1].mean);
		/* the way back from an excursion is no change either */
		bool back = excursion && x[i - 2].mean != 0 &&
			    fabs(x[i].mean - x[i - 2].mean) / fabs(x[i - 2].mean) * 100 < thr;
		excursion = sig && !stays;
		if (sig && stays && !back) {
			out[i].kind = CP_STEP;
			out[i].change_pct = pct;
			found++;
		}
	}
	return found;
}
