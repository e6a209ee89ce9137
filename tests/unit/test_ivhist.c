/*
 * test_ivhist.c - the per-interval histograms (stats/ivhist.h) and their
 * text in a cell file (resultset/histfile.h): intervals closed from a
 * running histogram add up to it exactly, merge interval by interval,
 * give each interval's percentiles, survive the skip-counts text, and the
 * reader refuses text that is malformed or disagrees with its series.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "resultset/cellcheck.h"
#include "resultset/histfile.h"

static uint64_t rs = 0x243f6a8885a308d3ull;

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* n intervals of random latencies, closed as the worker does; run gets
 * them all.  Interval 2 is left empty. */
static void fill(struct ivhist *s, struct lat_hist *run, size_t n)
{
	struct lat_hist *snap = calloc(1, sizeof(*snap));
	assert_non_null(snap);
	memset(run, 0, sizeof(*run));
	ivhist_init(s);
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; i != 2 && k < 500; k++)
			hist_add(run, 1000 + rnd() % (i + 1) * 100000 + rnd() % 5000);
		assert_int_equal(ivhist_close(s, snap, run), 0);
	}
	free(snap);
}

static void test_close_adds_up(void **state)
{
	(void)state;
	struct ivhist s;
	struct lat_hist *run = malloc(sizeof(*run)), *sum = malloc(sizeof(*sum));
	fill(&s, run, 6);
	assert_int_equal(s.n, 6);
	assert_int_equal(ivhist_count(&s, 2), 0);
	assert_int_equal(ivhist_count(&s, 0), 500);
	assert_int_equal(ivhist_sum(&s, sum), 0);
	assert_memory_equal(sum->count, run->count, sizeof(run->count));
	assert_int_equal(sum->total, 5 * 500);
	/* every interval's percentiles are those of its own histogram */
	for (size_t i = 0; i < s.n; i++) {
		struct lat_hist one;
		ivhist_interval(&s, i, &one);
		for (double p = 1; p <= 100; p += 7.3)
			assert_int_equal(ivhist_percentile(&s, i, p), hist_percentile(&one, p));
	}
	ivhist_truncate(&s, 3);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.npairs, s.off[3]);
	ivhist_release(&s);
	free(run);
	free(sum);
}

static void test_merge_interval_by_interval(void **state)
{
	(void)state;
	struct ivhist a, b;
	struct lat_hist *ra = malloc(sizeof(*ra)), *rb = malloc(sizeof(*rb));
	struct lat_hist *sum = malloc(sizeof(*sum));
	fill(&a, ra, 5);
	fill(&b, rb, 8);
	struct ivhist want;
	ivhist_init(&want);
	assert_int_equal(ivhist_copy(&want, &a), 0);
	assert_int_equal(ivhist_merge(&a, &b), 0);
	assert_int_equal(a.n, 8);
	for (size_t i = 0; i < 8; i++) {
		struct lat_hist x, y, z;
		ivhist_interval(&a, i, &x);
		ivhist_interval(&want, i, &y);
		ivhist_interval(&b, i, &z);
		for (unsigned k = 0; k < HIST_BUCKETS; k++)
			assert_int_equal(x.count[k], y.count[k] + z.count[k]);
	}
	hist_merge(ra, rb);
	assert_int_equal(ivhist_sum(&a, sum), 0);
	assert_memory_equal(sum->count, ra->count, sizeof(ra->count));
	char why[200];
	assert_int_equal(histfile_check_sum(&a, ra, why, sizeof(why)), 0);
	ra->count[hist_index(1500)]++;
	assert_int_equal(histfile_check_sum(&a, ra, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "1488-1503 ns"));
	ivhist_release(&a);
	ivhist_release(&b);
	ivhist_release(&want);
	free(ra);
	free(rb);
	free(sum);
}

/* Jobs as threads add their intervals to one accumulator as they close
 * them, each at its own pace: the result is the merge of their own. */
static void test_acc_equals_merge(void **state)
{
	(void)state;
	struct ivhist own[3], want, got;
	struct lat_hist *run = malloc(sizeof(*run)), *snap = calloc(1, sizeof(*snap));
	uint16_t idx[HIST_BUCKETS];
	uint64_t cnt[HIST_BUCKETS];
	struct ivacc a;
	assert_int_equal(ivacc_init(&a, 3), 0);
	ivhist_init(&want);
	ivhist_init(&got);
	for (int j = 0; j < 3; j++)
		fill(&own[j], run, (size_t)(4 + j)); /* 4, 5 and 6 intervals */
	/* adder 2 runs ahead, adder 0 lags: interval by interval in turn */
	for (size_t i = 0; i < 6; i++)
		for (int j = 2; j >= 0; j--) {
			if (i >= own[j].n)
				continue;
			size_t k = 0;
			for (size_t q = own[j].off[i]; q < own[j].off[i + 1]; q++, k++) {
				idx[k] = own[j].idx[q];
				cnt[k] = own[j].cnt[q];
			}
			size_t next = i + 1 < own[j].n ? i + 1 : SIZE_MAX;
			assert_int_equal(ivacc_add(&a, (unsigned)j, i, next, idx, cnt, k), 0);
		}
	for (int j = 0; j < 3; j++)
		assert_int_equal(ivhist_merge(&want, &own[j]), 0);
	assert_int_equal(ivacc_take(&a, 6, &got), 0);
	assert_int_equal(got.n, 6);
	assert_int_equal(got.npairs, want.npairs);
	assert_memory_equal(got.off, want.off, 7 * sizeof(*got.off));
	assert_memory_equal(got.idx, want.idx, want.npairs * sizeof(*got.idx));
	assert_memory_equal(got.cnt, want.cnt, want.npairs * sizeof(*got.cnt));
	for (int j = 0; j < 3; j++)
		ivhist_release(&own[j]);
	ivhist_release(&want);
	ivhist_release(&got);
	free(run);
	free(snap);
}

/* A series object with ios and the intervals' text. */
static cJSON *series_obj(const struct ivhist *s)
{
	cJSON *o = cJSON_CreateObject(), *ios = cJSON_AddArrayToObject(o, "ios");
	for (size_t i = 0; i < s->n; i++)
		cJSON_AddItemToArray(ios, cJSON_CreateNumber((double)ivhist_count(s, i)));
	cJSON_AddItemToObject(o, "hist", histfile_to_json(s));
	return o;
}

static void test_text_round_trip(void **state)
{
	(void)state;
	struct ivhist s, back;
	struct lat_hist *run = malloc(sizeof(*run));
	char why[200], buf[64];
	fill(&s, run, 7);
	/* the largest count and the last bucket */
	uint16_t idx[2] = { 0, HIST_BUCKETS - 1 };
	uint64_t cnt[2] = { 18446744073709551614ull, 1 };
	assert_int_equal(ivhist_push(&s, idx, cnt, 2), 0);
	cJSON *o = series_obj(&s);
	ivhist_init(&back);
	assert_int_equal(histfile_read(o, &back, why, sizeof(why)), 0);
	assert_int_equal(back.n, s.n);
	assert_int_equal(back.npairs, s.npairs);
	assert_memory_equal(back.off, s.off, (s.n + 1) * sizeof(*s.off));
	assert_memory_equal(back.idx, s.idx, s.npairs * sizeof(*s.idx));
	assert_memory_equal(back.cnt, s.cnt, s.npairs * sizeof(*s.cnt));
	/* the empty interval is "", the text as documented */
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "hist"),
				"intervals"), 2)->valuestring, "");
	assert_int_equal(histfile_encode(&s, 7, buf, sizeof(buf)), 28);
	assert_string_equal(buf, "18446744073709551614 -2238 1");
	cJSON_Delete(o);
	ivhist_release(&s);
	ivhist_release(&back);
	free(run);
}

/* One interval's text with its ios: histfile_read's verdict. */
static int read_one(const char *text, double ios, char *why, size_t whylen)
{
	cJSON *o = cJSON_CreateObject(), *h = cJSON_AddObjectToObject(o, "hist");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(o, "ios"), cJSON_CreateNumber(ios));
	cJSON_AddStringToObject(h, "scheme", "loglin64");
	cJSON_AddStringToObject(h, "encoding", "skip-counts");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(h, "intervals"), cJSON_CreateString(text));
	struct ivhist s;
	ivhist_init(&s);
	int rc = histfile_read(o, &s, why, whylen);
	if (rc == 0) {
		assert_int_equal(s.n, 1);
		assert_int_equal(ivhist_count(&s, 0), (uint64_t)ios);
	}
	ivhist_release(&s);
	cJSON_Delete(o);
	return rc;
}

static void test_text_refused(void **state)
{
	(void)state;
	char why[200];
	assert_int_equal(read_one("-100 3 4 -2 1", 8, why, sizeof(why)), 0);
	assert_int_equal(read_one("", 0, why, sizeof(why)), 0);
	/* the counts must be the series' ios of that interval */
	assert_int_equal(read_one("-100 3 4", 8, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "holds 7 IOs, the series' ios 8"));
	static const char *const bad[] = {
		"0", "3 0", "-0 3", "-100", "3 -2", "3  4", " 3", "3 ", "-2 -3 1", "3x",
		"+3", "-2240 1", "-2239 1 1", "99999999999999999999",
		"18446744073709551615 1", "-1e3 1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		if (read_one(bad[i], 1, why, sizeof(why)) != -1)
			fail_msg("'%s' was read", bad[i]);
		assert_true(why[0]);
	}
	/* absent: an older set, read as today */
	cJSON *o = cJSON_CreateObject();
	struct ivhist s;
	ivhist_init(&s);
	assert_int_equal(histfile_read(o, &s, why, sizeof(why)), 0);
	assert_int_equal(s.n, 0);
	cJSON_AddItemToObject(o, "hist", cJSON_CreateObject());
	assert_int_equal(histfile_read(o, &s, why, sizeof(why)), -1);
	cJSON_Delete(o);
}

/* The validator of every cell from outside (an agent's, an import's)
 * holds series.hist to the direction's hist, as the set reader does. */
static void test_cell_validators(void **state)
{
	(void)state;
	const char *good = "{\"id\": 1, \"status\": \"ok\", \"params\": {}, \"repetitions\": [{\"rep\": 1,"
		" \"runtime_ns\": 2000000000, \"read\": {\"ios\": 5, \"bytes\": 20480,"
		" \"hist\": {\"scheme\": \"loglin64\", \"buckets\": [[1024, 2], [1040, 3]]},"
		" \"series\": {\"interval_ns\": 1000000000, \"ios\": [2, 3], \"bytes\": [8192, 12288],"
		" \"lat_mean_ns\": [1024, 1040], \"hist\": {\"scheme\": \"loglin64\","
		" \"encoding\": \"skip-counts\", \"intervals\": [\"-%d 2\", \"-%d 3\"]}}}}]}";
	char text[1024], why[256];
	unsigned b = hist_index(1024);
	snprintf(text, sizeof(text), good, b, b + 1);
	cJSON *c = cJSON_Parse(text);
	assert_non_null(c);
	assert_int_equal(histfile_check_cell(c, why, sizeof(why)), 0);
	assert_int_equal(cellcheck_cell(c, why, sizeof(why)), 0);
	cJSON_Delete(c);
	/* the second interval's 3 IOs in 1024's bucket: each interval still
	 * adds up to its ios, the buckets do not */
	snprintf(text, sizeof(text), good, b, b);
	c = cJSON_Parse(text);
	assert_int_equal(histfile_check_cell(c, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "repetition 1: read: the intervals' histograms (series.hist) hold 5 IOs of 1024-1039 ns, the repetition's histogram (hist) 2"));
	assert_int_equal(cellcheck_cell(c, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "series.hist"));
	cJSON_Delete(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_adds_up),
		cmocka_unit_test(test_merge_interval_by_interval),
		cmocka_unit_test(test_acc_equals_merge),
		cmocka_unit_test(test_text_round_trip),
		cmocka_unit_test(test_text_refused),
		cmocka_unit_test(test_cell_validators),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
