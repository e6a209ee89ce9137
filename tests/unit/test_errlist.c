/*
 * test_errlist.c - error lists keep every message, with positions.
 */
#include "testutil.h"

#include <string.h>

#include "util/errlist.h"

static void test_positions(void **state)
{
	struct errlist e = ERRLIST_INIT;
	(void)state;
	errlist_add(&e, "s.yaml", 12, 5, "unknown key '%s'", "iodepht");
	errlist_add(&e, "s.yaml", 0, 0, "empty matrix");
	errlist_add(&e, NULL, 0, 0, "plain");
	assert_int_equal(e.n, 3);
	assert_string_equal(e.msgs[0], "s.yaml:12:5: unknown key 'iodepht'");
	assert_string_equal(e.msgs[1], "s.yaml: empty matrix");
	assert_string_equal(e.msgs[2], "plain");
	errlist_release(&e);
	assert_int_equal(e.n, 0);
}

static void test_many(void **state)
{
	struct errlist e = ERRLIST_INIT;
	(void)state;
	for (int i = 0; i < 1000; i++)
		errlist_add(&e, "f", (unsigned)i + 1, 1, "e%d", i);
	assert_int_equal(e.n, 1000);
	assert_string_equal(e.msgs[999], "f:1000:1: e999");
	errlist_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
