/*
 * test_changepoint.c - the statistics of history: Student's t against
 * known quantiles, and change points on generated
 * series (a step found exactly, flat noise giving none over many seeds, a
 * step only where the whole ratio interval lies beyond the threshold, the
 * family the series' own pairs, a one-set excursion ignored, two sets never
 * a change).
 */
#include "testutil.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "stats/prng.h"
#include "report/archive/changepoint.h"
#include "stats/student.h"

static double gauss(struct prng *r)
{
	/* Box-Muller */
	double u = ((double)(prng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(prng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void test_t_quantiles(void **state)
{
	(void)state;
	assert_true(fabs(student_t_quantile(0.975, 1) - 12.706) < 1e-3);
	assert_true(fabs(student_t_quantile(0.975, 4) - 2.776) < 1e-3);
	assert_true(fabs(student_t_quantile(0.975, 30) - 2.042) < 1e-3);
	assert_true(fabs(student_t_cdf(0, 7) - 0.5) < 1e-12);
	assert_true(fabs(student_t_cdf(-2.365, 7) - 0.025) < 1e-4);
}

/* 30 sets, 3 repetitions each, within-set CV cv, set-to-set jitter jit. */
static void series(struct cp_point *x, size_t n, uint64_t seed, double cv, double jit,
		   size_t step_at, double step)
{
	struct prng r;
	prng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double level = 10000 * (i >= step_at ? 1 + step : 1) * (1 + jit * gauss(&r));
		double v[3], m = 0, ss = 0;
		for (int k = 0; k < 3; k++)
			m += v[k] = level * (1 + cv * gauss(&r));
		m /= 3;
		for (int k = 0; k < 3; k++)
			ss += (v[k] - m) * (v[k] - m);
		x[i] = (struct cp_point){ m, sqrt(ss / 2), 3, NULL };
	}
}

static void test_step_found_exactly(void **state)
{
	(void)state;
	struct cp_point x[30];
	struct cp_result res[30];
	int extra = 0, hit = 0;
	for (uint64_t seed = 1; seed <= 100; seed++) {
		series(x, 30, seed, 0.03, 0.02, 19, -0.25);
		int found = cp_detect(x, 30, 5, res);
		if (res[19].kind == CP_NONE) {
			extra += found;
			continue;
		}
		hit++;
		assert_true(res[19].change_pct < -15 && res[19].change_pct > -35);
		extra += found - 1;
	}
	/* compare's rule at 3 repetitions, Bonferroni over 29 pairs: the whole
	 * interval clears -5 % in 48 of these 100 series (measured); a
	 * noise-made extra step is rare (family-wise 5 % per series) */
	fprintf(stderr, "step found %d/100, extra %d\n", hit, extra);
	assert_true(hit >= 40);
	assert_true(extra <= 5);
}

static void test_flat_noise_no_change(void **state)
{
	(void)state;
	struct cp_point x[30];
	struct cp_result res[30];
	int fp = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		series(x, 30, seed, 0.03, 0.02, 30, 0);
		fp += cp_detect(x, 30, 5, res) > 0;
	}
	/* the family-wise error rate is 5 %, and the threshold cuts it further */
	assert_true(fp <= 4);
}

/* [8383, 7132, 11788] -> [473, 492, 463] IOPS is compare's
 * regression; in history it is a step (the level stays), from the
 * repetition values themselves when they are given. */
static void test_issue21_pair_is_a_step(void **state)
{
	(void)state;
	double o[3] = { 8383, 7132, 11788 }, nw[3] = { 473, 492, 463 }, st[3] = { 470, 488, 475 };
	struct cp_point x[3] = { { 9101, 0, 3, o }, { 476, 0, 3, nw }, { 478, 0, 3, st } };
	struct cp_result res[3];
	assert_int_equal(cp_detect(x, 3, 5, res), 1);
	assert_int_equal(res[1].kind, CP_STEP);
	assert_true(res[1].change_pct < -90 && res[1].change_pct > -97);
}

/* A 20 % drop whose interval reaches back inside +-5 % (CV 15 %, 3 reps)
 * is no change point, though Welch on it alone might be significant: only
 * a whole interval beyond the threshold is a step. */
static void test_interval_across_threshold_is_no_step(void **state)
{
	(void)state;
	struct cp_point x[4] = { { 1000, 150, 3, NULL }, { 1000, 150, 3, NULL },
				 { 800, 120, 3, NULL }, { 800, 120, 3, NULL } };
	struct cp_result res[4];
	assert_int_equal(cp_detect(x, 4, 5, res), 0);
	/* the same drop with a CV of 1 % is a step, at the first new set */
	for (int i = 0; i < 4; i++)
		x[i].stddev = x[i].mean * 0.01;
	assert_int_equal(cp_detect(x, 4, 5, res), 1);
	assert_int_equal(res[2].kind, CP_STEP);
	assert_true(fabs(res[2].change_pct + 20) < 1);
}

/* The family is the series' own n - 1 pairs: a pair that clears alpha / 2
 * but not alpha / 29 is a step in a short series and not in a long one
 * (so what decides is only the series itself, never the archive). */
static void test_family_is_the_series(void **state)
{
	(void)state;
	struct cp_point x[30];
	struct cp_result res[30];
	for (int i = 0; i < 30; i++)
		x[i] = (struct cp_point){ i < 1 ? 1000 : 850, (i < 1 ? 1000 : 850) * 0.03, 3, NULL };
	assert_int_equal(cp_detect(x, 3, 5, res), 1);
	assert_int_equal(cp_detect(x, 30, 5, res), 0);
}

static void test_excursion_ignored(void **state)
{
	(void)state;
	struct cp_point x[30];
	struct cp_result res[30];
	series(x, 30, 7, 0.01, 0.01, 30, 0);
	x[12].mean *= 0.6;   /* one bad run that came back */
	assert_int_equal(cp_detect(x, 30, 5, res), 0);
}

static void test_short_series(void **state)
{
	(void)state;
	struct cp_result res[3];
	/* a step that stays is a change; one that comes back is an excursion */
	struct cp_point stay[3] = { { 100, 2, 3, NULL }, { 70, 2, 3, NULL }, { 71, 2, 3, NULL } };
	struct cp_point back[3] = { { 100, 2, 3, NULL }, { 70, 2, 3, NULL }, { 99, 2, 3, NULL } };
	assert_int_equal(cp_detect(stay, 3, 5, res), 1);
	assert_int_equal(res[1].kind, CP_STEP);
	assert_int_equal(cp_detect(back, 3, 5, res), 0);
	/* two sets: no change point, even where compare sees a regression
	 * (one odd set is not a change) */
	struct cp_point two[2] = { { 100, 1, 3, NULL }, { 50, 1, 3, NULL } };
	assert_int_equal(cp_detect(two, 2, 5, res), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_step_found_exactly),
		cmocka_unit_test(test_flat_noise_no_change),
		cmocka_unit_test(test_issue21_pair_is_a_step),
		cmocka_unit_test(test_interval_across_threshold_is_no_step),
		cmocka_unit_test(test_family_is_the_series),
		cmocka_unit_test(test_excursion_ignored),
		cmocka_unit_test(test_short_series),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
