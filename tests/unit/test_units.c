/*
 * test_units.c - sizes (powers of 1024), durations and percentages parse
 * strictly and format back the way people write them.
 */
#include "testutil.h"

#include <math.h>

#include <string.h>

#include "util/units.h"

static void test_size_good(void **state)
{
	static const struct { const char *s; uint64_t v; } t[] = {
		{ "0", 0 }, { "512", 512 }, { "512B", 512 }, { "4k", 4096 },
		{ "4K", 4096 }, { "4KiB", 4096 }, { "4kb", 4096 },
		{ "1m", 1048576 }, { "64MiB", 67108864 }, { "8GiB", 8ULL << 30 },
		{ "8 GiB", 8ULL << 30 }, { "2t", 2ULL << 40 }, { "1p", 1ULL << 50 },
		{ "7E", 7ULL << 60 }, { "9223372036854775807", 9223372036854775807ULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t v = 1;
		assert_int_equal(units_parse_size(t[i].s, &v), 0);
		assert_true(v == t[i].v);
	}
}

static void test_size_bad(void **state)
{
	static const char *bad[] = { "", "k", "4x", "-1", "4 k b", "1.5g", "4kk",
		"99999999999999999999", "16E", "15E", "8E", "9223372036854775808",
		"4 ", " 4", "4Kib B", "0x10" };
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 7;
		assert_int_equal(units_parse_size(bad[i], &v), -1);
		assert_true(v == 7); /* untouched on error */
	}
}

static void test_duration_good(void **state)
{
	static const struct { const char *s; uint64_t ns; } t[] = {
		{ "500ms", 500000000ULL }, { "30s", 30000000000ULL },
		{ "2m", 120000000000ULL }, { "1h", 3600000000000ULL },
		{ "90", 90000000000ULL }, { "1m30s", 90000000000ULL },
		{ "250us", 250000ULL }, { "10ns", 10ULL }, { "0", 0 },
		{ "1d", 86400000000000ULL }, { "5S", 5000000000ULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t v = 1;
		assert_int_equal(units_parse_duration(t[i].s, &v), 0);
		assert_true(v == t[i].ns);
	}
}

static void test_duration_bad(void **state)
{
	static const char *bad[] = { "", "s", "30x", "1.5s", "-1s", "30 s",
		"1m30", "99999999999999999999s", "300000000d" };
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v;
		assert_int_equal(units_parse_duration(bad[i], &v), -1);
	}
}

static void test_percent(void **state)
{
	double v;
	(void)state;
	assert_int_equal(units_parse_percent("50%", &v), 0);
	assert_true(v == 50.0);
	assert_int_equal(units_parse_percent("100%", &v), 0);
	assert_int_equal(units_parse_percent("12.5%", &v), 0);
	assert_true(v == 12.5);
	assert_int_equal(units_parse_percent("0%", &v), -1);
	assert_int_equal(units_parse_percent("101%", &v), -1);
	assert_int_equal(units_parse_percent("50", &v), -1);
	assert_int_equal(units_parse_percent("%", &v), -1);
	assert_int_equal(units_parse_percent("-5%", &v), -1);
	assert_int_equal(units_parse_percent("nan%", &v), -1);
	assert_int_equal(units_parse_percent("0x10%", &v), -1);
	assert_int_equal(units_parse_percent("1e1%", &v), -1);
	assert_int_equal(units_parse_percent(".5%", &v), -1);
}

/* Decimal only, as sysbench and fio print numbers */
static void test_decimal(void **state)
{
	const char *end;
	double v;
	(void)state;
	assert_int_equal(units_parse_decimal("67970.51", &end, &v), 0);
	assert_true(v == 67970.51 && !*end);
	assert_int_equal(units_parse_decimal("99.990000", &end, &v), 0);
	assert_true(v == 99.99 && !*end);
	assert_int_equal(units_parse_decimal("1.4703s", &end, &v), 0);
	assert_true(v == 1.4703 && !strcmp(end, "s"));
	assert_int_equal(units_parse_decimal("5.", &end, &v), 0);
	assert_true(v == 5 && !strcmp(end, "."));
	assert_int_equal(units_parse_decimal("0x10", &end, &v), 0);
	assert_true(v == 0 && !strcmp(end, "x10")); /* "0", then junk */
	assert_int_equal(units_parse_decimal("1e400", &end, &v), 0);
	assert_true(v == 1 && !strcmp(end, "e400"));
	static const char *const bad[] = { "", "-3", "+3", ".5", "nan", "inf", "x",
		"1234567890123456789012345678901234567890123456789012345678901234" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(units_parse_decimal(bad[i], &end, &v), -1);
}

static void test_format_short(void **state)
{
	char b[32];
	(void)state;
	units_format_size_short(4096, b, sizeof(b));
	assert_string_equal(b, "4K");
	units_format_size_short(1048576, b, sizeof(b));
	assert_string_equal(b, "1M");
	units_format_size_short(1536, b, sizeof(b));
	assert_string_equal(b, "1536");
	units_format_size_short(131072, b, sizeof(b));
	assert_string_equal(b, "128K");
	units_format_size_short(8ULL << 30, b, sizeof(b));
	assert_string_equal(b, "8G");
	units_format_size_short(0, b, sizeof(b));
	assert_string_equal(b, "0");
}

static void test_format_human(void **state)
{
	char b[32];
	(void)state;
	units_format_size(8ULL << 30, b, sizeof(b));
	assert_string_equal(b, "8.0 GiB");
	units_format_size(4096, b, sizeof(b));
	assert_string_equal(b, "4.0 KiB");
	/* the report's style, which its golden files hold */
	units_format_size(32ULL << 20, b, sizeof(b));
	assert_string_equal(b, "32.0 MiB");
	units_format_size(256ULL << 30, b, sizeof(b));
	assert_string_equal(b, "256 GiB");
	units_format_size(1.2345 * (1ULL << 30), b, sizeof(b));
	assert_string_equal(b, "1.2 GiB");
	units_format_size(-1, b, sizeof(b));
	assert_string_equal(b, "0 B");
	units_format_size(NAN, b, sizeof(b));
	assert_string_equal(b, "0 B");
	units_format_size(3ULL << 29, b, sizeof(b));
	assert_string_equal(b, "1.5 GiB");
	units_format_size(512, b, sizeof(b));
	assert_string_equal(b, "512 B");
}

/* Thousands separators: counts, negatives, decimals, truncation. */
static void test_group_digits(void **state)
{
	char b[32];
	(void)state;
	const char *cases[][2] = {
		{ "0", "0" }, { "999", "999" }, { "1000", "1,000" },
		{ "48200", "48,200" }, { "1234567", "1,234,567" },
		{ "-1234.5", "-1,234.5" }, { "-999", "-999" }, { "0.590", "0.590" },
		{ "12345.678", "12,345.678" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		units_group_digits(cases[i][0], b, sizeof(b));
		assert_string_equal(b, cases[i][1]);
	}
	/* never past the buffer: the digits that fit, no dangling comma */
	units_group_digits("1234567", b, 6);
	assert_string_equal(b, "1,234");
}

static void test_format_duration(void **state)
{
	char b[32];
	(void)state;
	units_format_duration(30000000000ULL, b, sizeof(b));
	assert_string_equal(b, "30s");
	units_format_duration(500000000ULL, b, sizeof(b));
	assert_string_equal(b, "500ms");
	units_format_duration(120000000000ULL, b, sizeof(b));
	assert_string_equal(b, "2m");
	units_format_duration(90000000000ULL, b, sizeof(b));
	assert_string_equal(b, "1m30s");
	units_format_duration(0, b, sizeof(b));
	assert_string_equal(b, "0s");
}

static void test_duration_roundtrip(void **state)
{
	static const uint64_t v[] = { 1, 999, 1500000000ULL, 3723000000000ULL,
		86400000000001ULL };
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char b[64];
		uint64_t back;
		units_format_duration(v[i], b, sizeof(b));
		assert_int_equal(units_parse_duration(b, &back), 0);
		assert_true(back == v[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_good),
		cmocka_unit_test(test_size_bad),
		cmocka_unit_test(test_duration_good),
		cmocka_unit_test(test_duration_bad),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_format_short),
		cmocka_unit_test(test_format_human),
		cmocka_unit_test(test_group_digits),
		cmocka_unit_test(test_format_duration),
		cmocka_unit_test(test_duration_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
