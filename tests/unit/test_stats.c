/*
 * test_stats.c - the histogram agrees with sorting, merges exactly, Welford
 * agrees with the two-pass formula, summaries match hand-computed values and
 * histograms survive a JSON round trip.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "resultset/resultset.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rng_unit(void) /* (0, 1) */
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

enum dist { D_UNIFORM, D_EXP, D_LOGNORMAL, D_BIMODAL, D_SMALL };

static uint64_t sample(enum dist d)
{
	switch (d) {
	case D_UNIFORM:
		return 1000 + rng_next() % 9000000;
	case D_EXP:
		return (uint64_t)(-log(rng_unit()) * 150000.0) + 1;
	case D_LOGNORMAL: {
		double z = sqrt(-2 * log(rng_unit())) * cos(6.283185307179586 * rng_unit());
		return (uint64_t)exp(11.0 + 1.5 * z);
	}
	case D_BIMODAL:
		return rng_next() % 10 < 9 ? 80000 + rng_next() % 20000
					   : 8000000 + rng_next() % 4000000;
	case D_SMALL:
		return rng_next() % 500;
	}
	return 0;
}

/* Percentiles at fio's list are within 1 % of the exact order statistic. */
static void check_dist(enum dist d)
{
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));
	struct lat_hist *h = calloc(1, sizeof(*h));
	assert_non_null(v);
	assert_non_null(h);
	for (size_t i = 0; i < n; i++) {
		v[i] = sample(d);
		hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < stats_fio_npercentiles; i++) {
		double p = stats_fio_percentiles[i];
		size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);
		double exact = (double)v[rank - 1];
		double got = (double)hist_percentile(h, p);
		double tol = exact * 0.01 + 0.5;
		if (fabs(got - exact) > tol)
			fail_msg("dist %d p%.2f: hist %.0f exact %.0f", d, p, got, exact);
	}
	assert_int_equal(hist_percentile(h, 100), hist_bucket_mid(hist_index(v[n - 1])));
	free(v);
	free(h);
}

static void test_percentiles_uniform(void **s) { (void)s; check_dist(D_UNIFORM); }
static void test_percentiles_exponential(void **s) { (void)s; check_dist(D_EXP); }
static void test_percentiles_lognormal(void **s) { (void)s; check_dist(D_LOGNORMAL); }
static void test_percentiles_bimodal(void **s) { (void)s; check_dist(D_BIMODAL); }
static void test_percentiles_small_exact(void **s) { (void)s; check_dist(D_SMALL); }

static void test_bucket_bounds(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 64; v++)
		assert_int_equal(hist_index(v), v);
	assert_int_equal(hist_index(64), 64);
	assert_int_equal(hist_index(127), 127);
	assert_int_equal(hist_index(128), 128);
	assert_int_equal(hist_index(129), 128);
	/* every bucket: low and high map back to it, error at mid <= 1/128 */
	for (unsigned i = 0; i < HIST_BUCKETS - 1; i++) {
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(hi), i);
		assert_int_equal(hist_index(hi + 1), i + 1);
		uint64_t mid = hist_bucket_mid(i);
		assert_true(mid >= lo && mid <= hi);
		assert_true((double)(hi - mid) <= (double)lo / 128.0 + 0.5);
	}
	/* at least 17 s, and huge values land in the last bucket */
	assert_true(hist_bucket_low(HIST_BUCKETS - 1) > 17000000000ull);
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
}

static void test_percentile_rank(void **state)
{
	struct lat_hist *h = calloc(1, sizeof(*h));
	(void)state;
	assert_non_null(h);
	assert_int_equal(hist_percentile(h, 50), 0);
	/* 10000 samples: 9999 of 10 ns, one of 50 ns: p99.99 is rank 9999 */
	hist_add_n(h, 10, 9999);
	hist_add(h, 50);
	assert_int_equal(hist_percentile(h, 99.99), 10);
	assert_int_equal(hist_percentile(h, 100), 50);
	assert_int_equal(hist_percentile(h, 1), 10);
	free(h);
}

static void test_merge_exact(void **state)
{
	struct lat_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct lat_hist *all = calloc(1, sizeof(*all));
	struct welford wa, wb, wall;
	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(all);
	welford_init(&wa);
	welford_init(&wb);
	welford_init(&wall);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = sample(i % 3 ? D_LOGNORMAL : D_BIMODAL);
		hist_add(i % 2 ? a : b, v);
		welford_add(i % 2 ? &wa : &wb, (double)v);
		hist_add(all, v);
		welford_add(&wall, (double)v);
	}
	hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	welford_merge(&wa, &wb);
	assert_int_equal(wa.n, wall.n);
	assert_int_equal(wa.min, wall.min);
	assert_int_equal(wa.max, wall.max);
	assert_true(fabs(wa.mean - wall.mean) <= 1e-9 * wall.mean);
	assert_true(fabs(welford_stddev(&wa) - welford_stddev(&wall)) <=
		    1e-9 * welford_stddev(&wall));
	free(a);
	free(b);
	free(all);
}

static void test_welford_two_pass(void **state)
{
	enum { N = 50000 };
	static double x[N];
	struct welford w;
	double sum = 0, ss = 0;
	(void)state;
	welford_init(&w);
	for (int i = 0; i < N; i++) {
		/* large offset, small spread: naive sum-of-squares would fail */
		x[i] = 1e9 + (double)(rng_next() % 1000);
		welford_add(&w, x[i]);
		sum += x[i];
	}
	double mean = sum / N;
	for (int i = 0; i < N; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double sd = sqrt(ss / (N - 1));
	assert_true(fabs(w.mean - mean) < 1e-12 * mean);
	assert_true(fabs(welford_stddev(&w) - sd) < 1e-6 * sd);
	struct welford e;
	welford_init(&e);
	assert_true(welford_stddev(&e) == 0);
	welford_merge(&e, &w);
	assert_int_equal(e.n, N);
}

static void test_summary_hand_values(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5 };
	struct summary s;
	(void)state;
	summary_compute(x, 5, &s);
	assert_int_equal(s.n, 5);
	assert_true(fabs(s.mean - 3) < 1e-12);
	assert_true(fabs(s.stddev - sqrt(2.5)) < 1e-12);
	assert_true(fabs(s.min - 1) < 1e-12 && fabs(s.max - 5) < 1e-12);
	assert_true(fabs(s.cv - sqrt(2.5) / 3) < 1e-12);
	/* t(4) = 2.7764: 2.7764 * 1.58114 / 2.23607 = 1.96324 */
	assert_true(fabs(s.ci95 - 1.96324) < 1e-4);

	const double one[] = { 42 };
	summary_compute(one, 1, &s);
	assert_true(s.mean == 42 && s.stddev == 0 && s.cv == 0 && s.ci95 == 0);

	assert_true(fabs(student_t95(1) - 12.7062) < 1e-4);
	assert_true(fabs(student_t95(30) - 2.0423) < 1e-4);
	assert_true(fabs(student_t95(31) - 2.0395) < 1e-3);
	assert_true(fabs(student_t95(120) - 1.9799) < 1e-3);
	assert_true(fabs(student_t95(1000000) - 1.96) < 1e-3);
}

static void test_hist_json_round_trip(void **state)
{
	struct lat_hist *h = calloc(1, sizeof(*h)), *g = calloc(1, sizeof(*g));
	(void)state;
	assert_non_null(h);
	assert_non_null(g);
	for (int i = 0; i < 10000; i++)
		hist_add(h, sample(D_LOGNORMAL));
	hist_add(h, 3);
	hist_add(h, UINT64_MAX);
	cJSON *j = hist_to_json(h);
	assert_non_null(j);
	char *txt = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	cJSON *back = cJSON_Parse(txt);
	free(txt);
	assert_non_null(back);
	assert_int_equal(hist_from_json(back, g), 0);
	assert_memory_equal(h, g, sizeof(*h));
	cJSON_Delete(back);

	/* a low value that is not a bucket boundary is refused */
	cJSON *bad = cJSON_Parse("[[129, 1]]");
	assert_int_equal(hist_from_json(bad, g), -1);
	cJSON_Delete(bad);
	bad = cJSON_Parse("{\"scheme\":\"loglin64\",\"buckets\":[[128,2],[5,1]]}");
	assert_int_equal(hist_from_json(bad, g), 0);
	assert_int_equal(g->total, 3);
	cJSON_Delete(bad);
	free(h);
	free(g);
}

static void test_lat_json_keys(void **state)
{
	struct lat_hist *h = calloc(1, sizeof(*h));
	struct welford w;
	(void)state;
	assert_non_null(h);
	welford_init(&w);
	for (uint64_t v = 1000; v <= 100000; v += 1000) {
		hist_add(h, v);
		welford_add(&w, (double)v);
	}
	/* a measured direction, through the one result-set writer */
	struct rep_result r;
	memset(&r, 0, sizeof(r));
	r.dir[DIR_READ].present = true;
	r.dir[DIR_READ].known = REP_EXACT;
	r.dir[DIR_READ].lat = w;
	r.dir[DIR_READ].hist = h;
	cJSON *rj = resultset_rep_to_json(&r, 1);
	assert_non_null(rj);
	cJSON *j = cJSON_DetachItemFromObject(cJSON_GetObjectItem(rj, "read"), "lat_ns");
	cJSON_Delete(rj);
	assert_non_null(j);
	assert_int_equal(cJSON_GetObjectItem(j, "min")->valuedouble, 1000);
	assert_int_equal(cJSON_GetObjectItem(j, "max")->valuedouble, 100000);
	const cJSON *p = cJSON_GetObjectItem(j, "percentiles");
	assert_int_equal(cJSON_GetArraySize(p), 17);
	assert_non_null(cJSON_GetObjectItem(p, "1.000000"));
	assert_non_null(cJSON_GetObjectItem(p, "99.500000"));
	const cJSON *p9999 = cJSON_GetObjectItem(p, "99.990000");
	assert_non_null(p9999);
	assert_true(fabs(p9999->valuedouble - 100000) <= 1000);
	cJSON_Delete(j);
	free(h);
}

static void test_series(void **state)
{
	struct series a, b;
	(void)state;
	series_init(&a, 1000);
	series_init(&b, 1000);
	assert_int_equal(series_add(&a, 10, 4096, 100), 0);
	assert_int_equal(series_add(&a, 999, 4096, 300), 0);
	assert_int_equal(series_add_n(&a, 5500, 3, 3 * 4096, 900), 0);
	assert_int_equal(a.n, 6);
	assert_int_equal(a.ios[0], 2);
	assert_int_equal(a.lat_sum_ns[0], 400);
	assert_int_equal(a.ios[3], 0);
	assert_int_equal(a.ios[5], 3);
	assert_int_equal(series_add(&b, 1500, 512, 7), 0);
	assert_int_equal(series_merge(&b, &a), 0);
	assert_int_equal(b.n, 6);
	assert_int_equal(b.ios[1], 1);
	assert_int_equal(b.ios[5], 3);
	assert_int_equal(b.bytes[0], 8192);
	series_release(&a);
	series_release(&b);
}

static void test_hist_json_total_overflow(void **state)
{
	(void)state;
	struct lat_hist *h = calloc(1, sizeof(*h));
	/* two buckets of 2^63 each: the total would wrap to 0 */
	cJSON *j = cJSON_Parse("[[1000, 9223372036854775808], [2000, 9223372036854775808]]");
	assert_non_null(h);
	assert_non_null(j);
	assert_int_equal(hist_from_json(j, h), -1);
	assert_true(h->total == 0);
	cJSON_Delete(j);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_percentile_rank),
		cmocka_unit_test(test_percentiles_uniform),
		cmocka_unit_test(test_percentiles_exponential),
		cmocka_unit_test(test_percentiles_lognormal),
		cmocka_unit_test(test_percentiles_bimodal),
		cmocka_unit_test(test_percentiles_small_exact),
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_welford_two_pass),
		cmocka_unit_test(test_summary_hand_values),
		cmocka_unit_test(test_hist_json_round_trip),
		cmocka_unit_test(test_lat_json_keys),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_hist_json_total_overflow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
