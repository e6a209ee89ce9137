/*
 * test_ratio.c - the ratio new/old with its confidence interval (Welch's t
 * on logs) and the verdict against a threshold (report/model/ratio.h).
 */
#include "testutil.h"

#include <math.h>

#include "model/ratio.h"

/* Two repetitions each of x and 2x: the ratio is 2 exactly, and the
 * interval is exp(log 2 +- t(df) * se) with se from the log spreads. */
static void test_interval_by_hand(void **state)
{
	(void)state;
	double a[] = { 100, 200 }, b[] = { 200, 400 };
	struct ratio_ci c;
	ratio_ci(a, 2, b, 2, 0.05, &c);
	assert_true(c.ok);
	assert_true(fabs(c.ratio - 2) < 1e-12);
	/* var(log) of {x, 2x} = (log 2)^2 / 2 each side; se = log 2 / sqrt 2;
	 * Welch df = 2; t(0.975, 2) = 4.302653 */
	double se = log(2) / sqrt(2), t = 4.302653;
	assert_true(fabs(log(c.lo) - (log(2) - t * se)) < 1e-5);
	assert_true(fabs(log(c.hi) - (log(2) + t * se)) < 1e-5);
	assert_true(fabs(c.df - 2) < 1e-9);
}

/* The user's case: at 3 repetitions and a 16-comparison family, -94 % is a
 * regression; identical steady sides are "no change"; a wide -20 % is
 * inconclusive. */
static void test_verdicts(void **state)
{
	(void)state;
	double o[] = { 8383, 7132, 11788 }, n[] = { 473, 492, 463 };
	struct ratio_ci c;
	ratio_ci(o, 3, n, 3, 0.05 / 16, &c);
	assert_true(c.ok && c.hi < 0.95);
	assert_int_equal(ratio_judge(&c, 0.05), RATIO_DOWN);
	double s1[] = { 1000, 1005, 995 }, s2[] = { 1000, 1005, 995 };
	ratio_ci(s1, 3, s2, 3, 0.05 / 16, &c);
	assert_int_equal(ratio_judge(&c, 0.05), RATIO_SAME);
	double w1[] = { 1000, 1500, 700 }, w2[] = { 800, 1200, 560 };
	ratio_ci(w1, 3, w2, 3, 0.05 / 16, &c);
	assert_int_equal(ratio_judge(&c, 0.05), RATIO_INCONCLUSIVE);
	assert_true(fabs(c.ratio - 0.8) < 1e-9);
	double up[] = { 2000, 2010, 1990 };
	ratio_ci(s1, 3, up, 3, 0.05, &c);
	assert_int_equal(ratio_judge(&c, 0.05), RATIO_UP);
}

/* No spread: the interval is the point; a zero value: no logs, not ok. */
static void test_degenerate(void **state)
{
	(void)state;
	double a[] = { 5, 5, 5 }, b[] = { 5, 5, 5 }, z[] = { 0, 5, 5 };
	struct ratio_ci c;
	ratio_ci(a, 3, b, 3, 0.05, &c);
	assert_true(c.ok && c.lo == 1 && c.hi == 1);
	assert_int_equal(ratio_judge(&c, 0.05), RATIO_SAME);
	ratio_ci(z, 3, b, 3, 0.05, &c);
	assert_false(c.ok);
	ratio_ci(a, 1, b, 3, 0.05, &c);
	assert_false(c.ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_by_hand),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_degenerate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
