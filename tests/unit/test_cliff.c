/*
 * test_cliff.c - the two-segment change-point fit on synthetic bandwidth
 * series: a clean cliff, no cliff, noise only, a cliff in the last samples
 * (not reported), a ramp, and stalls below 10 % of the median.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>

#include "common/cliff.h"
#include "resultset/resultset.h"

/* Deterministic noise in [-1, 1). */
static double noise(unsigned i)
{
	uint64_t z = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z ^= z >> 31;
	return (double)(z >> 11) / 4503599627370496.0 - 1.0;
}

/* 3000 MB/s for 14 samples then 600 MB/s, with 3 % noise. */
static void test_clean_cliff(void **state)
{
	(void)state;
	double x[40];
	for (unsigned i = 0; i < 40; i++)
		x[i] = (i < 14 ? 3000 : 600) * (1 + 0.03 * noise(i));
	struct cliff c;
	cliff_fit(x, 40, &c);
	assert_true(c.found);
	assert_int_equal(c.brk, 14);
	assert_true(fabs(c.mean1 - 3000) < 60);
	assert_true(fabs(c.mean2 - 600) < 12);
	assert_true(c.drop > 0.75 && c.drop < 0.85);
}

/* A flat series: the best break exists but the levels barely differ. */
static void test_no_cliff(void **state)
{
	(void)state;
	double x[30];
	for (unsigned i = 0; i < 30; i++)
		x[i] = 500;
	struct cliff c;
	cliff_fit(x, 30, &c);
	assert_true(c.fitted);
	assert_false(c.found);
	assert_true(fabs(c.drop) < 1e-12);
}

/* Heavy noise (+-25 %) around one level: no two levels 30 % apart. */
static void test_noise_only(void **state)
{
	(void)state;
	double x[200];
	for (unsigned i = 0; i < 200; i++)
		x[i] = 1000 * (1 + 0.25 * noise(i));
	struct cliff c;
	cliff_fit(x, 200, &c);
	assert_true(c.fitted);
	assert_false(c.found);
	assert_true(c.drop < 0.30);
}

/* The drop comes in the last one or two samples: the fit puts the break
 * there and it is not reported (the second segment has < 3 samples);
 * with three low samples at the end it is (both segments hold 3). */
static void test_cliff_in_last_samples(void **state)
{
	(void)state;
	for (unsigned low = 1; low <= 3; low++) {
		double x[20];
		for (unsigned i = 0; i < 20; i++)
			x[i] = i < 20 - low ? 1000 : 100;
		struct cliff c;
		cliff_fit(x, 20, &c);
		assert_int_equal(c.brk, 20 - low);
		if (low < 3)
			assert_false(c.found);
		else
			assert_true(c.found);
	}
	/* and at the start: a slow first two samples is no cliff either */
	double y[20];
	for (unsigned i = 0; i < 20; i++)
		y[i] = i < 2 ? 3000 : 1000;
	struct cliff c;
	cliff_fit(y, 20, &c);
	assert_int_equal(c.brk, 2);
	assert_false(c.found);
}

/* A rise (write cache warming) is a change but not a cliff. */
static void test_rise_is_no_cliff(void **state)
{
	(void)state;
	double x[20];
	for (unsigned i = 0; i < 20; i++)
		x[i] = i < 10 ? 100 : 1000;
	struct cliff c;
	cliff_fit(x, 20, &c);
	assert_int_equal(c.brk, 10);
	assert_false(c.found);
	assert_true(c.drop < 0);
}

/* The fit agrees with brute force over every break point. */
static void test_matches_brute_force(void **state)
{
	(void)state;
	double x[57];
	for (unsigned i = 0; i < 57; i++)
		x[i] = (i < 23 ? 800 : i < 40 ? 500 : 300) + 50 * noise(i);
	struct cliff c;
	cliff_fit(x, 57, &c);
	double best = INFINITY;
	size_t bk = 0;
	for (size_t k = 1; k < 57; k++) {
		double m1 = 0, m2 = 0, sse = 0;
		for (size_t i = 0; i < k; i++)
			m1 += x[i];
		for (size_t i = k; i < 57; i++)
			m2 += x[i];
		m1 /= (double)k;
		m2 /= (double)(57 - k);
		for (size_t i = 0; i < 57; i++) {
			double d = x[i] - (i < k ? m1 : m2);
			sse += d * d;
		}
		if (sse < best) {
			best = sse;
			bk = k;
		}
	}
	assert_int_equal(c.brk, bk);
	assert_true(fabs(c.sse - best) < 1e-6 * best);
}

static void test_short_series(void **state)
{
	(void)state;
	double x[1] = { 5 };
	struct cliff c;
	cliff_fit(x, 0, &c);
	assert_false(c.fitted);
	cliff_fit(x, 1, &c);
	assert_false(c.fitted);
	assert_false(c.found);
}

static void test_stalls(void **state)
{
	(void)state;
	double x[] = { 1000, 990, 0, 1010, 50, 1000, 120, 1005 };
	size_t idx[4];
	long n = cliff_stalls(x, 8, idx, 4);
	assert_int_equal(n, 2);      /* median 995: below 99.5 */
	assert_int_equal(idx[0], 2);
	assert_int_equal(idx[1], 4);
	double med;
	assert_int_equal(cliff_median(x, 8, &med), 0);
	assert_true(fabs(med - 995) < 1e-9);
	assert_int_equal(cliff_stalls(x, 8, idx, 1), 2); /* count past max */
}

/* From a recorded series: levels in bytes/s, the partial last interval
 * scaled or dropped, the break in time and bytes. */
static void test_series_json(void **state)
{
	(void)state;
	struct series s;
	series_init(&s, 100000000ull); /* 100 ms */
	for (unsigned i = 0; i < 20; i++) /* 1 MB per interval, then 0.2 MB */
		series_add_n(&s, i * 100000000ull + 1, 1, i < 8 ? 1000000 : 200000, 0);
	series_add_n(&s, 20 * 100000000ull + 1, 1, 1000, 0); /* 10 ms tail */
	cJSON *j = resultset_cliff_to_json(&s, 2010000000ull);
	assert_non_null(j);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "found")));
	assert_int_equal(cJSON_GetObjectItem(j, "samples")->valueint, 20);
	assert_int_equal(cJSON_GetObjectItem(j, "break_index")->valueint, 8);
	assert_true(fabs(cJSON_GetObjectItem(j, "break_ns")->valuedouble - 8e8) < 1);
	assert_true(fabs(cJSON_GetObjectItem(j, "before_bytes")->valuedouble - 8e6) < 1);
	assert_true(fabs(cJSON_GetObjectItem(j, "level1_bw_bytes_s")->valuedouble - 1e7) < 1);
	assert_true(fabs(cJSON_GetObjectItem(j, "level2_bw_bytes_s")->valuedouble - 2e6) < 1);
	assert_true(fabs(cJSON_GetObjectItem(j, "drop_pct")->valuedouble - 80) < 1e-6);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "stalls")), 0);
	cJSON_Delete(j);
	/* a 60 ms tail counts, scaled to its length */
	double *bw;
	long n = cliff_bw_series(&s, 2060000000ull, &bw);
	assert_int_equal(n, 21);
	assert_true(fabs(bw[20] - 1000 / 0.06) < 1e-6);
	free(bw);
	series_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_cliff),
		cmocka_unit_test(test_no_cliff),
		cmocka_unit_test(test_noise_only),
		cmocka_unit_test(test_cliff_in_last_samples),
		cmocka_unit_test(test_rise_is_no_cliff),
		cmocka_unit_test(test_matches_brute_force),
		cmocka_unit_test(test_short_series),
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_series_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
