/*
 * test_cpulist.c - CPU lists (fio's cpus_allowed) parse strictly, format back
 * into the kernel's cpulist form, and are checked against this process's
 * affinity.
 */
#include "testutil.h"

#include <string.h>

#include "util/cpulist.h"

static void test_parse_good(void **state)
{
	static const struct { const char *s, *canon; int count; } t[] = {
		{ "0", "0", 1 }, { "0-3", "0-3", 4 }, { "0-3,8", "0-3,8", 5 },
		{ "8, 0-1", "0-1,8", 3 }, { "3,2,1", "1-3", 3 }, { "5-5", "5", 1 },
		{ "1023", "1023", 1 }, { "0-1,1-2", "0-2", 3 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cpu_set_t s;
		char err[128] = "", buf[64];
		assert_int_equal(cpulist_parse(t[i].s, &s, err, sizeof(err)), 0);
		assert_int_equal(CPU_COUNT(&s), t[i].count);
		cpulist_format(&s, buf, sizeof(buf));
		assert_string_equal(buf, t[i].canon);
	}
}

static void test_parse_bad(void **state)
{
	static const struct { const char *s, *says; } t[] = {
		{ "", "empty" }, { "a", "bad CPU list" }, { "1-", "bad CPU list" },
		{ "3-1", "runs backwards" }, { "1,,2", "bad CPU list" },
		{ "1;2", "bad CPU list" }, { "-1", "bad CPU list" },
		{ "1024", "past the largest" }, { "0-99999999999", "past the largest" },
		{ "1,", "bad CPU list" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		cpu_set_t s;
		char err[160] = "";
		assert_int_equal(cpulist_parse(t[i].s, &s, err, sizeof(err)), -1);
		if (!strstr(err, t[i].says))
			fail_msg("'%s': message '%s' lacks '%s'", t[i].s, err, t[i].says);
	}
}

static void test_usable(void **state)
{
	cpu_set_t have, far;
	char err[256] = "";
	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(have), &have), 0);
	assert_int_equal(cpulist_check_usable(&have, err, sizeof(err)), 0);
	CPU_ZERO(&far);
	CPU_SET(CPU_SETSIZE - 1, &far);
	assert_int_equal(cpulist_check_usable(&far, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CPU 1023 is not one this process may run on"));
	assert_non_null(strstr(err, "usable here: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_usable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
