/*
 * test_steady.c - the SNIA PTS steady-state rule on synthetic round series:
 * steady at exactly round 5, never steady, slope failing while the range
 * passes and the reverse, and a window average of 0.
 */
#include "testutil.h"

#include <math.h>

#include "stats/steady.h"

static struct steady_rule pts(void)
{
	struct steady_rule r;
	steady_rule_init(&r);
	return r;
}

/* Flat from the first round: judged and steady as soon as the window is
 * full, i.e. exactly at round 5, not before. */
static void test_steady_at_round_5(void **state)
{
	(void)state;
	double x[] = { 1000, 1010, 990, 1005, 995, 1000, 1000 };
	struct steady_rule r = pts();
	struct steady_verdict v;
	steady_judge(x, 4, &r, &v);
	assert_false(v.judged);
	assert_false(v.steady);
	steady_judge(x, 5, &r, &v);
	assert_true(v.judged);
	assert_true(v.steady);
	assert_true(fabs(v.avg - 1000) < 1e-9);
	assert_true(fabs(v.range - 20) < 1e-9);
	assert_true(fabs(v.range_frac - 0.02) < 1e-12);
	assert_int_equal(steady_first_round(x, 7, &r), 5);
}

/* A fresh SSD losing 15 % per round never settles within 25 rounds. */
static void test_never_steady(void **state)
{
	(void)state;
	double x[25];
	double v0 = 100000;
	for (int i = 0; i < 25; i++) {
		x[i] = v0;
		v0 *= 0.85;
	}
	struct steady_rule r = pts();
	assert_int_equal(steady_first_round(x, 25, &r), 0);
	struct steady_verdict v;
	steady_judge(x, 25, &r, &v);
	assert_true(v.judged);
	assert_false(v.steady);
	assert_false(v.range_ok);
	assert_false(v.slope_ok);
}

/* A steady climb of 4 % of the average per round: range 16 % passes, the
 * fit line rises 16 % across the window, so the slope fails. */
static void test_slope_fails_range_passes(void **state)
{
	(void)state;
	double x[] = { 92, 96, 100, 104, 108 };
	struct steady_rule r = pts();
	struct steady_verdict v;
	steady_judge(x, 5, &r, &v);
	assert_true(v.judged);
	assert_true(v.range_ok);
	assert_false(v.slope_ok);
	assert_false(v.steady);
	assert_true(fabs(v.range_frac - 0.16) < 1e-12);
	assert_true(fabs(v.slope - 4) < 1e-12);
	assert_true(fabs(v.excursion - 16) < 1e-12);
	assert_true(fabs(v.slope_frac - 0.16) < 1e-12);
}

/* One outlier in the middle: the fit line stays flat (slope passes), the
 * range of 30 % fails. */
static void test_range_fails_slope_passes(void **state)
{
	(void)state;
	double x[] = { 95, 95, 125, 95, 95 };
	struct steady_rule r = pts();
	struct steady_verdict v;
	steady_judge(x, 5, &r, &v);
	assert_true(v.slope_ok);
	assert_false(v.range_ok);
	assert_false(v.steady);
	assert_true(fabs(v.slope) < 1e-12);
	assert_true(fabs(v.range_frac - 30.0 / 101.0) < 1e-12);
}

/* No IO in any round: the limits are shares of 0; never steady, and no
 * division by zero leaks into the verdict. */
static void test_window_average_zero(void **state)
{
	(void)state;
	double x[] = { 0, 0, 0, 0, 0, 0 };
	struct steady_rule r = pts();
	struct steady_verdict v;
	steady_judge(x, 6, &r, &v);
	assert_true(v.judged);
	assert_false(v.steady);
	assert_true(v.avg == 0);
	assert_true(v.range_frac == 0 && v.slope_frac == 0);
	assert_false(isnan(v.slope));
	assert_int_equal(steady_first_round(x, 6, &r), 0);
}

/* The limits are inclusive, and only the last `window` rounds count:
 * a wild start does not matter once it has left the window. */
static void test_limits_and_window(void **state)
{
	(void)state;
	double x[] = { 5000, 10, 90, 110, 100, 100, 100 };
	struct steady_rule r = pts();
	r.range_frac = 0.20;
	struct steady_verdict v;
	steady_judge(x, 7, &r, &v);  /* window 90 110 100 100 100: range 20 % */
	assert_true(v.range_ok);
	assert_true(fabs(v.range_frac - 0.20) < 1e-12);
	assert_int_equal(steady_first_round(x, 7, &r), 7);
	r.window = 3;
	assert_int_equal(steady_first_round(x, 7, &r), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_at_round_5),
		cmocka_unit_test(test_never_steady),
		cmocka_unit_test(test_slope_fails_range_passes),
		cmocka_unit_test(test_range_fails_slope_passes),
		cmocka_unit_test(test_window_average_zero),
		cmocka_unit_test(test_limits_and_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
