/*
 * test_array.c - array_grow() gives room by doubling from the first size,
 * leaves the array alone while there is room, and refuses a size that
 * would overflow without touching the array; array_reserve2() does the
 * same for two arrays of one length and zeroes what it adds;
 * array_push() appends one zeroed element and counts it, by that rule or
 * (no allocated length) by exactly one, and array_add_str() hands a
 * string to a string array, freeing it when it cannot.
 */
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Two arrays of one length: both grow together by the same rule, their
 * elements kept and the new ones zeroed. */
static void test_reserve2_grows_both(void **state)
{
	uint16_t *idx = NULL;
	uint64_t *cnt = NULL;
	size_t alloc = 0;
	(void)state;

	assert_int_equal(ARRAY_RESERVE2(idx, cnt, alloc, 3, 4), 0);
	assert_int_equal(alloc, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(idx[i], 0);
		assert_int_equal(cnt[i], 0);
		idx[i] = (uint16_t)(i + 1);
		cnt[i] = 1000u + (uint64_t)i;
	}
	assert_int_equal(ARRAY_RESERVE2(idx, cnt, alloc, 4, 4), 0); /* room left */
	assert_int_equal(alloc, 4);
	assert_int_equal(ARRAY_RESERVE2(idx, cnt, alloc, 9, 4), 0);
	assert_int_equal(alloc, 16); /* 4, 8, 16 */
	for (int i = 0; i < 16; i++) {
		assert_int_equal(idx[i], i < 4 ? i + 1 : 0);
		assert_int_equal(cnt[i], i < 4 ? 1000u + (uint64_t)i : 0);
	}
	free(idx);
	free(cnt);
}

static void test_reserve2_overflow_refused(void **state)
{
	uint64_t *a = NULL, *b = NULL;
	size_t alloc = 0;
	(void)state;

	assert_int_equal(ARRAY_RESERVE2(a, b, alloc, SIZE_MAX / 4, 8), -1);
	assert_int_equal(alloc, 0);
	assert_null(a);
	assert_null(b);
}

struct pair {
	int a;
	double b;
};

/* Each element pushed is zeroed and counted; the earlier ones are kept;
 * with an allocated length the room doubles from first. */
static void test_push_zeroes_and_counts(void **state)
{
	struct pair *v = NULL, *w = NULL;
	size_t n = 0, alloc = 0, m = 0;
	(void)state;
	for (int i = 0; i < 40; i++) {
		struct pair *p = ARRAY_PUSH(v, alloc, n, 4);
		struct pair *q = ARRAY_ADD(w, m);
		assert_non_null(p);
		assert_non_null(q);
		assert_int_equal(n, (size_t)i + 1);
		assert_int_equal(m, (size_t)i + 1);
		assert_ptr_equal(p, &v[i]);
		assert_ptr_equal(q, &w[i]);
		assert_int_equal(p->a, 0);
		assert_true(p->b == 0 && q->a == 0 && q->b == 0);
		p->a = q->a = i;
	}
	assert_int_equal(alloc, 64); /* 4, 8, 16, 32, 64 */
	for (int i = 0; i < 40; i++)
		assert_true(v[i].a == i && w[i].a == i);
	free(v);
	free(w);
}

/* A size that would overflow: NULL, and the array and counts unchanged. */
static void test_push_overflow_refused(void **state)
{
	char *v = malloc(4);
	size_t n = 4, alloc = 4;
	(void)state;
	assert_non_null(v);
	char *keep = v;
	assert_null(array_push(&v, &alloc, &n, SIZE_MAX / 4, 4));
	assert_null(array_push(&v, NULL, &n, SIZE_MAX / 4, 1));
	assert_ptr_equal(v, keep);
	assert_int_equal(n, 4);
	assert_int_equal(alloc, 4);
	free(v);
}

/* A string is the array's once added; NULL (a strdup that failed) is
 * refused and nothing is added. */
static void test_add_str_owns(void **state)
{
	char **v = NULL;
	size_t n = 0;
	(void)state;
	assert_int_equal(array_add_str(&v, &n, strdup("a")), 0);
	assert_int_equal(array_add_str(&v, &n, NULL), -1);
	assert_int_equal(array_add_str(&v, &n, strdup("b")), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0], "a");
	assert_string_equal(v[1], "b");
	free(v[0]);
	free(v[1]);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doubles_from_first),
		cmocka_unit_test(test_room_left_is_same_pointer),
		cmocka_unit_test(test_far_index_grows_past_it),
		cmocka_unit_test(test_overflow_refused),
		cmocka_unit_test(test_reserve2_grows_both),
		cmocka_unit_test(test_reserve2_overflow_refused),
		cmocka_unit_test(test_push_zeroes_and_counts),
		cmocka_unit_test(test_push_overflow_refused),
		cmocka_unit_test(test_add_str_owns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
