/*
 * test_randmap.c - the keyed permutation behind the random map: every
 * block exactly once per pass for sizes 1, 2, primes and 2^k +- 1; at 10^9
 * blocks a bijection on a sample (through the inverse) and the cycle
 * walk's length; a new key gives a new order; fixed images for fixed
 * keys; every input bit mixes into every output bit, neighbours land
 * apart.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "stats/prng.h"
#include "stats/randmap.h"

/* One full pass over [0, n) hits every block once. */
static void check_pass(uint64_t n, uint64_t key)
{
	struct randmap m;
	unsigned char *seen = calloc((size_t)n, 1);
	assert_non_null(seen);
	randmap_init(&m, n, key);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t y = randmap_at(&m, i, NULL);
		assert_true(y < n);
		assert_int_equal(seen[y], 0);
		seen[y] = 1;
		assert_int_equal(randmap_inverse(&m, y), i);
	}
	free(seen);
}

/* The permutation is the workload's order of blocks (a seed names a run's
 * offsets): these images and walk lengths, key 42, are those of the
 * xorshift-multiply rounds (randmap.c, 2026-12-06), so a rewrite that
 * changes the order fails here. */
static void test_values_fixed(void **state)
{
	(void)state;
	static const struct { uint64_t n, i, y; unsigned walk; } v[] = {
		{ 2ull, 0ull, 0ull, 1 },
		{ 3ull, 0ull, 2ull, 1 },
		{ 1000ull, 999ull, 294ull, 1 },
		{ 262144ull, 0ull, 253374ull, 1 },
		{ 262144ull, 262143ull, 232517ull, 1 },
		{ 262145ull, 0ull, 16455ull, 1 },
		{ 262145ull, 16ull, 170460ull, 8 },
		{ 262145ull, 999ull, 109771ull, 1 },
		{ 1000000007ull, 1ull, 318595396ull, 1 },
		{ 1099511627783ull, 1ull, 513827705007ull, 3 },
		{ 1099511627783ull, 262143ull, 185593507918ull, 1 },
	};
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		struct randmap m;
		unsigned walk = 0;
		randmap_init(&m, v[k].n, 42);
		assert_int_equal(randmap_at(&m, v[k].i, &walk), v[k].y);
		assert_int_equal(walk, v[k].walk);
		assert_int_equal(randmap_inverse(&m, v[k].y), v[k].i);
	}
}

static void test_small_sizes(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 1, 2, 3, 5, 7, 11, 13, 31, 97, 101,
		257, 1021, 4093, 65521, 1000003 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_pass(sizes[i], 0x89 + i);
}

static void test_powers_of_two(void **state)
{
	(void)state;
	for (unsigned k = 1; k <= 20; k++) {
		check_pass((1ULL << k) - 1, k);
		check_pass(1ULL << k, k);
		check_pass((1ULL << k) + 1, k);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* 10^9 blocks (a full pass would take minutes): a sample of 2^18 indexes
 * maps to 2^18 distinct blocks in range, each back to its index, and the
 * cycle walk takes 2^30 / 10^9 = 1.07 rounds on average. */
static void test_billion(void **state)
{
	(void)state;
	const uint64_t n = 1000000000ULL;
	const size_t k = 1 << 18;
	struct randmap m;
	struct prng p;
	uint64_t *ys = malloc(k * sizeof(*ys));
	unsigned walk, maxwalk = 0;
	double sum = 0;
	assert_non_null(ys);
	randmap_init(&m, n, 0x1234);
	prng_seed(&p, 7);
	uint64_t start = prng_below(&p, n - k);
	for (size_t i = 0; i < k; i++) {
		uint64_t idx = start + i; /* distinct indexes */
		ys[i] = randmap_at(&m, idx, &walk);
		assert_true(ys[i] < n);
		assert_int_equal(randmap_inverse(&m, ys[i]), idx);
		sum += walk;
		if (walk > maxwalk)
			maxwalk = walk;
	}
	qsort(ys, k, sizeof(*ys), cmp_u64);
	for (size_t i = 1; i < k; i++)
		assert_true(ys[i] != ys[i - 1]);
	double mean = sum / (double)k;
	assert_true(mean < 1.2);   /* expected 1.074 */
	assert_true(maxwalk < 40); /* P(walk > 40) = 0.07^40 */
	/* the worst domain, n just above a power of two: below 2 */
	randmap_init(&m, (1ULL << 29) + 1, 99);
	sum = 0;
	for (size_t i = 0; i < k; i++) {
		randmap_at(&m, i * 511, &walk);
		sum += walk;
	}
	assert_true(sum / (double)k < 2.1);
	free(ys);
}

/* A new key (a new pass) gives a new order, and the first tenth of a
 * pass is spread over the whole range. */
static void test_keys_and_spread(void **state)
{
	(void)state;
	const uint64_t n = 100000;
	struct randmap a, b;
	unsigned same = 0, buckets[10] = { 0 };
	randmap_init(&a, n, 1);
	randmap_init(&b, n, 2);
	for (uint64_t i = 0; i < n; i++)
		same += randmap_at(&a, i, NULL) == randmap_at(&b, i, NULL);
	assert_true(same < 100); /* 1 expected */
	for (uint64_t i = 0; i < n / 10; i++)
		buckets[randmap_at(&a, i, NULL) * 10 / n]++;
	double chi = 0, e = (double)n / 100;
	for (int i = 0; i < 10; i++)
		chi += (buckets[i] - e) * (buckets[i] - e) / e;
	assert_true(chi < 27.9); /* chi-square, 9 degrees, p = 0.001 */
}

/* Every input bit reaches every output bit: flipping one bit of the
 * index flips each bit of the image about half the time (a 2^18-block
 * pass; two rounds of randmap_step left one at 96 %), and consecutive
 * indexes land apart: within n/1000 of each other as often as two
 * independent draws (0.2 %), not as a stride or a neighbour. */
static void test_avalanche_and_neighbours(void **state)
{
	(void)state;
	const uint64_t n = 1 << 18;
	const unsigned bits = 18, k = 20000;
	struct randmap m;
	randmap_init(&m, n, 5);
	for (unsigned ib = 0; ib < bits; ib++) {
		unsigned flips[18] = { 0 };
		for (unsigned i = 0; i < k; i++) {
			uint64_t x = (i * 0x9e3779b97f4a7c15ull) & (n - 1);
			uint64_t d = randmap_at(&m, x, NULL) ^ randmap_at(&m, x ^ (1ull << ib), NULL);
			for (unsigned ob = 0; ob < bits; ob++)
				flips[ob] += (d >> ob) & 1;
		}
		for (unsigned ob = 0; ob < bits; ob++) /* 0.5 +- 0.05: 14 sigma */
			assert_true(flips[ob] > k * 45 / 100 && flips[ob] < k * 55 / 100);
	}
	unsigned close = 0;
	uint64_t prev = randmap_at(&m, 0, NULL);
	for (uint64_t i = 1; i < n; i++) {
		uint64_t y = randmap_at(&m, i, NULL);
		close += (y > prev ? y - prev : prev - y) < n / 1000;
		prev = y;
	}
	assert_true(close > 300 && close < 750); /* 2 x 262 x 1000 / 1000: 524 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_fixed),
		cmocka_unit_test(test_small_sizes),
		cmocka_unit_test(test_powers_of_two),
		cmocka_unit_test(test_billion),
		cmocka_unit_test(test_keys_and_spread),
		cmocka_unit_test(test_avalanche_and_neighbours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
