/*
 * randmap.h - a keyed permutation of the block indexes [0, n): what gives
 * random IO fio's default coverage (every block of the range once per
 * pass) without fio's bitmap, in O(1) memory for any n up to 2^62.
 * Pure: no IO, no allocation, no global state; the derivation is in
 * randmap.c.
 */
#ifndef IOMATRIX_RANDMAP_H
#define IOMATRIX_RANDMAP_H

#include <stdint.h>

#define RANDMAP_ROUNDS 4      /* randmap.c spells the four out */
#define RANDMAP_MAX_N (1ULL << 62)

struct randmap {
	uint64_t n;                 /* blocks in the range */
	unsigned lbits, rbits;      /* the two halves of the domain 2^(l+r) */
	uint64_t lmask, rmask;
	uint64_t key[RANDMAP_ROUNDS];
	/* derived once by randmap_init for the per-IO path (randmap.c,
	 * round_f): key >> 7 of each round, and 63 - bits of each half */
	uint64_t key7[RANDMAP_ROUNDS];
	unsigned lshift, rshift;
};

/* A permutation of [0, n) chosen by key (1 <= n <= RANDMAP_MAX_N; other n
 * are clamped into that range).  Equal (n, key) give equal permutations. */
void randmap_init(struct randmap *m, uint64_t n, uint64_t key);

/* The image of index i in [0, n): a bijection of [0, n).  *walk, when not
 * NULL, receives how many rounds of cycle walking it took (at least 1;
 * the mean is below 2, since the domain is less than 2n). */
uint64_t randmap_at(const struct randmap *m, uint64_t i, unsigned *walk);

/* The inverse: randmap_at(m, randmap_inverse(m, y), NULL) == y. */
uint64_t randmap_inverse(const struct randmap *m, uint64_t y);

#endif
