/*
 * test_jsonutil.c - the one copy of the small cJSON readers
 * (bench/util/jsonutil.h): json_num takes a finite number and nothing
 * else (a string, null, a missing member, a NULL object, and "1e400",
 * which cJSON parses as infinity), leaving *out as it was; json_str takes
 * a string only.
 */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "util/jsonutil.h"

static void test_num(void **state)
{
	(void)state;
	cJSON *o = cJSON_Parse("{\"a\": 2.5, \"neg\": -3, \"s\": \"7\", \"n\": null,"
			       " \"big\": 1e400, \"t\": true}");
	double v = 42;
	assert_non_null(o);
	assert_int_equal(json_num(o, "a", &v), 0);
	assert_true(v == 2.5);
	assert_int_equal(json_num(o, "neg", &v), 0);
	assert_true(v == -3);
	v = 42;
	static const char *const refused[] = { "s", "n", "big", "t", "missing" };
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_int_equal(json_num(o, refused[i], &v), -1);
		assert_true(v == 42);
	}
	assert_int_equal(json_num(NULL, "a", &v), -1);
	assert_true(v == 42);
	cJSON_Delete(o);
}

static void test_str(void **state)
{
	(void)state;
	cJSON *o = cJSON_Parse("{\"a\": \"x\", \"b\": 1}");
	assert_string_equal(json_str(o, "a"), "x");
	assert_null(json_str(o, "b"));
	assert_null(json_str(o, "c"));
	assert_null(json_str(NULL, "a"));
	cJSON_Delete(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num),
		cmocka_unit_test(test_str),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
