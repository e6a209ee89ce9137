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
	assert_int_equal(ratio_verdict(o, 3, n, 3, 16, 0.05, &c), RATIO_DOWN);
	assert_true(c.ok && c.hi < 0.95);
	double s1[] = { 1000, 1005, 995 }, s2[] = { 1000, 1005, 995 };
	assert_int_equal(ratio_verdict(s1, 3, s2, 3, 16, 0.05, &c), RATIO_SAME);
	double w1[] = { 1000, 1500, 700 }, w2[] = { 800, 1200, 560 };
	assert_int_equal(ratio_verdict(w1, 3, w2, 3, 16, 0.05, &c), RATIO_INCONCLUSIVE);
	assert_true(fabs(c.ratio - 0.8) < 1e-9);
	double up[] = { 2000, 2010, 1990 };
	assert_int_equal(ratio_verdict(s1, 3, up, 3, 1, 0.05, &c), RATIO_UP);
	/* one repetition a side: too few, no interval */
	assert_int_equal(ratio_verdict(s1, 1, up, 3, 1, 0.05, &c), RATIO_FEW);
	assert_false(c.ok);
}

/* One pair, two families.  A +72.9 % change at 3
 * repetitions is "faster" when judged alone and inconclusive among 12
 * pairs: the verdict depends on the family, so every command passes the
 * family it judges together, and one verdict function decides. */
static void test_family(void **state)
{
	(void)state;
	double o[] = { 1000, 1250, 820 }, n[] = { 1800, 1950, 1620 };
	struct ratio_ci c1, c12;
	enum ratio_verdict v1 = ratio_verdict(o, 3, n, 3, 1, 0.05, &c1);
	enum ratio_verdict v12 = ratio_verdict(o, 3, n, 3, 12, 0.05, &c12);
	print_message("alone %.3f (%.3f .. %.3f), among 12 (%.3f .. %.3f)\n", c1.ratio,
		      c1.lo, c1.hi, c12.lo, c12.hi);
	assert_int_equal(v1, RATIO_UP);
	assert_int_equal(v12, RATIO_INCONCLUSIVE);
	assert_true(c12.lo < c1.lo && c12.hi > c1.hi);
	/* family 0 is a family of one */
	assert_int_equal(ratio_verdict(o, 3, n, 3, 0, 0.05, &c1), RATIO_UP);
}

/* The spread of the original alone: with it wider than the tolerance even
 * an exact copy measured without noise cannot be "the same". */
static void test_spread(void **state)
{
	(void)state;
	double noisy[] = { 1000, 1400, 700 }, calm[] = { 1000, 1010, 990 };
	double exact[] = { 1000, 1000, 1000 };
	struct ratio_ci c;
	double sn = ratio_spread(noisy, 3, 4), sc = ratio_spread(calm, 3, 4);
	print_message("spread noisy %.3f, calm %.3f\n", sn, sc);
	assert_true(sn > 0.10 && sc < 0.10);
	/* the claim the spread backs: the noisy original against a copy of its
	 * geometric mean cannot be judged the same within 10 % */
	double g = cbrt(1000.0 * 1400 * 700), copy[] = { g, g, g };
	assert_int_equal(ratio_verdict(noisy, 3, copy, 3, 4, 0.10, &c), RATIO_INCONCLUSIVE);
	assert_true(fabs(c.hi - (1 + sn)) < 1e-9);
	assert_int_equal(ratio_verdict(calm, 3, exact, 3, 4, 0.10, &c), RATIO_SAME);
	assert_true(isnan(ratio_spread(noisy, 1, 1)));
}

/* No spread: the interval is the point; a zero value: no logs, not ok. */
static void test_degenerate(void **state)
{
	(void)state;
	double a[] = { 5, 5, 5 }, b[] = { 5, 5, 5 }, z[] = { 0, 5, 5 };
	struct ratio_ci c;
	assert_int_equal(ratio_verdict(a, 3, b, 3, 1, 0.05, &c), RATIO_SAME);
	assert_true(c.ok && c.lo == 1 && c.hi == 1);
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
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_degenerate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
