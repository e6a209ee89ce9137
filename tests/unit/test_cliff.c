/*
 * test_cliff.c - stalls below 10 % of the median, the bandwidth series of
 * a recorded time series, and the cliff object a cell file stores (its
 * plateaus come from plateau.c, tested in test_plateau.c).
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>

#include "stats/cliff.h"
#include "resultset/resultset.h"

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
	const cJSON *pl = cJSON_GetObjectItem(j, "plateaus");
	assert_int_equal(cJSON_GetArraySize(pl), 2);
	assert_true(fabs(cJSON_GetObjectItem(cJSON_GetArrayItem(pl, 1), "bytes")->valuedouble -
			 12 * 200000) < 1);
	assert_null(cJSON_GetObjectItem(j, "why_not"));
	cJSON_Delete(j);
	/* the same drop in a 1 s run is no cliff, and the object says why */
	struct series q;
	series_init(&q, 100000000ull);
	for (unsigned i = 0; i < 10; i++)
		series_add_n(&q, i * 100000000ull + 1, 1, i < 4 ? 1000000 : 200000, 0);
	j = resultset_cliff_to_json(&q, 1000000000ull);
	assert_non_null(j);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(j, "found")));
	assert_string_equal(cJSON_GetObjectItem(j, "why_not")->valuestring,
			    "the run is too short to show a cliff");
	cJSON_Delete(j);
	series_release(&q);
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
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_series_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
