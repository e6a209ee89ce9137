/*
 * test_student.c - the one Student's t (stats/student.c) against known
 * quantiles: the closed forms of 1 and 2 degrees of freedom, published
 * values (checked by integrating the density, and df 3 by its closed
 * form), the normal limit; and the
 * confidence interval of a summary uses the same numbers as compare and
 * history, not a rounded table.
 */
#include "testutil.h"

#include <math.h>

#include "stats/stats.h"
#include "stats/student.h"

static void near(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("got %.15g, want %.15g (rel %g)", got, want, rel);
}

static void test_closed_forms(void **state)
{
	(void)state;
	/* df 1 is Cauchy: tan(pi (p - 1/2)); df 2: (2p-1) / sqrt(2p(1-p)) */
	const double ps[] = { 0.6, 0.9, 0.95, 0.975, 0.995, 0.9995 };
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double p = ps[i];
		near(student_t_quantile(p, 1), tan(M_PI * (p - 0.5)), 1e-10);
		near(student_t_quantile(p, 2), (2 * p - 1) / sqrt(2 * p * (1 - p)), 1e-10);
		near(student_t_quantile(1 - p, 2), -(2 * p - 1) / sqrt(2 * p * (1 - p)), 1e-10);
		near(student_t_cdf(tan(M_PI * (p - 0.5)), 1), p, 1e-12);
	}
}

static void test_known_quantiles(void **state)
{
	static const struct { double p, df, t; } k[] = {
		{ 0.975, 4, 2.7764451051977987 },
		{ 0.975, 5, 2.5705818356363146 },
		{ 0.975, 10, 2.2281388519862744 },
		{ 0.975, 30, 2.0422724563012373 },
		{ 0.975, 100, 1.9839715184496334 },
		{ 0.95, 10, 1.8124611228107335 },
		{ 0.995, 3, 5.840909309733351 }, /* closed form of df 3 */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		near(student_t_quantile(k[i].p, k[i].df), k[i].t, 1e-9);
		near(student_t_cdf(k[i].t, k[i].df), k[i].p, 1e-10);
	}
	/* the normal limit */
	near(student_t_quantile(0.975, 1e7), 1.959963984540054, 1e-6);
	assert_true(student_t_quantile(0.5, 7) == 0);
	assert_true(isnan(student_t_quantile(0, 3)) && isnan(student_t_quantile(1, 3)));
	assert_true(isnan(student_t_quantile(0.9, 0)) && isnan(student_t_cdf(1, -1)));
}

/* The summaries' CI used a 4-digit table up to 30 dof and a series above
 * it: t(2) was 4.3027, not 4.302653. */
static void test_summary_ci_uses_it(void **state)
{
	(void)state;
	assert_true(student_t95(0) == 0);
	for (size_t d = 1; d <= 200; d++)
		assert_true(student_t95(d) == student_t_quantile(0.975, (double)d));
	const double x[] = { 10, 12, 14 };
	struct summary s;
	summary_compute(x, 3, &s);
	near(s.ci95, 4.302652729749464 * 2 / sqrt(3), 1e-10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_forms),
		cmocka_unit_test(test_known_quantiles),
		cmocka_unit_test(test_summary_ci_uses_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
