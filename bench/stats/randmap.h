/*
 * randmap.h - a keyed permutation of the block indexes [0, n): what gives
 * random IO fio's default coverage (every block of the range once per
 * pass) without fio's bitmap, in O(1) memory for any n up to 2^62.
 * Pure: no IO, no allocation, no global state; the derivation is in
 * randmap.c.  randmap_at is inline: it is one call per random IO.
 */
#ifndef IOMATRIX_RANDMAP_H
#define IOMATRIX_RANDMAP_H

#include <stdint.h>

#define RANDMAP_MAX_N (1ULL << 62)
/* the odd multipliers of the three rounds (murmur3's and splitmix64's) */
#define RANDMAP_M0 0xff51afd7ed558ccdull
#define RANDMAP_M1 0xbf58476d1ce4e5b9ull
#define RANDMAP_M2 0x94d049bb133111ebull

struct randmap {
	uint64_t n;                 /* blocks in the range */
	uint64_t mask;              /* the domain 2^bits - 1, 2^bits >= n */
	unsigned shift;             /* ceil(bits / 2): the xorshift */
	uint64_t k[3];              /* the key: one xor before each multiply */
};

/* A permutation of [0, n) chosen by key (1 <= n <= RANDMAP_MAX_N; other n
 * are clamped into that range).  Equal (n, key) give equal permutations. */
void randmap_init(struct randmap *m, uint64_t n, uint64_t key);

/* One step: the keyed bijection of [0, 2^bits) (randmap.c derives it). */
static inline uint64_t randmap_step(const struct randmap *m, uint64_t x)
{
	x ^= m->k[0];
	x ^= x >> m->shift;
	x = (x * RANDMAP_M0) & m->mask;
	x ^= m->k[1];
	x ^= x >> m->shift;
	x = (x * RANDMAP_M1) & m->mask;
	x ^= m->k[2];
	x ^= x >> m->shift;
	x = (x * RANDMAP_M2) & m->mask;
	return x ^ (x >> m->shift);
}

/* The rest of a walk whose first step landed at x >= n (randmap.c). */
uint64_t randmap_walk(const struct randmap *m, uint64_t x, unsigned *walk);

/* The image of index i in [0, n): a bijection of [0, n) (i >= n is taken
 * mod n).  *walk, when not NULL, receives how many steps of cycle walking
 * it took (at least 1; the mean is below 2, since the domain is less
 * than 2n). */
static inline uint64_t randmap_at(const struct randmap *m, uint64_t i, unsigned *walk)
{
	uint64_t x = randmap_step(m, i < m->n ? i : i % m->n);

	if (__builtin_expect(x >= m->n, 0))
		return randmap_walk(m, x, walk);
	if (walk)
		*walk = 1;
	return x;
}

/* The inverse: randmap_at(m, randmap_inverse(m, y), NULL) == y. */
uint64_t randmap_inverse(const struct randmap *m, uint64_t y);

#endif
