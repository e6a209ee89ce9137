/*
 * test_suggest.c - the one edit distance (optimal string alignment, case
 * ignored) and the one did-you-mean rule of suggest.h.
 */
#include "testutil.h"

#include <stdint.h>
#include <string.h>

#include "util/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("iodepth", "iodepth"), 0);
	assert_int_equal(suggest_distance("iodepht", "iodepth"), 1); /* one swap */
	assert_int_equal(suggest_distance("IODepth", "iodepth"), 0);
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("wnidwo", "window"), 2);
	char longw[SUGGEST_MAX_LEN + 2];
	memset(longw, 'a', sizeof(longw) - 1);
	longw[sizeof(longw) - 1] = '\0';
	assert_true(suggest_distance(longw, "a") == SIZE_MAX);
	/* the longest labels (96 characters) still compare */
	assert_int_equal(suggest_distance(longw + 2, longw + 3), 1);
}

static void test_word(void **state)
{
	(void)state;
	static const char *const words[] = { "max", "window", "range", "slope", NULL };
	assert_string_equal(suggest_word("mxa", words), "max");
	assert_string_equal(suggest_word("SLOPE", words), "slope");
	assert_null(suggest_word("xyz", words));   /* 2 edits on a short word */
	assert_null(suggest_word("ab", words));
	assert_null(suggest_word("wnd", words));
	assert_string_equal(suggest_word("windw", words), "window");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
