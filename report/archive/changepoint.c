/*
 * changepoint.c - change points of a dated series: binary segmentation
 * against the series' own scatter, checked against compare's rule for
 * neighbouring sets (changepoint.h says which is which and why).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "common/student.h"
#include "compare/cmpstat.h"

const char *cp_kind_name(enum cp_kind k)
{
	return k == CP_STEP ? "step" : k == CP_SHIFT ? "shift" : k == CP_DRIFT ? "drift" : "";
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of v[0..n-1] (reorders v). */
static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Set-to-set scatter of one set's mean: the median absolute deviation of
 * the successive differences (robust to a step, which is one outlying
 * difference, and to a drift, which shifts all of them), never below the
 * typical within-set standard error, nor zero.
 */
static double scatter(const struct cp_point *x, size_t n, double *tmp)
{
	size_t m = 0;
	for (size_t i = 1; i < n; i++)
		tmp[m++] = x[i].mean - x[i - 1].mean;
	double md = median(tmp, m);
	for (size_t i = 0; i < m; i++)
		tmp[i] = fabs(tmp[i] - md);
	double sigma = 1.4826 * median(tmp, m) / sqrt(2.0);
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (x[i].n >= 2)
			tmp[m++] = x[i].stddev / sqrt((double)x[i].n);
	double se = median(tmp, m);
	if (sigma < se)
		sigma = se;
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(x[i].mean);
	double floor = 1e-9 * median(tmp, n);
	return sigma > floor ? sigma : (floor > 0 ? floor : 1e-300);
}

struct seg {
	const double *pre;     /* prefix sums of the means */
	size_t n;
	double sigma, thr, alpha;
	bool *split;           /* split[k]: a new level starts at k */
};

static double seg_mean(const struct seg *s, size_t a, size_t b)
{
	return (s->pre[b] - s->pre[a]) / (double)(b - a);
}

/* Find the strongest split of [a, b) and recurse on both halves. */
static void segment(struct seg *s, size_t a, size_t b)
{
	size_t best = 0;
	double bt = 0;

	/* at least 2 points on each side, except that the newest set alone
	 * may start a new level (the question asked most: "is it slower now?") */
	for (size_t k = a + 2; k < b; k++) {
		size_t nl = k - a, nr = b - k;
		if (nr < (b == s->n ? 1u : 2u))
			continue;
		double ml = seg_mean(s, a, k), mr = seg_mean(s, k, b);
		if (ml == 0 || fabs(mr - ml) / fabs(ml) * 100 < s->thr)
			continue;
		double t = fabs(mr - ml) / (s->sigma * sqrt(1.0 / nl + 1.0 / nr));
		if (t > bt) {
			bt = t;
			best = k;
		}
	}
	if (!best)
		return;
	/* Bonferroni over every split the whole series could have, so that
	 * the halves of a segment do not each get a fresh alpha */
	double df = s->n > 3 ? (double)(s->n - 2) : 1;
	if (bt <= student_t_quantile(1 - s->alpha / (2.0 * (double)(s->n - 1)), df))
		return;
	s->split[best] = true;
	segment(s, a, best);
	segment(s, best, b);
}

/*
 * Is [a, b) part of a slide in direction dir rather than a plateau between
 * two steps?  Two points or fewer: yes; else the least-squares slope must
 * point that way and be at least twice its standard error.
 */
static bool sloped(const struct cp_point *x, size_t a, size_t b, double sigma, double dir)
{
	size_t len = b - a;
	if (len <= 2)
		return true;
	double im = (double)(a + b - 1) / 2, ym = 0, sxx = 0, sxy = 0;
	for (size_t i = a; i < b; i++)
		ym += x[i].mean / (double)len;
	for (size_t i = a; i < b; i++) {
		sxx += ((double)i - im) * ((double)i - im);
		sxy += ((double)i - im) * (x[i].mean - ym);
	}
	double slope = sxy / sxx, se = sigma / sqrt(sxx);
	return slope * dir > 0 && fabs(slope) >= 2 * se;
}

/* Compare's rule between neighbours: at least the threshold and
 * significant (Welch, Holm over the series' pairs); with fewer than
 * CP_MIN_REPS repetitions on either side there is no verdict, as compare. */
static void neighbours(const struct cp_point *x, size_t n, double thr, double alpha,
		       double *p, bool *sig)
{
	for (size_t i = 1; i < n; i++) {
		struct cmpstat_side a = { x[i - 1].mean, x[i - 1].stddev, x[i - 1].n };
		struct cmpstat_side b = { x[i].mean, x[i].stddev, x[i].n };
		p[i - 1] = a.n >= CP_MIN_REPS && b.n >= CP_MIN_REPS ? cmpstat_welch_p(&a, &b) : -1;
	}
	cmpstat_holm(p, n - 1, alpha, sig);
	for (size_t i = 1; i < n; i++) {
		double base = x[i - 1].mean;
		bool beyond = base != 0 && fabs(x[i].mean - base) / fabs(base) * 100 >= thr;
		sig[i - 1] = beyond && p[i - 1] >= 0 && sig[i - 1];
	}
}

int cp_detect(const struct cp_point *x, size_t n, double thr, double alpha,
	      struct cp_result *out)
{
	memset(out, 0, n * sizeof(*out));
	if (n < 2)
		return 0;
	double *pre = calloc(n + 1, sizeof(*pre)), *tmp = calloc(n + 1, sizeof(*tmp));
	/* p holds n-1 p-values, then up to n-1 split indices */
	double *p = calloc(n, sizeof(double) > sizeof(size_t) ? sizeof(double) : sizeof(size_t));
	bool *split = calloc(n + 1, sizeof(*split)), *sig = calloc(n, sizeof(*sig));
	int found = 0;

	if (!pre || !tmp || !p || !split || !sig) {
		found = -1;
		goto out;
	}
	neighbours(x, n, thr, alpha, p, sig);
	if (n < 4) {
		/* too short to know the series' scatter: neighbours decide, but
		 * a set that a later one leaves again (closer to the old level
		 * than to it) was an excursion, not a new level */
		bool excursion = false;
		for (size_t i = 1; i < n; i++) {
			bool stays = true;
			for (size_t j = i + 1; j < n; j++)
				stays &= fabs(x[j].mean - x[i].mean) < fabs(x[j].mean - x[i - 1].mean);
			/* the way back from an excursion is no change either */
			bool back = excursion && x[i - 2].mean != 0 &&
				    fabs(x[i].mean - x[i - 2].mean) / fabs(x[i - 2].mean) * 100 < thr;
			excursion = sig[i - 1] && !stays;
			if (sig[i - 1] && stays && !back) {
				out[i].kind = CP_STEP;
				out[i].change_pct = (x[i].mean - x[i - 1].mean) / x[i - 1].mean * 100;
				found++;
			}
		}
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		pre[i + 1] = pre[i] + x[i].mean;
	struct seg s = { pre, n, scatter(x, n, tmp), thr, alpha, split };
	segment(&s, 0, n);
	/*
	 * The median-based scatter is robust but noisy (a third of the
	 * efficiency of a standard deviation).  Once the levels are known, the
	 * residuals around them give a sharper one: segment again with the
	 * larger of the two, so noise cannot pass for a shift.
	 */
	double rss = 0;
	size_t nseg = 1;
	for (size_t a = 0, k = 1; k <= n; k++) {
		if (k < n && !split[k])
			continue;
		double m = seg_mean(&s, a, k);
		for (size_t i = a; i < k; i++)
			rss += (x[i].mean - m) * (x[i].mean - m);
		nseg += k < n;
		a = k;
	}
	if (n > nseg && sqrt(rss / (double)(n - nseg)) > s.sigma) {
		s.sigma = sqrt(rss / (double)(n - nseg));
		memset(split, 0, (n + 1) * sizeof(*split));
		segment(&s, 0, n);
	}

	/* levels between splits; close splits of one sign are one drift */
	size_t nk = 0;
	size_t *ks = (size_t *)p;   /* p is no longer needed: reuse it */
	double *level = tmp;
	for (size_t k = 1; k < n; k++)
		if (split[k])
			ks[nk++] = k;
	for (size_t j = 0; j <= nk; j++)
		level[j] = seg_mean(&s, j ? ks[j - 1] : 0, j < nk ? ks[j] : n);
	for (size_t j = 0; j < nk;) {
		size_t e = j;
		double dir = level[j + 1] - level[j];
		while (e + 1 < nk && (level[e + 2] - level[e + 1]) * dir > 0 &&
		       sloped(x, ks[e], ks[e + 1], s.sigma, dir))
			e++;
		struct cp_result *r = &out[ks[j]];
		r->change_pct = level[j] != 0 ? (level[e + 1] - level[j]) / fabs(level[j]) * 100 : 0;
		r->span = ks[e] - ks[j];
		r->kind = e > j ? CP_DRIFT : sig[ks[j] - 1] ? CP_STEP : CP_SHIFT;
		found++;
		j = e + 1;
	}
out:
	free(pre);
	free(tmp);
	free(p);
	free(split);
	free(sig);
	return found;
}
