/*
 * plateau.c - penalised binary segmentation of a bandwidth series into
 * plateaus, and the write-cliff rule over them (plateau.h says the method
 * and names every threshold).
 */
#include "plateau.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One segment while fitting: [a, b) and its level in the log domain. */
struct seg {
	size_t a, b;
	double ly;   /* median of y over [a, b) */
};

struct fit {
	const double *x;     /* the series fitted: x0, or its windows' means */
	const double *x0;    /* the intervals as measured, n0 of them */
	size_t n0, k;        /* k intervals a window (plateau_window) */
	double iv0;          /* seconds an interval */
	double *y;       /* log(max(x, floor)) */
	double *tmp;     /* scratch of n doubles */
	double *pt;      /* t of each neighbour pair, n */
	double *ps, *ps2; /* prefix sums of y and y^2, n + 1 each */
	size_t n;
	struct seg *s;   /* segments in order */
	size_t ns;
	double sigma_d;  /* noise from first differences */
	double rho;      /* lag-1 autocorrelation of the residuals */
};

static double median_of(struct fit *f, const double *v, size_t a, size_t b)
{
	memcpy(f->tmp, v + a, (b - a) * sizeof(*v));
	return stats_median_inplace(f->tmp, b - a);
}

/*
 * Standard deviation of the residuals of the segments s[0..count) about
 * their own levels, each residual winsorised at 4 robust deviations (1.4826
 * x MAD): a stall is one bounded outlier, not the noise, while the heavy
 * lower tail of real bandwidth noise in the log domain still counts (MAD
 * alone saw it as 40 % smaller and split noise into plateaus).
 */
static double seg_sigma(struct fit *f, const struct seg *s, size_t count)
{
	size_t m = 0;
	for (size_t k = 0; k < count; k++)
		for (size_t t = s[k].a; t < s[k].b; t++)
			f->tmp[m++] = fabs(f->y[t] - s[k].ly);
	if (!m)
		return 0;
	double cap = 4 * 1.4826 * stats_median_inplace(f->tmp, m), sum = 0;
	for (size_t i = 0; i < m; i++) {
		double r = f->tmp[i] < cap ? f->tmp[i] : cap;
		sum += r * r;
	}
	return sqrt(sum / (double)m);
}

/*
 * The noise of y from its first differences (a level change moves one
 * difference, so this does not see the plateaus), winsorised at 4 robust
 * deviations like seg_sigma, / sqrt 2.
 */
static double diff_sigma(struct fit *f)
{
	if (f->n < 2)
		return 0;
	for (size_t i = 0; i + 1 < f->n; i++)
		f->tmp[i] = fabs(f->y[i + 1] - f->y[i]);
	double cap = 4 * 1.4826 * stats_median_inplace(f->tmp, f->n - 1), sum = 0;
	for (size_t i = 0; i + 1 < f->n; i++) {
		double r = f->tmp[i] < cap ? f->tmp[i] : cap;
		sum += r * r;
	}
	return sqrt(sum / (double)(f->n - 1) / 2);
}

/* Squared error of y over [a, b) about its mean, from the prefix sums. */
static double sse(const struct fit *f, size_t a, size_t b)
{
	double s = f->ps[b] - f->ps[a], s2 = f->ps2[b] - f->ps2[a];
	double e = s2 - s * s / (double)(b - a);
	return e > 0 ? e : 0;
}

/*
 * Binary segmentation: split [a, b) where the squared error falls most,
 * when it falls by more than the penalty, and recurse (an explicit stack:
 * depth is bounded by n / 2).  brk[k] marks a change before sample k.
 */
static int segment(struct fit *f, double penalty, unsigned char *brk)
{
	const size_t m = 2; /* shortest piece; shorter ones are stalls */
	size_t *stack = malloc(2 * (f->n + 1) * sizeof(*stack));
	if (!stack)
		return -1;
	size_t sp = 0;
	stack[sp++] = 0;
	stack[sp++] = f->n;
	while (sp) {
		size_t b = stack[--sp], a = stack[--sp];
		if (b - a < 2 * m)
			continue;
		double whole = sse(f, a, b), best = 0;
		size_t bk = 0;
		for (size_t k = a + m; k + m <= b; k++) {
			double gain = whole - sse(f, a, k) - sse(f, k, b);
			if (gain > best) {
				best = gain;
				bk = k;
			}
		}
		if (!bk || best <= penalty)
			continue;
		brk[bk] = 1;
		stack[sp++] = a;
		stack[sp++] = bk;
		stack[sp++] = bk;
		stack[sp++] = b;
	}
	free(stack);
	return 0;
}

/* Lag-1 autocorrelation of the residuals about the current levels,
 * within segments only, clamped to [0, 0.95], or to [-0.5, 0.95] over
 * windows (plateau_window): where a device dispatches in slices, the bytes
 * an interval missed arrive in the next, and a window's error is the next
 * one's with the sign turned (-0.5 for a slice that comes at most one
 * interval late), so a level's mean is known better than from independent
 * samples (test_plateau_window's sliced series: found in 22 % as if
 * independent). */
static double resid_rho(const struct fit *f)
{
	double num = 0, den = 0;
	for (size_t k = 0; k < f->ns; k++) {
		const struct seg *s = &f->s[k];
		for (size_t t = s->a; t < s->b; t++) {
			double r = f->y[t] - s->ly;
			den += r * r;
			if (t + 1 < s->b)
				num += r * (f->y[t + 1] - s->ly);
		}
	}
	double rho = den > 0 ? num / den : 0, lo = f->k > 1 ? -0.5 : 0;
	return rho < lo ? lo : rho > 0.95 ? 0.95 : rho;
}

static double n_eff(double n, double rho)
{
	double e = n * (1 - rho) / (1 + rho);
	return e < 1 ? 1 : e;
}

/* The difference of segments i and i+1 in standard errors of their own
 * noise (never below the series' difference-based noise / 2, so two
 * perfectly flat pieces are not infinitely distinct). */
static double pair_t(struct fit *f, size_t i)
{
	const struct seg *p = &f->s[i], *q = &f->s[i + 1];
	double sg = seg_sigma(f, &f->s[i], 2);
	double lo = f->sigma_d / 2;
	if (p->b - p->a < PLATEAU_MIN_SAMPLES || q->b - q->a < PLATEAU_MIN_SAMPLES)
		sg = f->sigma_d;
	if (sg < lo)
		sg = lo;
	double se = sg * sqrt(1 / n_eff((double)(p->b - p->a), f->rho) +
			      1 / n_eff((double)(q->b - q->a), f->rho));
	return fabs(p->ly - q->ly) / se;
}

static void merge_at(struct fit *f, size_t i)
{
	f->s[i].b = f->s[i + 1].b;
	f->s[i].ly = median_of(f, f->y, f->s[i].a, f->s[i].b);
	memmove(&f->s[i + 1], &f->s[i + 2], (f->ns - i - 2) * sizeof(*f->s));
	f->ns--;
}

/*
 * Step 2 of plateau.h: merge indistinct neighbours, least distinct first.
 * The pairs' t values are cached and only the merged pair's neighbours
 * recomputed; the autocorrelation is re-estimated after a round of merges
 * (fewer, longer segments see more of it) and the round repeated while it
 * grows.
 */
static void merge_weak(struct fit *f)
{
	const double min_dl = -log(1 - PLATEAU_MIN_STEP);
	for (int round = 0; round < 3; round++) {
		double rho = resid_rho(f);
		if (round && rho <= f->rho + 0.05)
			break;
		f->rho = rho;
		for (size_t i = 0; i + 1 < f->ns; i++)
			f->pt[i] = pair_t(f, i);
		for (;;) {
			size_t best = f->ns;
			double bt = INFINITY;
			for (size_t i = 0; i + 1 < f->ns; i++) {
				bool weak = fabs(f->s[i].ly - f->s[i + 1].ly) < min_dl ||
					    f->pt[i] < PLATEAU_MERGE_T || f->ns > PLATEAU_MAX;
				if (weak && f->pt[i] < bt) {
					bt = f->pt[i];
					best = i;
				}
			}
			if (best == f->ns)
				break;
			merge_at(f, best);
			memmove(&f->pt[best], &f->pt[best + 1],
				(f->ns - 1 - best) * sizeof(*f->pt));
			if (best + 1 < f->ns)
				f->pt[best] = pair_t(f, best);
			if (best > 0)
				f->pt[best - 1] = pair_t(f, best - 1);
		}
	}
}

/* Then absorb pieces too short to be a plateau into the closer neighbour. */
static void merge_pass(struct fit *f)
{
	merge_weak(f);
	for (;;) {
		size_t i = 0;
		while (i < f->ns && (f->s[i].b - f->s[i].a >= PLATEAU_MIN_SAMPLES))
			i++;
		if (i == f->ns || f->ns == 1)
			break;
		/* into the neighbour whose level is closer */
		if (i == 0)
			merge_at(f, 0);
		else if (i + 1 == f->ns ||
			 fabs(f->s[i].ly - f->s[i - 1].ly) <= fabs(f->s[i].ly - f->s[i + 1].ly))
			merge_at(f, i - 1);
		else
			merge_at(f, i);
	}
	f->rho = resid_rho(f);
}

/* Step 3: levels as medians of x, leaving out the interval on either side
 * of a change while at least PLATEAU_MIN_SAMPLES - 1 remain.  Where and
 * how long in the measured intervals: a window of k holds k of them, the
 * last one also the n0 % k left over. */
static void levels(struct fit *f, struct plateaus *out)
{
	out->n = f->ns;
	for (size_t k = 0; k < f->ns; k++) {
		struct plateau *p = &out->p[k];
		size_t a = f->s[k].a, b = f->s[k].b;
		p->first = a * f->k;
		p->end = b == f->n ? f->n0 : b * f->k;
		p->start_s = (double)p->first * f->iv0;
		p->dur_s = (double)(p->end - p->first) * f->iv0;
		p->bytes = 0;
		for (size_t t = p->first; t < p->end; t++)
			p->bytes += f->x0[t] * f->iv0;
		if (k > 0 && b - a > PLATEAU_MIN_SAMPLES)
			a++;
		if (k + 1 < f->ns && b - a > PLATEAU_MIN_SAMPLES)
			b--;
		p->level = median_of(f, f->x, a, b);
	}
}

/* The first plateau of the lower level that ends at plateau nl - 1: with
 * merge_low, the plateaus just before it within PLATEAU_SAME_LEVEL of its
 * level (a throttled level the fit cut in two, 2.2 s and 0.8 s at the
 * same 17 MB/s, is one level of 3 s, not a last second; 40 MB/s then
 * 17 MB/s are two levels).  *low_s: its length. */
static size_t levels_low_start(const struct plateaus *p, size_t nl, bool merge_low,
			       double *low_s)
{
	const struct plateau *last = &p->p[nl - 1];
	size_t lo = nl - 1;
	*low_s = last->dur_s;
	while (merge_low && lo > 0 &&
	       fabs(p->p[lo - 1].level - last->level) <= PLATEAU_SAME_LEVEL * last->level)
		*low_s += p->p[--lo].dur_s;
	return lo;
}

/* The reference (plateau.h): the first plateau, or the highest plateau
 * before lo that held at least `need` when that one is higher. */
static size_t levels_ref(const struct plateaus *p, size_t lo, double need)
{
	size_t r = 0;
	for (size_t j = 1; j < lo; j++)
		if (p->p[j].dur_s + 1e-9 >= need && p->p[j].level > p->p[r].level)
			r = j;
	return r;
}

/* A low stretch (plateaus at least PLATEAU_CLIFF_MIN_DROP below lref, one
 * after another, after the reference r) that held at least `need`, with a
 * later plateau back within PLATEAU_CLIFF_RECOVERY of lref. */
static bool levels_recovered(const struct plateaus *p, size_t r, double lref, double need)
{
	double held = 0;
	for (size_t j = r + 1; j < p->n; j++) {
		if (p->p[j].level <= (1 - PLATEAU_CLIFF_MIN_DROP) * lref) {
			held += p->p[j].dur_s;
			continue;
		}
		if (held + 1e-9 >= need && p->p[j].level >= (1 - PLATEAU_CLIFF_RECOVERY) * lref)
			return true;
		held = 0;
	}
	return false;
}

const char *plateau_levels_rule(const struct plateaus *p, double run_s,
				bool merge_low, size_t *cliff_at, size_t *low_at,
				size_t *ref_at)
{
	double need = PLATEAU_CLIFF_MIN_LAST_FRAC * run_s, low_s;
	if (need < PLATEAU_CLIFF_MIN_LAST_S)
		need = PLATEAU_CLIFF_MIN_LAST_S;
	size_t nl = p->n, lo = levels_low_start(p, nl, merge_low, &low_s);
	size_t r = levels_ref(p, lo, need);
	double lref = p->p[r].level, cut = (1 - PLATEAU_CLIFF_MIN_DROP) * lref;

	/* a slower tail: a last plateau lower still, shorter than the rule
	 * asks and at most half as long as the low plateau before it (a
	 * throttled 17 MB/s for 2.5 s, then 9 MB/s for the last 0.5 s under
	 * a loaded machine's stalls).  The lower level is the one before it:
	 * a last-second stall neither makes a cliff nor hides one. */
	if (merge_low && p->n >= 3 && p->n - 2 > r) {
		const struct plateau *last = &p->p[p->n - 1], *b = &p->p[p->n - 2];
		if (last->level < b->level && last->dur_s < need &&
		    2 * last->dur_s <= b->dur_s && b->level <= cut) {
			nl = p->n - 1;
			lo = levels_low_start(p, nl, merge_low, &low_s);
		}
	}
	size_t k = r + 1;
	while (k < p->n && p->p[k].level > cut)
		k++;
	if (k == p->n)
		return "no level is 30 % below the levels before it";
	if (levels_recovered(p, r, lref, need))
		return "the speed recovered";
	/* the cliff: where the low stretch that ends in the lower level
	 * begins */
	for (k = nl - 1; k > r + 1 && p->p[k - 1].level <= cut; k--)
		;
	/* below the first plateau and each that held before the cliff, not
	 * only the reference: a run that ends at the level it began at had a
	 * burst, not a cliff.  (Below the reference alone, AR(1) noise of phi
	 * 0.8 over 60 intervals, whose wander held a high level after a short
	 * first one, made 0.78 % false cliffs, against 0.46 % judged from the
	 * first plateau alone; so 0.53 %.) */
	bool below = p->p[nl - 1].level <= cut;
	for (size_t j = 0; below && j < k; j++)
		if (p->p[j].dur_s + 1e-9 >= need || j == r || j == 0)
			below = p->p[nl - 1].level <= (1 - PLATEAU_CLIFF_MIN_DROP) * p->p[j].level;
	if (!below)
		return "the last level is not 30 % below the levels that held before it";
	if (low_s + 1e-9 < need)
		return "the lower level does not last long enough";
	*cliff_at = k;
	if (low_at)
		*low_at = nl - 1;
	if (ref_at)
		*ref_at = r;
	return NULL;
}

/* The cliff rule of plateau.h over the fitted plateaus. */
static void cliff_rule(struct fit *f, bool ram, bool merge_low, struct plateaus *out)
{
	size_t n = f->n;
	double run_s = (double)f->n0 * f->iv0;
	out->why_not = NULL;
	if (ram) {
		out->why_not = "the device is RAM-backed";
		return;
	}
	if (run_s < PLATEAU_CLIFF_MIN_RUN_S || n < 2 * PLATEAU_MIN_SAMPLES) {
		out->why_not = "the run is too short to show a cliff";
		return;
	}
	if (out->n < 2) {
		out->why_not = "one level throughout";
		return;
	}
	/* a cliff falls from the levels that held before it (plateau.h) */
	size_t ref = 0, k, low = out->n - 1;
	if ((out->why_not = plateau_levels_rule(out, run_s, merge_low, &k, &low, &ref)))
		return;
	double lref = out->p[ref].level;
	const struct plateau *last = &out->p[low];
	/* the drop in standard errors, each plateau with its own noise
	 * (Welch): a cache phase is steady and the phase after it often is
	 * not, and pooling the two let the noisy level's spread hide the drop
	 * (1.1 s at 41 MiB/s +-3 %, then 3 s at 16 MiB/s with log-normal noise
	 * of sigma 0.4: found 79 % pooled, 98 % so; test_plateau's
	 * test_noisy_lower_level_found) */
	const struct seg *s0 = &f->s[ref], *s1 = &f->s[low];
	double n0 = n_eff((double)(s0->b - s0->a), f->rho);
	double n1 = n_eff((double)(s1->b - s1->a), f->rho);
	double v0 = seg_sigma(f, s0, 1), v1 = seg_sigma(f, s1, 1);
	if (v0 < f->sigma_d / 2)
		v0 = f->sigma_d / 2;
	if (v1 < f->sigma_d / 2)
		v1 = f->sigma_d / 2;
	out->drop = lref > 0 ? 1 - last->level / lref : 0;
	out->t = (s0->ly - s1->ly) / sqrt(v0 * v0 / n0 + v1 * v1 / n1);
	if (out->t < PLATEAU_CLIFF_T) {
		out->why_not = "the drop is within the noise";
		return;
	}
	out->cliff = true;
	out->cliff_at = k;
	out->low = low;
	out->ref = ref;
}

/*
 * The window of the fit (plateau.h): 1 + the longest run of stalls (an
 * interval below PLATEAU_STALL of the median) when that run is at most
 * PLATEAU_WINDOW_MAX - 1 intervals and the windows still make
 * 2 * PLATEAU_MIN_SAMPLES, else 1.
 */
size_t plateau_window(const double *x, size_t n)
{
	double *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!tmp)
		return 1;
	memcpy(tmp, x, n * sizeof(*x));
	double cut = PLATEAU_STALL * stats_median_inplace(tmp, n);
	free(tmp);
	size_t run = 0, longest = 0;
	for (size_t i = 0; i < n; i++) {
		run = x[i] < cut ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	size_t k = longest + 1;
	if (!longest || k > PLATEAU_WINDOW_MAX || n / k < 2 * PLATEAU_MIN_SAMPLES)
		return 1;
	return k;
}

static int fit_rule(const double *x0, size_t n0, double interval_s, bool ram,
		    bool merge_low, struct plateaus *out)
{
	struct fit f = { .x0 = x0, .n0 = n0, .iv0 = interval_s, .k = 1 };
	unsigned char *brk = NULL;
	double *win = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->why_not = "too few intervals";
	out->window = 1;
	if (n0 < PLATEAU_MIN_SAMPLES || !(interval_s > 0))
		return 0;
	f.k = plateau_window(x0, n0);
	f.n = n0 / f.k;
	f.x = x0;
	if (f.k > 1) {
		if (!(win = malloc(f.n * sizeof(*win))))
			goto out;
		for (size_t j = 0; j < f.n; j++) {
			size_t a = j * f.k, b = j + 1 == f.n ? n0 : a + f.k;
			double sum = 0;
			for (size_t t = a; t < b; t++)
				sum += x0[t];
			win[j] = sum / (double)(b - a);
		}
		f.x = win;
	}
	size_t n = f.n;
	const double *x = f.x;
	f.y = malloc(n * sizeof(*f.y));
	f.tmp = malloc(n * sizeof(*f.tmp));
	f.ps = malloc((n + 1) * sizeof(*f.ps));
	f.ps2 = malloc((n + 1) * sizeof(*f.ps2));
	f.s = malloc(n * sizeof(*f.s));
	f.pt = malloc(n * sizeof(*f.pt));
	brk = calloc(n + 1, 1);
	if (!f.y || !f.tmp || !f.ps || !f.ps2 || !f.s || !f.pt || !brk)
		goto out;

	double med = median_of(&f, x, 0, n);
	double floor = med > 0 ? PLATEAU_FLOOR * med : 1;
	for (size_t i = 0; i < n; i++)
		f.y[i] = log(x[i] > floor ? x[i] : floor);
	f.ps[0] = f.ps2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		f.ps[i + 1] = f.ps[i] + f.y[i];
		f.ps2[i + 1] = f.ps2[i] + f.y[i] * f.y[i];
	}
	f.sigma_d = diff_sigma(&f);
	if (f.sigma_d < 1e-3)
		f.sigma_d = 1e-3; /* 0.1 %: a flat synthetic series is one level */

	if (segment(&f, PLATEAU_PENALTY * f.sigma_d * f.sigma_d * log((double)n), brk) < 0)
		goto out;
	for (size_t i = 0, a = 0; i <= n; i++) {
		if (i == n || (i > a && brk[i])) {
			f.s[f.ns].a = a;
			f.s[f.ns].b = i;
			f.s[f.ns].ly = median_of(&f, f.y, a, i);
			f.ns++;
			a = i;
		}
	}
	merge_pass(&f);
	levels(&f, out);
	out->sigma = seg_sigma(&f, f.s, f.ns);
	out->rho = f.rho;
	out->window = f.k;
	cliff_rule(&f, ram, merge_low, out);
	rc = 0;
out:
	if (rc < 0)
		memset(out, 0, sizeof(*out));
	free(win);
	free(f.y);
	free(f.tmp);
	free(f.ps);
	free(f.ps2);
	free(f.s);
	free(f.pt);
	free(brk);
	return rc;
}

int plateau_fit(const double *x, size_t n, double interval_s, bool ram,
		struct plateaus *out)
{
	return fit_rule(x, n, interval_s, ram, true, out);
}

int plateau_fit_fine(const double *x, size_t n, double interval_s,
		     struct plateaus *out)
{
	return fit_rule(x, n, interval_s, false, false, out);
}
