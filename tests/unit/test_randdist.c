/*
 * test_randdist.c - random_distribution: fio's syntax and limits (each bad
 * value refused with a reason), the canonical text read back, and the
 * shapes of the samplers against exact values: zipf's top-10 % share,
 * pareto's h rule, the normal's one-sigma share, the zones' shares.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/randdist.h"

#define DRAWS 200000

static void test_parse_good(void **state)
{
	(void)state;
	static const char *const good[] = { "random", "zipf:1.2", "zipf:0.8",
		"pareto:0.2", "normal:10", "zoned:60/10:30/20:10/70",
		"zoned_abs:60/1M:40/3M", "zoned:100/100" };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct randdist d, e;
		char why[200], text[RANDDIST_TEXT_MAX], again[RANDDIST_TEXT_MAX];
		assert_int_equal(randdist_parse(good[i], &d, why, sizeof(why)), 0);
		randdist_format(&d, text, sizeof(text));
		assert_int_equal(randdist_parse(text, &e, why, sizeof(why)), 0);
		randdist_format(&e, again, sizeof(again));
		assert_string_equal(text, again);
		assert_int_equal(memcmp(&d, &e, sizeof(d)), 0);
	}
	struct randdist d;
	char why[200], text[RANDDIST_TEXT_MAX];
	assert_int_equal(randdist_parse("zoned_abs:60/1m:40/3g", &d, why, sizeof(why)), 0);
	randdist_format(&d, text, sizeof(text));
	assert_string_equal(text, "zoned_abs:60/1M:40/3G");
}

static void test_parse_bad(void **state)
{
	(void)state;
	static const struct { const char *v, *why; } bad[] = {
		{ "zipf:0", "above 0 and not 1" }, { "zipf:-1", "above 0 and not 1" },
		{ "zipf:1", "above 0 and not 1" }, { "zipf:x", "above 0" },
		{ "zipf:", "above 0" }, { "pareto:0", "between 0 and 1" },
		{ "pareto:1", "between 0 and 1" }, { "pareto:1.5", "between 0 and 1" },
		{ "normal:0", "above 0 and below 100" }, { "normal:100", "below 100" },
		{ "zoned:60/10:30/90", "access shares sum to 90" },
		{ "zoned:60/10:40/20", "range shares sum to 30" },
		{ "zoned:50/50:", "must not end" }, { "zoned:", "no zones" },
		{ "zoned:50:50", "ACCESS%/RANGE%" }, { "zoned:150/50:-50/50", "ACCESS%" },
		{ "zoned_abs:60/1m:30/2m", "sum to 90" }, { "zoned_abs:100/lots", "not a size" },
		{ "gauss:1", "unknown distribution" }, { "", "unknown distribution" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct randdist d;
		char why[240] = "";
		assert_int_equal(randdist_parse(bad[i].v, &d, why, sizeof(why)), -1);
		if (!strstr(why, bad[i].why))
			fail_msg("%s: '%s' does not say '%s'", bad[i].v, why, bad[i].why);
	}
}

static void gen(const char *text, uint64_t n, uint64_t bs, struct randdist_gen *g)
{
	struct randdist d;
	char why[240];
	assert_int_equal(randdist_parse(text, &d, why, sizeof(why)), 0);
	assert_int_equal(randdist_gen_init(g, &d, n, bs, why, sizeof(why)), 0);
}

/* Share of the draws below `below`. */
static double share_below(const struct randdist_gen *g, uint64_t below)
{
	struct prng p;
	unsigned hit = 0;
	prng_seed(&p, 42);
	for (int i = 0; i < DRAWS; i++) {
		uint64_t r = randdist_next(g, &p);
		assert_true(r < g->n);
		hit += r < below;
	}
	return (double)hit / DRAWS;
}

/* zipf: the top tenth of the ranks gets sum_{k<=n/10} k^-θ / sum_{k<=n}
 * k^-θ of the draws, and rank 1 alone 1 / sum. */
static void test_zipf_shape(void **state)
{
	(void)state;
	static const double thetas[] = { 1.2, 0.8, 2.5 };
	const uint64_t n = 10000;
	for (size_t t = 0; t < 3; t++) {
		double all = 0, top = 0;
		for (uint64_t k = 1; k <= n; k++) {
			double v = pow((double)k, -thetas[t]);
			all += v;
			if (k <= n / 10)
				top += v;
		}
		char text[32];
		struct randdist_gen g;
		snprintf(text, sizeof(text), "zipf:%g", thetas[t]);
		gen(text, n, 4096, &g);
		double got = share_below(&g, n / 10), first = share_below(&g, 1);
		if (fabs(got - top / all) > 0.005 || fabs(first - 1 / all) > 0.005)
			fail_msg("%s: top 10%% %.4f (exact %.4f), rank 1 %.4f (exact %.4f)",
				 text, got, top / all, first, 1 / all);
	}
}

static void test_pareto_normal_shape(void **state)
{
	(void)state;
	struct randdist_gen g;
	const uint64_t n = 100000;
	gen("pareto:0.2", n, 4096, &g); /* 80 % of the IOs on 20 % of the blocks */
	assert_true(fabs(share_below(&g, n / 5) - 0.8) < 0.005);
	gen("pareto:0.1", n, 4096, &g);
	assert_true(fabs(share_below(&g, n / 10) - 0.9) < 0.005);
	gen("normal:10", n, 4096, &g); /* within one sigma: 68.27 % */
	double in = share_below(&g, n / 2 + n / 10) - share_below(&g, n / 2 - n / 10);
	assert_true(fabs(in - 0.6827) < 0.006);
}

static void test_zoned_shape(void **state)
{
	(void)state;
	struct randdist_gen g;
	gen("zoned:60/10:30/20:10/70", 1000, 4096, &g);
	assert_true(fabs(share_below(&g, 100) - 0.6) < 0.005);
	assert_true(fabs(share_below(&g, 300) - 0.9) < 0.005);
	/* 4 MiB of 4 KiB blocks: the first MiB (256 blocks) takes 60 % */
	gen("zoned_abs:60/1m:40/3m", 1024, 4096, &g);
	assert_true(fabs(share_below(&g, 256) - 0.6) < 0.005);
	/* zones larger than the file set cannot run */
	struct randdist d;
	char why[240];
	assert_int_equal(randdist_parse("zoned_abs:60/1m:40/8m", &d, why, sizeof(why)), 0);
	assert_int_equal(randdist_gen_init(&g, &d, 1024, 4096, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "more than the"));
	/* one block: every kind gives rank 0 */
	gen("zipf:1.2", 1, 4096, &g);
	assert_true(share_below(&g, 1) == 1.0);
	gen("normal:50", 1, 4096, &g);
	assert_true(share_below(&g, 1) == 1.0);
}

/* The one fit check of zoned_abs zones, which the
 * loader asks with the most a cell addresses and the runner before IO */
static void test_zones_fit(void **state)
{
	struct randdist d;
	char why[240] = "";
	(void)state;
	assert_int_equal(randdist_parse("zoned_abs:60/1m:40/2m", &d, why, sizeof(why)), 0);
	/* 3 MiB of zones: 768 blocks of 4 KiB fit, 767 do not */
	assert_int_equal(randdist_zones_fit(&d, 768, 4096, why, sizeof(why)), 0);
	assert_int_equal(randdist_zones_fit(&d, 767, 4096, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cover 3145728 bytes, more than the 3141632 addressed"));
	/* other kinds have no zone sizes */
	assert_int_equal(randdist_parse("zoned:60/10:40/90", &d, why, sizeof(why)), 0);
	assert_int_equal(randdist_zones_fit(&d, 1, 4096, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zones_fit),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_zipf_shape),
		cmocka_unit_test(test_pareto_normal_shape),
		cmocka_unit_test(test_zoned_shape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
