/*
 * test_changepoint.c - the statistics of history: Student's t against
 * known quantiles, Welch's p-value, Holm, and change points on generated
 * series (a step found exactly, flat noise giving none over many seeds, a
 * drift reported once, a one-set excursion ignored).
 */
#include "testutil.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "common/prng.h"
#include "report/archive/changepoint.h"
#include "common/student.h"
#include "report/compare/cmpstat.h"

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

static void test_welch_p(void **state)
{
	(void)state;
	struct cmpstat_side a = { 100, 5, 3 }, b = { 100, 5, 3 }, c = { 130, 5, 3 };
	struct cmpstat_side one = { 100, 0, 1 };
	assert_true(fabs(cmpstat_welch_p(&a, &b) - 1) < 1e-12);
	assert_true(cmpstat_welch_p(&a, &c) < 0.01);
	assert_true(cmpstat_welch_p(&a, &one) < 0);
}

static void test_holm_steps_down(void **state)
{
	(void)state;
	double p[4] = { 0.01, 0.04, 0.03, 0.005 };
	bool rej[4];
	cmpstat_holm(p, 4, 0.05, rej);
	/* 0.005 <= .05/4, 0.01 <= .05/3, 0.03 > .05/2: stop */
	assert_true(rej[3] && rej[0] && !rej[2] && !rej[1]);
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
		x[i] = (struct cp_point){ m, sqrt(ss / 2), 3 };
	}
}

static void test_step_found_exactly(void **state)
{
	(void)state;
	struct cp_point x[30];
	struct cp_result res[30];
	int extra = 0;
	for (uint64_t seed = 1; seed <= 100; seed++) {
		series(x, 30, seed, 0.03, 0.02, 19, -0.25);
		int found = cp_detect(x, 30, 5, CP_ALPHA, res);
		assert_int_not_equal(res[19].kind, CP_NONE);
		assert_true(res[19].change_pct < -20 && res[19].change_pct > -30);
		extra += found - 1;
	}
	/* a noise-made extra split is rare (family-wise 5 % per series) */
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
		fp += cp_detect(x, 30, 5, CP_ALPHA, res) > 0;
	}
	/* the family-wise error rate is 5 %, and the threshold cuts it further */
	assert_true(fp <= 4);
}

static void test_drift_reported_once(void **state)
{
	(void)state;
	struct cp_point x[30];
	struct cp_result res[30];
	for (size_t i = 0; i < 30; i++) {
		double level = i < 10 ? 1000 : i < 20 ? 1000 - (double)(i - 9) * 30 : 700;
		x[i] = (struct cp_point){ level * (1 + 0.002 * ((double)((i * 7) % 5) - 2)), level * 0.01, 3 };
	}
	int found = cp_detect(x, 30, 5, CP_ALPHA, res);
	assert_int_equal(found, 1);
	size_t at = 0;
	for (size_t i = 0; i < 30; i++)
		if (res[i].kind != CP_NONE)
			at = i;
	assert_true(at >= 10 && at <= 14);
	assert_int_equal(res[at].kind, CP_DRIFT);
	assert_true(res[at].change_pct < -20);
}

static void test_excursion_ignored(void **state)
{
	(void)state;
	struct cp_point x[30];
	struct cp_result res[30];
	series(x, 30, 7, 0.01, 0.01, 30, 0);
	x[12].mean *= 0.6;   /* one bad run that came back */
	assert_int_equal(cp_detect(x, 30, 5, CP_ALPHA, res), 0);
}

static void test_short_series(void **state)
{
	(void)state;
	struct cp_result res[3];
	/* a step that stays is a change; one that comes back is an excursion */
	struct cp_point stay[3] = { { 100, 2, 3 }, { 70, 2, 3 }, { 71, 2, 3 } };
	struct cp_point back[3] = { { 100, 2, 3 }, { 70, 2, 3 }, { 99, 2, 3 } };
	assert_int_equal(cp_detect(stay, 3, 5, CP_ALPHA, res), 1);
	assert_int_equal(res[1].kind, CP_STEP);
	assert_int_equal(cp_detect(back, 3, 5, CP_ALPHA, res), 0);
	/* two sets: compare's rule alone; below the threshold: nothing */
	struct cp_point two[2] = { { 100, 1, 3 }, { 103, 1, 3 } };
	assert_int_equal(cp_detect(two, 2, 5, CP_ALPHA, res), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_welch_p),
		cmocka_unit_test(test_holm_steps_down),
		cmocka_unit_test(test_step_found_exactly),
		cmocka_unit_test(test_flat_noise_no_change),
		cmocka_unit_test(test_drift_reported_once),
		cmocka_unit_test(test_excursion_ignored),
		cmocka_unit_test(test_short_series),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
