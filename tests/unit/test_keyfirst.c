/*
 * test_keyfirst.c - keyfirst_fill() gives every item the least rank of
 * its key, whatever the items' order and the ranks' order, leaves the
 * items where they are, and handles no items.
 */
#include "testutil.h"

#include <stddef.h>
#include <stdlib.h>

#include "util/keyfirst.h"

struct item {
	char *key;
	size_t rank;
	size_t first;
};

static void test_least_rank_of_each_key(void **state)
{
	struct item v[] = {
		{ "b", 7, 99 }, { "a", 5, 99 }, { "b", 2, 99 }, { "c", 4, 99 },
		{ "a", 1, 99 }, { "b", 9, 99 },
	};
	static const size_t want[] = { 2, 1, 2, 4, 1, 2 };
	(void)state;
	assert_int_equal(keyfirst_fill(v, 6, sizeof(v[0]), offsetof(struct item, key),
				       offsetof(struct item, rank), offsetof(struct item, first)), 0);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(v[i].first, want[i]);
	/* the items stay in their order */
	assert_string_equal(v[0].key, "b");
	assert_int_equal(v[0].rank, 7);
	assert_string_equal(v[3].key, "c");
}

static void test_no_items(void **state)
{
	struct item v[1] = { { "x", 3, 42 } };
	(void)state;
	assert_int_equal(keyfirst_fill(v, 0, sizeof(v[0]), offsetof(struct item, key),
				       offsetof(struct item, rank), offsetof(struct item, first)), 0);
	assert_int_equal(v[0].first, 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_least_rank_of_each_key),
		cmocka_unit_test(test_no_items),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
