/*
 * test_array.c - array_grow() gives room by doubling from the first size,
 * leaves the array alone while there is room, and refuses a size that
 * would overflow without touching the array.
 */
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/array.h"

static void test_doubles_from_first(void **state)
{
	int *v = NULL;
	size_t alloc = 0;
	(void)state;
	for (size_t n = 0; n < 100; n++) {
		int *p = array_grow(v, &alloc, n, sizeof(*p), 8);
		assert_non_null(p);
		v = p;
		v[n] = (int)n;
		assert_true(alloc > n);
	}
	assert_int_equal(alloc, 128); /* 8, 16, 32, 64, 128 */
	for (int i = 0; i < 100; i++)
		assert_int_equal(v[i], i);
	free(v);
}

static void test_room_left_is_same_pointer(void **state)
{
	size_t alloc = 0;
	(void)state;
	char *v = array_grow(NULL, &alloc, 0, 1, 16);
	assert_non_null(v);
	assert_ptr_equal(array_grow(v, &alloc, 15, 1, 16), v);
	assert_int_equal(alloc, 16);
	free(v);
}

static void test_far_index_grows_past_it(void **state)
{
	size_t alloc = 4;
	char *v = malloc(4);
	(void)state;
	assert_non_null(v);
	v = array_grow(v, &alloc, 20, 1, 4);
	assert_non_null(v);
	assert_true(alloc > 20);
	free(v);
}

static void test_overflow_refused(void **state)
{
	size_t alloc = 4;
	char *v = malloc(4 * 8);
	(void)state;
	assert_non_null(v);
	assert_null(array_grow(v, &alloc, 4, SIZE_MAX / 4, 4));
	assert_int_equal(alloc, 4); /* unchanged: v is still the caller's */
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doubles_from_first),
		cmocka_unit_test(test_room_left_is_same_pointer),
		cmocka_unit_test(test_far_index_grows_past_it),
		cmocka_unit_test(test_overflow_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
