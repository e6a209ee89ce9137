/*
 * test_bare_map.c - the random map of make bench's twins (tests/bench/
 * bare.h, bare_block): every block of n once per pass, passes after
 * passes, for n = 1, 2, 3, primes, 2^k and 2^k + 1, and not in index
 * order; what lets the twin's rows stand for iomatrix's random map.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define BARE_TWIN 1
#include "tests/bench/bare.h"

static void check_passes(uint64_t n)
{
	unsigned char *seen = calloc((size_t)n, 1);
	uint64_t in_order = 0;
	assert_non_null(seen);
	for (unsigned pass = 1; pass <= 3; pass++) {
		for (uint64_t i = 0; i < n; i++) {
			uint64_t b = bare_block(n);
			assert_true(b < n);
			assert_int_equal(seen[b], pass - 1); /* once per pass */
			seen[b] = (unsigned char)pass;
			in_order += b == i;
		}
	}
	if (n >= 1000) /* a shuffle, not a scan: 3 expected of 3n */
		assert_true(in_order < 3 * n / 100);
	free(seen);
}

static void test_passes(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 1, 2, 3, 7, 1000, 1021, 4096, 4097, 262144 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		bare_map_x = 0;
		check_passes(sizes[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
