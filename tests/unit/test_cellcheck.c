/*
 * test_cellcheck.c - the one cell validator: every cell file committed
 * under results/ and tests/ passes it, and each kind of hostile number an
 * agent or a planted set can carry is refused with its reason (histogram
 * scheme "other", buckets whose total overflows, negative or 40-digit
 * IOPS, a summary of 1e308 or with its mean outside [min, max], latency
 * min above max).
 */
#include "testutil.h"

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "resultset/cellcheck.h"

static size_t nchecked;

static int check_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char why[512] = "";
	(void)st;
	(void)ftw;
	if (type != FTW_F || !strstr(path, "/cells/") || !strstr(path, ".json"))
		return 0;
	char *text = fsutil_read(path, 64u << 20, NULL);
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!j)
		return 0; /* not JSON: a reader test's damaged file */
	if (cellcheck_cell(j, why, sizeof(why)) < 0)
		fail_msg("%s: %s", path, why);
	cJSON_Delete(j);
	nchecked++;
	return 0;
}

static void test_committed_cells_pass(void **state)
{
	(void)state;
	nftw("results", check_one, 16, FTW_PHYS);
	nftw("tests", check_one, 16, FTW_PHYS);
	assert_true(nchecked > 20);
}

/* A measured cell of 2 repetitions, as the runner writes one. */
static const char good[] =
	"{\"schema_version\":1,\"id\":1,\"status\":\"ok\",\"error\":null,"
	"\"params\":{\"id\":1,\"pattern\":\"randread\",\"bs\":4096,\"bs_bytes\":4096},\"warnings\":[],"
	"\"repetitions\":["
	"{\"rep\":1,\"runtime_ns\":1000000000,\"cpu\":{\"usr_pct\":1.5,\"sys_pct\":3},"
	"\"read\":{\"ios\":100,\"bytes\":409600,\"iops\":100,\"bw_bytes_s\":409600,"
	"\"lat_ns\":{\"min\":1000,\"max\":5000,\"mean\":2000,\"stddev\":300,"
	"\"percentiles\":{\"50.000000\":2000,\"99.000000\":4900}},"
	"\"hist\":{\"scheme\":\"loglin64\",\"buckets\":[[1024,60],[2048,40]]},"
	"\"series\":{\"interval_ns\":1000000000,\"ios\":[100],\"bytes\":[409600],\"lat_mean_ns\":[2000]}}},"
	"{\"rep\":2,\"runtime_ns\":1000000000,"
	"\"read\":{\"ios\":120,\"bytes\":491520,\"iops\":120,\"bw_bytes_s\":491520}}],"
	"\"summary\":{\"read\":{\"iops\":{\"n\":2,\"mean\":110,\"stddev\":14.1,\"min\":100,\"max\":120,\"cv\":0.13}}}}";

/* good with one value replaced: JSON pointer-ish path of object keys and
 * array indices, then the new value as JSON. */
static int mutated(const char *const *path, size_t n, const char *value, char *why, size_t whylen)
{
	cJSON *j = cJSON_Parse(good), *o = j;
	for (size_t i = 0; i + 1 < n; i++)
		o = (path[i][0] >= '0' && path[i][0] <= '9') ?
			cJSON_GetArrayItem(o, atoi(path[i])) :
			cJSON_GetObjectItemCaseSensitive(o, path[i]);
	assert_non_null(o);
	cJSON *v = cJSON_Parse(value);
	assert_non_null(v);
	if (cJSON_GetObjectItemCaseSensitive(o, path[n - 1]))
		cJSON_ReplaceItemInObjectCaseSensitive(o, path[n - 1], v);
	else
		cJSON_AddItemToObject(o, path[n - 1], v);
	int r = cellcheck_cell(j, why, whylen);
	cJSON_Delete(j);
	return r;
}

#define P(...) (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)

/* good with path p (n long) set to v is refused, and why says says. */
struct bad {
	const char *const *p;
	size_t n;
	const char *v, *says;
};

static void refused(const struct bad *bad, size_t n)
{
	char why[512];
	for (size_t i = 0; i < n; i++) {
		why[0] = '\0';
		if (mutated(bad[i].p, bad[i].n, bad[i].v, why, sizeof(why)) == 0)
			fail_msg("case %zu (%s = %s) passed", i, bad[i].p[bad[i].n - 1], bad[i].v);
		if (!strstr(why, bad[i].says))
			fail_msg("case %zu: reason '%s' does not say '%s'", i, why, bad[i].says);
	}
}

static void test_hostile_numbers_refused(void **state)
{
	char why[512];
	(void)state;
	cJSON *j = cJSON_Parse(good);
	assert_int_equal(cellcheck_cell(j, why, sizeof(why)), 0);
	cJSON_Delete(j);
	struct bad bad[] = {
		{ P("repetitions", "0", "read", "hist", "scheme"), "\"other\"", "hist" },
		{ P("repetitions", "0", "read", "hist", "buckets"), "[[1024,1e19],[2048,1e19]]", "hist" },
		{ P("repetitions", "0", "read", "iops"), "-5", "iops is -5" },
		{ P("repetitions", "0", "read", "iops"), "1e40", "iops" },
		{ P("repetitions", "0", "read", "ios"), "1.5", "not a count" },
		{ P("repetitions", "0", "read", "ios"), "1e20", "ios" },
		{ P("summary", "read", "iops", "mean"), "1e308", "1e+308" },
		{ P("summary", "read", "iops", "max"), "1e13", "iops" },
		{ P("summary", "read", "iops", "mean"), "5", "out of order" },
		{ P("summary", "read", "iops", "min"), "-1", "iops" },
		{ P("repetitions", "0", "read", "lat_ns", "min"), "9000", "out of order" },
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"), "{\"150\":1}", "percentile" },
		{ P("repetitions", "0", "read", "series", "ios"), "[1,2]", "series" },
		{ P("repetitions", "0", "runtime_ns"), "-1", "runtime_ns" },
		{ P("repetitions", "0", "cpu", "usr_pct"), "-3", "usr_pct" },
		{ P("status"), "\"great\"", "status" },
		{ P("params", "bs"), "1e300", "finite number below 2^64" },
		{ P("repetitions"), "{}", "repetitions" },
		{ P("latency_kind"), "\"clat\"", "latency_kind" },
		{ P("latency_kind"), "1", "latency_kind" },
		{ P("repetitions", "0", "read", "lat_total_ns"), "{\"min\":9,\"max\":1,\"mean\":5}", "out of order" },
		{ P("repetitions", "0", "read", "lat_completion_ns"), "[]", "not an object" },
		/* Percentiles past [min, max], falling, or
		 * under keys that are no percentile */
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"),
		  "{\"1.000000\":1e12,\"99.000000\":4900}", "p1.000000 is 1000000000000 ns, above max 5000 ns" },
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"),
		  "{\"50.000000\":2000,\"99.000000\":60000}", "p99.000000 is 60000 ns, above max 5000 ns" },
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"),
		  "{\"50.000000\":4000,\"99.000000\":3000}", "fall as the percentile rises" },
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"), "{\"nan\":2000}", "'nan'" },
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"), "{\"-3\":2000}", "'-3'" },
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"), "{\"1e400\":2000}", "'1e400'" },
		{ P("repetitions", "0", "read", "lat_ns", "percentiles"), "{\"0x10\":2000}", "'0x10'" },
	};
	refused(bad, sizeof(bad) / sizeof(bad[0]));
}

/* A bucket's midpoint a little past the exact max (fio's own files hold
 * p99.99 = 5537792 beside max 5537294) stays in. */
static void test_percentile_within_bucket_slack(void **state)
{
	char why[512];
	(void)state;
	assert_int_equal(mutated(P("repetitions", "0", "read", "lat_ns", "percentiles"),
				 "{\"1.000000\":990,\"99.990000\":5100}", why, sizeof(why)), 0);
}

/* Below min: refused in a cell that says its latency_kind; a fio import
 * from before latency_kind held total-latency moments beside completion
 * percentiles, which lie below the total's min, and still reads. */
static void test_percentile_below_min(void **state)
{
	char why[512] = "";
	(void)state;
	cJSON *j = cJSON_Parse(good);
	cJSON *lat = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "repetitions"), 0),
		"read"), "lat_ns");
	cJSON_ReplaceItemInObjectCaseSensitive(lat, "min", cJSON_CreateNumber(100000));
	cJSON_ReplaceItemInObjectCaseSensitive(lat, "max", cJSON_CreateNumber(500000));
	cJSON_ReplaceItemInObjectCaseSensitive(lat, "mean", cJSON_CreateNumber(200000));
	assert_int_equal(cellcheck_cell(j, why, sizeof(why)), 0); /* no latency_kind */
	cJSON_AddStringToObject(j, "latency_kind", "completion");
	assert_int_equal(cellcheck_cell(j, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "p50.000000 is 2000 ns, below min 100000 ns"));
	cJSON_Delete(j);
}

/* One number at a time (what the archive's index holds of a set): the
 * cell's bounds, so -1e999, 1e300 counts and NaN never pass. */
static void test_value_bounds(void **state)
{
	char why[128];
	(void)state;
	assert_int_equal(cellcheck_value(CELLCHECK_IOPS, "iops", 1e12, why, sizeof(why)), 0);
	assert_int_equal(cellcheck_value(CELLCHECK_IOPS, "iops", 1.0000001e12, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "iops is 1e+12, not a number in [0, 1e+12]"));
	assert_int_equal(cellcheck_value(CELLCHECK_IOPS, "iops", -0.5, why, sizeof(why)), -1);
	assert_int_equal(cellcheck_value(CELLCHECK_BW, "bw", 1e18, why, sizeof(why)), 0);
	assert_int_equal(cellcheck_value(CELLCHECK_BW, "bw", 2e18, why, sizeof(why)), -1);
	assert_int_equal(cellcheck_value(CELLCHECK_LAT, "lat", 1.8e19, why, sizeof(why)), 0);
	assert_int_equal(cellcheck_value(CELLCHECK_LAT, "lat", 2e19, why, sizeof(why)), -1);
	assert_int_equal(cellcheck_value(CELLCHECK_COUNT, "n", 3, why, sizeof(why)), 0);
	assert_int_equal(cellcheck_value(CELLCHECK_COUNT, "n", 1.5, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a count"));
	assert_int_equal(cellcheck_value(CELLCHECK_COUNT, "n", 1e300, why, sizeof(why)), -1);
	assert_int_equal(cellcheck_value(CELLCHECK_FINITE, "scale", -1e10, why, sizeof(why)), 0);
	assert_int_equal(cellcheck_value(CELLCHECK_FINITE, "scale", -1e300, why, sizeof(why)), -1);
	assert_int_equal(cellcheck_value(CELLCHECK_FINITE, "scale", -INFINITY, why, sizeof(why)), -1);
	assert_int_equal(cellcheck_value(CELLCHECK_NONNEG, "x", NAN, why, sizeof(why)), -1);
	assert_int_equal(cellcheck_value(CELLCHECK_NONNEG, "x", -1e-300, why, sizeof(why)), -1);
}

/* The sums inside a cell agree (resultset/cellsums.h): a repetition that
 * claimed ios 1000000 beside a histogram of ~1,500 IOs read as ok. */
static void test_sums_disagree_refused(void **state)
{
	char why[512];
	(void)state;
	struct bad bad[] = {
		{ P("repetitions", "0", "read", "ios"), "1000000",
		  "repetition 1: read: the histogram holds 100 IOs, ios says 1000000" },
		{ P("repetitions", "0", "read", "series", "ios"), "[90]",
		  "repetition 1: read: the series' ios add up to 90, not to the ios 100" },
		{ P("repetitions", "0", "read", "series", "bytes"), "[4096]",
		  "the series' bytes add up to 4096, not to the bytes 409600" },
		{ P("params", "bs_bytes"), "8192", "repetition 1: read: bytes 409600 is not ios 100 x bs 8192" },
		{ P("repetitions", "1", "read", "bw_bytes_s"), "1",
		  "repetition 2: read: bw_bytes_s 1 is not iops 120 x bytes / ios (4096)" },
		{ P("summary", "read", "iops", "n"), "3", "summary: read: iops: n 3 and mean 110 are not those of the last 3 of the 2 repetitions" },
		{ P("summary", "read", "iops", "n"), "1", "n 1 and mean 110 are not those of the last 1 of the 2 repetitions (1 with it, mean 120)" },
		{ P("summary", "read", "iops", "mean"), "115", "mean 115 are not those of the last 2 of the 2 repetitions (2 with it, mean 110)" },
	};
	refused(bad, sizeof(bad) / sizeof(bad[0]));
	/* an aggregate's "all" cell is the ranks' window sum: no own sums */
	assert_int_equal(mutated(P("host"), "\"all\"", why, sizeof(why)), 0);
	cJSON *j = cJSON_Parse(good);
	cJSON_AddStringToObject(j, "host", "all");
	cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive(j, "repetitions"), 0), "read"), "ios",
		cJSON_CreateNumber(1000000));
	assert_int_equal(cellcheck_cell(j, why, sizeof(why)), 0);
	cJSON_Delete(j);
	/* a fio or sysbench import keeps its tool's rates and bytes (fio 2.x
	 * bandwidth in KiB/s, sysbench's rounded MiB/s) */
	j = cJSON_Parse(good);
	cJSON_AddItemToObject(j, "source", cJSON_CreateObject());
	cJSON_AddNumberToObject(cJSON_GetObjectItemCaseSensitive(j, "params"), "bs_bytes", 8192);
	assert_int_equal(cellcheck_cell(j, why, sizeof(why)), 0);
	cJSON_Delete(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_committed_cells_pass),
		cmocka_unit_test(test_hostile_numbers_refused),
		cmocka_unit_test(test_percentile_within_bucket_slack),
		cmocka_unit_test(test_percentile_below_min),
		cmocka_unit_test(test_value_bounds),
		cmocka_unit_test(test_sums_disagree_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
