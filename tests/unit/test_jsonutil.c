/*
 * test_jsonutil.c - the one copy of the small cJSON readers
 * (bench/util/jsonutil.h): json_num takes a finite number and nothing
 * else (a string, null, a missing member, a NULL object, and "1e400",
 * which cJSON parses as infinity), leaving *out as it was; json_str takes
 * a string only.  json_bracket counts the brackets of raw JSON text and
 * none inside a string, escaped quotes included.
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

/* The depth after each character, as a string ("0111..."), and whether
 * the scan ends inside a string. */
static void scan(const char *s, char *depths, bool *in_str)
{
	size_t len = strlen(s);
	int depth = 0;

	*in_str = false;
	memset(depths, '-', len);
	depths[len] = '\0';
	for (size_t i = 0; i < len; i++) {
		depth += json_bracket(s, &i, in_str);
		if (i < len)
			depths[i] = (char)('0' + depth);
	}
}

static void test_bracket(void **state)
{
	char d[64];
	bool in_str;
	(void)state;

	/* brackets and an escaped quote inside a string count for nothing;
	 * the character after a backslash is stepped over ('-') */
	scan("{\"a\":\"]\\\"{\",\"b\":[1,{}]}", d, &in_str);
	assert_string_equal(d, "1111111-111111112223210");
	assert_false(in_str);
	scan("[\"cut [", d, &in_str);
	assert_string_equal(d, "1111111");
	assert_true(in_str);
	scan("{\"x\\", d, &in_str);  /* a backslash as the last byte */
	assert_string_equal(d, "111-");
	assert_true(in_str);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num),
		cmocka_unit_test(test_str),
		cmocka_unit_test(test_bracket),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
