/*
 * test_report_format.c - number formatting of report tables: three
 * significant figures with thousands separators, latency units per table,
 * ratios and confidence intervals; and the bounded JSON reader.
 */
#include "testutil.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <string.h>

#include "report/model/report.h"
#include "resultset/jsonread.h"
#include "resultset/rset.h"

static void check_sig3(double v, const char *want)
{
	char buf[64];
	fmt_sig3(v, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_sig3_thousands_separators(void **state)
{
	(void)state;
	check_sig3(48190, "48,200");
	check_sig3(1234567, "1,230,000");
	check_sig3(999.6, "1,000");
	check_sig3(1000, "1,000");
	check_sig3(-25267, "-25,300");
}

static void test_sig3_small_values(void **state)
{
	(void)state;
	check_sig3(188.24, "188");
	check_sig3(12.887, "12.9");
	check_sig3(1.8113, "1.81");
	check_sig3(0.59, "0.590");
	check_sig3(0.499, "0.499");
	check_sig3(0.012345, "0.0123");
	check_sig3(0, "0");
}

static void check_iops(double v, const char *want)
{
	char buf[64];
	fmt_iops(v, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* a sentence's IOPS: "75", not "75.0" */
static void test_iops_whole_from_ten(void **state)
{
	(void)state;
	check_iops(75.0, "75");
	check_iops(75.4, "75");
	check_iops(10.0, "10");
	check_iops(99.9, "100");
	check_iops(240, "240");
	check_iops(15624.7, "15,600");
	check_iops(2.5, "2.50");
	check_iops(0.25, "0.250");
}

static void test_latency_unit_per_table(void **state)
{
	(void)state;
	double div;
	double a[] = { 590e3, 348e6 };            /* seed 003: 0.59 ms and 348 ms */
	assert_string_equal(fmt_lat_unit(a, 2, &div), "ms");
	assert_true(div == 1e6);
	double b[] = { 120e3, 4.4e6 };            /* seed 000: 120 us and 4.4 ms */
	assert_string_equal(fmt_lat_unit(b, 2, &div), "µs");
	assert_true(div == 1e3);
	double c[] = { 2e6, 3e6 };
	assert_string_equal(fmt_lat_unit(c, 2, &div), "ms");
	/* tmpfs next to a disk: 2.73 us and 612 us read better than 0.00273 ms */
	double d[] = { 612e3, 11.3e6, 2.73e3, 1.18e3 };
	assert_string_equal(fmt_lat_unit(d, 4, &div), "µs");
}

static void test_ratio(void **state)
{
	(void)state;
	char buf[32];
	fmt_ratio(219.4, buf, sizeof(buf));
	assert_string_equal(buf, "219x");
	fmt_ratio(1.0234, buf, sizeof(buf));
	assert_string_equal(buf, "1.02x");
	fmt_ratio(32.04, buf, sizeof(buf));
	assert_string_equal(buf, "32.0x");
	fmt_ratio(0, buf, sizeof(buf));
	assert_string_equal(buf, "–");
}

static void test_stat_ci_only_when_repeated(void **state)
{
	(void)state;
	char buf[64];
	fmt_stat(48190, 482, 3, 1, buf, sizeof(buf));
	assert_string_equal(buf, "48,200 ± 1.0 %");
	fmt_stat(48190, 0, 1, 1, buf, sizeof(buf));
	assert_string_equal(buf, "48,200");
	fmt_stat(5.9e5, 0, 1, 1e6, buf, sizeof(buf));
	assert_string_equal(buf, "0.590");
}

static void test_block_size(void **state)
{
	(void)state;
	char buf[32];
	fmt_bs(4096, buf, sizeof(buf));
	assert_string_equal(buf, "4K");
	fmt_bs(1 << 20, buf, sizeof(buf));
	assert_string_equal(buf, "1M");
	fmt_bs(1536, buf, sizeof(buf));
	assert_string_equal(buf, "1536");
}

static void test_json_depth_bounded(void **state)
{
	(void)state;
	char why[128];
	size_t n = 200;
	char *deep = malloc(2 * n + 1);
	assert_non_null(deep);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = '\0';
	assert_null(rset_parse_json(deep, 2 * n, why, sizeof(why)));
	assert_non_null(strstr(why, "nested deeper"));
	free(deep);
}

static void test_json_truncation_said(void **state)
{
	(void)state;
	char why[128];
	const char *t = "{\"a\": [1, 2, {\"b\": \"x";
	assert_null(rset_parse_json(t, strlen(t), why, sizeof(why)));
	assert_non_null(strstr(why, "truncated"));
	const char *c = "{\"a\": ]}";
	assert_null(rset_parse_json(c, strlen(c), why, sizeof(why)));
	assert_non_null(strstr(why, "corrupt JSON at byte"));
	cJSON *ok = rset_parse_json("{\"a\": 1}\n", 9, why, sizeof(why));
	assert_non_null(ok);
	cJSON_Delete(ok);
}

/* exactly len bytes are read: a value that ends at the last byte before
 * a page that cannot be read (cJSON is not built with the sanitizers, so
 * the guard page is what catches a read past it), and trailing bytes other
 * than white space are refused */
static void test_json_reads_only_len(void **state)
{
	(void)state;
	char why[128];
	long pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(mprotect(map + pg, (size_t)pg, PROT_NONE), 0);
	static const char *const texts[] = { "{\"a\": 12}", "{\"a\": 12} \t\n", "42", "[1,2]" };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t len = strlen(texts[i]);
		char *b = map + pg - len;   /* its last byte is the page's */
		memcpy(b, texts[i], len);
		cJSON *j = rset_parse_json(b, len, why, sizeof(why));
		assert_non_null(j);
		cJSON_Delete(j);
	}
	munmap(map, 2 * (size_t)pg);
	const char *g = "{\"a\": 1} x";
	assert_null(rset_parse_json(g, strlen(g), why, sizeof(why)));
	assert_string_equal(why, "corrupt JSON at byte 9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sig3_thousands_separators),
		cmocka_unit_test(test_sig3_small_values),
		cmocka_unit_test(test_iops_whole_from_ten),
		cmocka_unit_test(test_latency_unit_per_table),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_stat_ci_only_when_repeated),
		cmocka_unit_test(test_block_size),
		cmocka_unit_test(test_json_depth_bounded),
		cmocka_unit_test(test_json_reads_only_len),
		cmocka_unit_test(test_json_truncation_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
