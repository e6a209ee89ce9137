/*
 * test_plateau.c - plateaus and the write-cliff rule (stats/plateau.h) on
 * synthetic series: false cliffs on stationary and correlated noise, a 50 %
 * step of 6 + 6 intervals, a 3-level staircase (10,000 trials each), and
 * the cases a user reported against the old two-segment fit.
 */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "stats/plateau.h"
#include "stats/prng.h"

#define TRIALS 10000

/* Box-Muller, both of its outputs: the second (the sine) is kept for the
 * next call, which halves the log, sqrt and generator work (a fifth of this
 * test's CPU was drawing noise).  The spare belongs to the generator it
 * came from; reseed() starts a series without one. */
static struct prng *spare_of;
static double spare;

static void reseed(struct prng *p, uint64_t s)
{
	prng_seed(p, s);
	spare_of = NULL;
}

static double gauss(struct prng *p)
{
	if (spare_of == p) {
		spare_of = NULL;
		return spare;
	}
	/* u1 in (0, 1] */
	double u1 = ((double)(prng_next(p) >> 11) + 1) / 9007199254740992.0;
	double u2 = (double)(prng_next(p) >> 11) / 9007199254740992.0;
	double r = sqrt(-2 * log(u1));
	spare = r * sin(2 * M_PI * u2);
	spare_of = p;
	return r * cos(2 * M_PI * u2);
}

/*
 * x[i] = level[i] * (1 + cv * e[i]), e an AR(1) process with coefficient
 * phi and unit variance (phi 0: independent), clamped at 0 as a real
 * bandwidth is.
 */
static void noisy(struct prng *p, const double *level, size_t n, double cv,
		  double phi, double *x)
{
	double e = gauss(p);
	double k = sqrt(1 - phi * phi);
	for (size_t i = 0; i < n; i++) {
		if (i)
			e = phi * e + k * gauss(p);
		double v = level[i] * (1 + cv * e);
		x[i] = v > 0 ? v : 0;
	}
}

/* Share of TRIALS stationary series of n samples that claim a cliff. */
static double false_cliffs(size_t n, double interval_s, double cv, double phi,
			   uint64_t seed)
{
	struct prng p;
	double x[600], lv[600];
	size_t found = 0;
	reseed(&p, seed);
	for (size_t i = 0; i < n; i++)
		lv[i] = 500e6;
	for (int t = 0; t < TRIALS; t++) {
		struct plateaus pl;
		noisy(&p, lv, n, cv, phi, x);
		assert_int_equal(plateau_fit(x, n, interval_s, false, &pl), 0);
		found += pl.cliff;
	}
	return (double)found / TRIALS;
}

/* Goal: at most 1 % false cliffs on stationary series with CV up to 30 %,
 * 10 to 600 samples, independent noise. */
static void test_no_false_cliffs_independent(void **state)
{
	(void)state;
	static const size_t ns[] = { 10, 20, 60, 600 };
	static const double cvs[] = { 0.1, 0.3 };
	for (size_t i = 0; i < 4; i++) {
		for (size_t c = 0; c < 2; c++) {
			double iv = ns[i] == 600 ? 0.1 : 1.0;
			double r = false_cliffs(ns[i], iv, cvs[c], 0, 1 + i * 10 + c);
			print_message("# independent n=%zu cv=%.0f%%: %.2f %% false cliffs\n",
				      ns[i], cvs[c] * 100, r * 100);
			assert_true(r <= 0.01);
		}
	}
}

/* The same goal on correlated noise (AR(1)): slow wander must not pass
 * for a plateau change.  phi 0.5 at every length; phi 0.8 from 60
 * samples on.  20 samples of phi-0.8 noise hold about 2 independent ones,
 * and the rule still claims a cliff in about 2.5 % of them: printed, the
 * limit plateau.h states. */
static void test_no_false_cliffs_correlated(void **state)
{
	(void)state;
	static const size_t ns[] = { 20, 60, 600 };
	static const double phis[] = { 0.5, 0.8 };
	for (size_t i = 0; i < 3; i++) {
		for (size_t c = 0; c < 2; c++) {
			double iv = ns[i] == 600 ? 0.1 : 1.0;
			double r = false_cliffs(ns[i], iv, 0.3, phis[c], 100 + i * 10 + c);
			print_message("# AR(1) phi=%.1f n=%zu cv=30%%: %.2f %% false cliffs\n",
				      phis[c], ns[i], r * 100);
			assert_true(r <= 0.01 || (phis[c] > 0.7 && ns[i] < 60));
		}
	}
}

/* Goal: a 50 % step with 6 intervals on each side (1 s each, CV 10 %) is
 * found at least 95 % of the time, with the break where it is. */
static void test_step_6_6_found(void **state)
{
	(void)state;
	struct prng p;
	double lv[12], x[12];
	size_t found = 0, placed = 0;
	reseed(&p, 7);
	for (size_t i = 0; i < 12; i++)
		lv[i] = i < 6 ? 400e6 : 200e6;
	for (int t = 0; t < TRIALS; t++) {
		struct plateaus pl;
		noisy(&p, lv, 12, 0.10, 0, x);
		assert_int_equal(plateau_fit(x, 12, 1.0, false, &pl), 0);
		found += pl.cliff;
		placed += pl.cliff && pl.p[pl.cliff_at].first == 6;
	}
	print_message("# 50 %% step 6+6, cv 10%%: found %.2f %%, break at 6 in %.2f %%\n",
		      100.0 * (double)found / TRIALS, 100.0 * (double)placed / TRIALS);
	assert_true(found >= TRIALS * 95 / 100);
	assert_true(placed >= TRIALS * 90 / 100);
}

/* Goal: a steady cache (41 MiB/s, +-3 %) then a lower level that is noisy
 * (16 MiB/s, log-normal noise of sigma 0.4: a throttled loop device on a
 * busy disk, an SSD folding in the background), 1.1 s + 3 s at 100 ms, is
 * found in >= 95 %.  The drop's t takes each plateau's noise as its own
 * (Welch); pooling the two let the noisy level hide the drop: 79 %. */
static void test_noisy_lower_level_found(void **state)
{
	(void)state;
	struct prng p;
	double x[41];
	size_t found = 0, placed = 0;
	reseed(&p, 13);
	for (int t = 0; t < TRIALS / 4; t++) {
		struct plateaus pl;
		for (size_t i = 0; i < 41; i++)
			x[i] = i < 11 ? 41e6 * exp(0.03 * gauss(&p)) : 16e6 * exp(0.4 * gauss(&p));
		assert_int_equal(plateau_fit(x, 41, 0.1, false, &pl), 0);
		found += pl.cliff;
		placed += pl.cliff && pl.p[pl.cliff_at].first >= 10 && pl.p[pl.cliff_at].first <= 12;
	}
	print_message("# steady 41 then noisy 16 (log sigma 0.4): found %.2f %%, break at 10-12 in %.2f %%\n",
		      100.0 * (double)found / (TRIALS / 4), 100.0 * (double)placed / (TRIALS / 4));
	assert_true(found >= (TRIALS / 4) * 95 / 100);
	assert_true(placed >= (TRIALS / 4) * 90 / 100);
}

/* Goal: a 3-level staircase (SLC cache, direct TLC, folding) is found with
 * every level within 5 %. */
static void test_staircase_three_levels(void **state)
{
	(void)state;
	struct prng p;
	double lv[60], x[60];
	static const double want[3] = { 1710e6, 600e6, 150e6 };
	size_t good = 0;
	reseed(&p, 11);
	for (size_t i = 0; i < 60; i++)
		lv[i] = want[i / 20];
	for (int t = 0; t < TRIALS; t++) {
		struct plateaus pl;
		noisy(&p, lv, 60, 0.05, 0, x);
		assert_int_equal(plateau_fit(x, 60, 0.5, false, &pl), 0);
		bool ok = pl.cliff && pl.n == 3;
		for (size_t k = 0; ok && k < 3; k++)
			ok = fabs(pl.p[k].level / want[k] - 1) <= 0.05;
		good += ok;
	}
	print_message("# staircase 1710/600/150 MB/s, cv 5%%: %.2f %% exact\n",
		      100.0 * (double)good / TRIALS);
	assert_true(good >= TRIALS * 99 / 100);
}

/* A 150 MB/s throttle: every interval after the transition is 150.0; the
 * transition interval (half fast, half slow) is not averaged in. */
static void test_level_leaves_out_transition(void **state)
{
	(void)state;
	double x[40];
	for (size_t i = 0; i < 40; i++)
		x[i] = i < 6 ? 1500e6 + (double)(i % 3) * 20e6 : 150e6;
	x[6] = 820e6; /* the interval in which the throttle began */
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 40, 0.1, false, &pl), 0);
	assert_true(pl.cliff);
	assert_int_equal(pl.n, 2);
	assert_true(fabs(pl.p[1].level - 150e6) < 1);
	assert_true(pl.p[0].bytes > 0 && pl.p[1].dur_s > 3.0);
}

/* Free, then 40 MB/s, then 10 MB/s: the sustained level is the last one
 * (about 10.5 MB/s), not a mean of the two slow ones. */
static void test_three_levels_sustained_is_last(void **state)
{
	(void)state;
	struct prng p;
	double lv[90], x[90];
	reseed(&p, 3);
	for (size_t i = 0; i < 90; i++)
		lv[i] = i < 10 ? 900e6 : i < 40 ? 40e6 : 10.5e6;
	noisy(&p, lv, 90, 0.03, 0, x);
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 90, 0.1, false, &pl), 0);
	assert_true(pl.cliff);
	assert_int_equal(pl.n, 3);
	assert_true(fabs(pl.p[2].level / 10.5e6 - 1) < 0.03);
	assert_true(fabs(pl.p[1].level / 40e6 - 1) < 0.03);
}

/* A cache that lasts only 3 intervals is still a plateau. */
static void test_short_cache_found(void **state)
{
	(void)state;
	double x[30];
	for (size_t i = 0; i < 30; i++)
		x[i] = i < 3 ? 1200e6 : 300e6 + (double)(i % 4) * 5e6;
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 30, 0.1, false, &pl), 0);
	assert_true(pl.cliff);
	assert_int_equal(pl.p[0].end, 3);
}

/* An 8 s write whose last 0.6 s is a writeback stall: never a cliff. */
static void test_stall_at_end_is_not_a_cliff(void **state)
{
	(void)state;
	struct prng p;
	double lv[80], x[80];
	reseed(&p, 5);
	for (size_t i = 0; i < 80; i++)
		lv[i] = i < 74 ? 300e6 : 6e6;
	noisy(&p, lv, 80, 0.1, 0, x);
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 80, 0.1, false, &pl), 0);
	assert_false(pl.cliff);
	assert_non_null(pl.why_not);
}

/* A dip that recovers (zram: 365 MB/s again at the end) is no cliff. */
static void test_recovery_is_not_a_cliff(void **state)
{
	(void)state;
	double x[60];
	for (size_t i = 0; i < 60; i++)
		x[i] = (i >= 20 && i < 35) ? 120e6 : 365e6 + (double)(i % 5) * 3e6;
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 60, 0.1, false, &pl), 0);
	assert_true(pl.n >= 2);
	assert_false(pl.cliff);
	assert_string_equal(pl.why_not, "the speed recovered");
}

static void set_levels(struct plateaus *p, const double *lv, const double *dur, size_t n);

/*
 * A real run: 1M writes at QD8 on a loop device over a file,
 * throttled to 20 MiB/s at 2.5 s, in 100 ms intervals, MB/s x 10.  The
 * issue's values verbatim (273.7 ... 520.1, then 472.9, 380.6, 0.0 and
 * 2.1 to the end of 5.8 s); the stretch it elides between 520.1 and 472.9
 * is 13 intervals at 470-520, as the run held there.  A 0.3 s plateau at
 * 3.1 GB/s before a page-cache stall, 1.8 s at 4.9 GB/s, then 21 MB/s to
 * the end: a cliff from 4.9 GB/s at 2.5 s, sustained.  The old rule judged
 * it from the first plateau alone and called the stall's end a recovery
 * ("the speed recovered").
 */
static const double loop_throttled_x10[58] = {
	273.7, 311.4, 315.6, 74.4, 29.4, 28.3, 133.2, 509.6, 487.6, 520.1,
	498.3, 505.1, 476.4, 512.8, 489.9, 494.0, 517.2, 481.5, 502.6, 470.8,
	509.3, 486.1, 495.7, 472.9, 380.6, 0.0,
	2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1,
	2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1, 2.1,
	2.1, 2.1, 2.1, 2.1,
};

static void test_short_head_hides_no_cliff(void **state)
{
	(void)state;
	double x[58];
	for (size_t i = 0; i < 58; i++)
		x[i] = loop_throttled_x10[i] * 1e7; /* MB/s x 10 -> B/s */
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 58, 0.1, false, &pl), 0);
	for (size_t k = 0; k < pl.n; k++)
		print_message("# plateau %zu: %.1f MB/s from %.1f s for %.1f s\n", k,
			      pl.p[k].level / 1e6, pl.p[k].start_s, pl.p[k].dur_s);
	print_message("# cliff %d (%s), drop %.1f %%, t %.1f\n", pl.cliff,
		      pl.why_not ? pl.why_not : "found", pl.drop * 100, pl.t);
	assert_true(pl.cliff);
	/* from ~4.9 GB/s to 21 MB/s at 2.5 s, sustained to the end */
	assert_true(fabs(pl.p[pl.ref].level / 4.9e9 - 1) < 0.05);
	assert_true(fabs(pl.p[pl.low].level / 21e6 - 1) < 0.01);
	assert_int_equal(pl.low, pl.n - 1);
	assert_true(fabs(pl.p[pl.cliff_at].start_s - 2.5) < 0.15);
	assert_true(pl.drop > 0.99);

	/* the other side: the speed that comes back after the low level
	 * held is a recovery, however the run began */
	double y[78];
	for (size_t i = 0; i < 78; i++)
		y[i] = i < 58 ? x[i] : 4.9e9;
	assert_int_equal(plateau_fit(y, 78, 0.1, false, &pl), 0);
	assert_false(pl.cliff);
	assert_string_equal(pl.why_not, "the speed recovered");
}

/* The reference and the levels that held (plateau_levels_rule): a short
 * first plateau is one reference of several; a burst that held between
 * two equal levels is no cliff; a dip too short to hold is no low level. */
static void test_reference_levels_that_held(void **state)
{
	(void)state;
	struct plateaus p;
	size_t k = 99, low = 99, ref = 99;
	/* the series above as levels: 0.3 s, a 0.4 s stall, 1.8 s, 3.3 s */
	const double lv[] = { 3114e6, 294e6, 4948e6, 21e6 }, dur[] = { 0.3, 0.4, 1.8, 3.3 };
	set_levels(&p, lv, dur, 4);
	assert_null(plateau_levels_rule(&p, 5.8, true, &k, &low, &ref));
	assert_int_equal(ref, 2);
	assert_int_equal(k, 3);
	assert_int_equal(low, 3);
	/* 100, then a burst to 200 that held, then 100 again: no cliff */
	const double lv2[] = { 100e6, 200e6, 100e6 }, dur2[] = { 2, 2, 2 };
	set_levels(&p, lv2, dur2, 3);
	assert_string_equal(plateau_levels_rule(&p, 6, true, &k, &low, &ref),
			    "the last level is not 30 % below the levels that held before it");
	/* a dip that did not hold, back up, then the cliff: from where the
	 * low stretch that ends the run begins */
	const double lv3[] = { 500e6, 29e6, 480e6, 2e6 }, dur3[] = { 2, 0.3, 2, 3 };
	set_levels(&p, lv3, dur3, 4);
	assert_null(plateau_levels_rule(&p, 7.3, true, &k, &low, &ref));
	assert_int_equal(ref, 0);
	assert_int_equal(k, 3);
	/* the same dip held: the speed came back after it */
	const double dur4[] = { 2, 2, 2, 3 };
	set_levels(&p, lv3, dur4, 4);
	assert_string_equal(plateau_levels_rule(&p, 9, true, &k, &low, &ref),
			    "the speed recovered");
	/* a staircase with a short cache first: the cliff is the cache's */
	const double lv5[] = { 1200e6, 600e6, 300e6 }, dur5[] = { 0.5, 1.5, 3 };
	set_levels(&p, lv5, dur5, 3);
	assert_null(plateau_levels_rule(&p, 5, true, &k, &low, &ref));
	assert_int_equal(ref, 0);
	assert_int_equal(k, 1);
}

/* Too short a run, or a RAM-backed device, never claims a cliff, however
 * deep the drop. */
static void test_short_run_and_ram(void **state)
{
	(void)state;
	double x[40];
	for (size_t i = 0; i < 40; i++)
		x[i] = i < 20 ? 1000e6 : 100e6;
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 10, 0.1, false, &pl), 0); /* 1 s */
	assert_false(pl.cliff);
	assert_string_equal(pl.why_not, "the run is too short to show a cliff");
	assert_int_equal(plateau_fit(x, 40, 0.1, true, &pl), 0);
	assert_false(pl.cliff);
	assert_string_equal(pl.why_not, "the device is RAM-backed");
	assert_int_equal(plateau_fit(x, 40, 0.1, false, &pl), 0);
	assert_true(pl.cliff);
	assert_true(fabs(pl.drop - 0.9) < 1e-9);
}

/* The demo's series on the VM disk swings 0 -> 160 -> 0 MB/s: no level
 * lasts, nothing is a cliff. */
static void test_swinging_series_is_not_a_cliff(void **state)
{
	(void)state;
	static const double x[] = { 0, 160e6, 150e6, 0, 170e6, 10e6, 155e6, 0,
				    160e6, 165e6, 0, 150e6, 140e6, 0, 160e6, 5e6,
				    158e6, 0, 162e6, 150e6, 0, 160e6, 0, 161e6,
				    150e6, 0, 160e6, 155e6, 0, 150e6 };
	struct plateaus pl;
	assert_int_equal(plateau_fit(x, 30, 0.1, false, &pl), 0);
	assert_false(pl.cliff);
}

/* Degenerate input: nothing, a constant, zeros. */
static void test_degenerate(void **state)
{
	(void)state;
	double z[20] = { 0 }, c[20];
	struct plateaus pl;
	assert_int_equal(plateau_fit(z, 2, 1.0, false, &pl), 0);
	assert_int_equal(pl.n, 0);
	assert_int_equal(plateau_fit(z, 20, 1.0, false, &pl), 0);
	assert_int_equal(pl.n, 1);
	assert_false(pl.cliff);
	for (size_t i = 0; i < 20; i++)
		c[i] = 250e6;
	assert_int_equal(plateau_fit(c, 20, 1.0, false, &pl), 0);
	assert_int_equal(pl.n, 1);
	assert_true(pl.p[0].level == 250e6);
	assert_true(fabs(pl.p[0].bytes - 20 * 250e6) < 1);
}

/* The lower level of the level rule is the last plateau with those just
 * before it at its level: a throttled 17 MB/s level the fit cut into 2.2 s
 * and 0.8 s (CI's sanitizer pass did) is a 3 s level, a cliff; one last
 * 0.8 s plateau alone is still too short, two low levels are not one, and
 * a low stretch broken by a plateau back near the first is a recovery. */
static void set_levels(struct plateaus *p, const double *lv, const double *dur, size_t n)
{
	memset(p, 0, sizeof(*p));
	p->n = n;
	double t = 0;
	for (size_t i = 0; i < n; i++) {
		p->p[i].level = lv[i];
		p->p[i].start_s = t;
		p->p[i].dur_s = dur[i];
		t += dur[i];
	}
}

static void test_lower_level_split_in_two(void **state)
{
	(void)state;
	struct plateaus p;
	size_t k = 99;
	const double lv[] = { 42e6, 17e6, 17e6 }, dur[] = { 1.1, 2.2, 0.8 };
	set_levels(&p, lv, dur, 3);
	assert_null(plateau_levels_rule(&p, 4.1, true, &k, NULL, NULL));
	assert_int_equal(k, 1);
	/* a head's fine fit judges the last plateau alone */
	assert_string_equal(plateau_levels_rule(&p, 4.1, false, &k, NULL, NULL),
			    "the lower level does not last long enough");

	const double lv2[] = { 42e6, 17e6 }, dur2[] = { 3.3, 0.8 };
	set_levels(&p, lv2, dur2, 2);
	assert_string_equal(plateau_levels_rule(&p, 4.1, true, &k, NULL, NULL),
			    "the lower level does not last long enough");

	/* low, back near the first, low again for 0.8 s: recovered */
	const double lv3[] = { 42e6, 17e6, 40e6, 17e6 }, dur3[] = { 1.1, 2.2, 0.5, 0.8 };
	set_levels(&p, lv3, dur3, 4);
	assert_string_equal(plateau_levels_rule(&p, 4.6, true, &k, NULL, NULL), "the speed recovered");

	/* a cache at the head, then 40 MB/s, then 17 MB/s for 0.9 s: two
	 * levels, the last too short (the head fit of a 2 s start) */
	const double lv5[] = { 194e6, 40e6, 17e6 }, dur5[] = { 0.06, 1.0, 0.9 };
	set_levels(&p, lv5, dur5, 3);
	assert_string_equal(plateau_levels_rule(&p, 1.96, true, &k, NULL, NULL),
			    "the lower level does not last long enough");

	/* a slower tail after a low level that lasts: the low level is the
	 * lower level (CI, 2026-12-02: 42, then 17 for 2.5 s, then 9.4 MB/s
	 * for the last 0.5 s under stalls) */
	size_t low = 99;
	const double lv6[] = { 42e6, 17e6, 9.4e6 }, dur6[] = { 1.1, 2.5, 0.5 };
	set_levels(&p, lv6, dur6, 3);
	assert_null(plateau_levels_rule(&p, 4.1, true, &k, &low, NULL));
	assert_int_equal(k, 1);
	assert_int_equal(low, 1);
	/* the fine fit's rule judges the last plateau alone, tail or not */
	assert_string_equal(plateau_levels_rule(&p, 4.1, false, &k, &low, NULL),
			    "the lower level does not last long enough");
	/* no cliff, tail or not (4.1 s runs): a tail as long as more than
	 * half the low plateau before it is a level of its own, the last too
	 * short; a tail after a low plateau itself too short; a stall at the
	 * end of a flat run (no low level before it) */
	const double tails[][2][3] = {
		{ { 42e6, 17e6, 9.4e6 }, { 2.4, 1.0, 0.7 } },
		{ { 42e6, 17e6, 9.4e6 }, { 3.2, 0.6, 0.3 } },
		{ { 42e6, 40e6, 9e6 }, { 2.0, 1.6, 0.5 } },
	};
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		set_levels(&p, tails[i][0], tails[i][1], 3);
		assert_string_equal(plateau_levels_rule(&p, 4.1, true, &k, &low, NULL),
				    "the lower level does not last long enough");
	}

	/* a middle level only 20 % down between: not part of the lower level */
	const double lv4[] = { 42e6, 33e6, 17e6 }, dur4[] = { 1.1, 2.2, 0.8 };
	set_levels(&p, lv4, dur4, 3);
	assert_string_equal(plateau_levels_rule(&p, 4.1, true, &k, NULL, NULL),
			    "the lower level does not last long enough");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_false_cliffs_independent),
		cmocka_unit_test(test_no_false_cliffs_correlated),
		cmocka_unit_test(test_step_6_6_found),
		cmocka_unit_test(test_noisy_lower_level_found),
		cmocka_unit_test(test_staircase_three_levels),
		cmocka_unit_test(test_level_leaves_out_transition),
		cmocka_unit_test(test_three_levels_sustained_is_last),
		cmocka_unit_test(test_short_cache_found),
		cmocka_unit_test(test_stall_at_end_is_not_a_cliff),
		cmocka_unit_test(test_recovery_is_not_a_cliff),
		cmocka_unit_test(test_lower_level_split_in_two),
		cmocka_unit_test(test_short_head_hides_no_cliff),
		cmocka_unit_test(test_reference_levels_that_held),
		cmocka_unit_test(test_short_run_and_ram),
		cmocka_unit_test(test_swinging_series_is_not_a_cliff),
		cmocka_unit_test(test_degenerate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
