/*
 * randmap.c - randmap.h: a keyed permutation of [0, n) by a keyed
 * xorshift-multiply bijection of the next power of two, with cycle
 * walking.
 *
 * Derivation.  Let b be the smallest number of bits with 2^b >= n, so
 * 2^(b-1) < n <= 2^b, and s = ceil(b/2).  On b-bit values (mod 2^b) each
 * of these is a bijection:
 *
 *     x xor k            (its own inverse)
 *     x xor (x >> s)     (its own inverse: 2s >= b, so (x >> s) >> s = 0)
 *     x * M, M odd       (inverse: times M^-1 mod 2^b, which exists)
 *
 * so randmap_step, three rounds of (xor a round key, xorshift, multiply)
 * and a last xorshift, is a bijection of [0, 2^b) for any key, inverted
 * by running the inverses backwards (randmap_unstep).  A multiply mixes
 * upwards only (bit t of a product depends on bits 0..t); the xorshift
 * folds the upper half onto the lower, so each output bit depends on
 * every input bit: murmur3's 64-bit finalizer, one round longer, on b
 * bits and keyed.  The key picks the three round keys, so a new pass gets
 * a new order.  Two rounds were measured too weak (2026-12-06, 2^18
 * blocks: flipping one input bit flipped some output bit 96 % of the
 * time, not 50 %, and a tenth of a pass fell unevenly over the range,
 * chi-square 95 on 9 degrees); three hold 50 +- 1.5 %, as the Feistel
 * network this replaced did, and tests/unit/test_randmap.c checks both.
 *
 * Why not that four-round Feistel network: randmap_at took 82 user
 * instructions per IO and offsets_next around it 22 (callgrind, null
 * engine, 2026-12-06); now inline, 30 and 15, for the same
 * coverage and reproducibility (a seed names a run's offsets; the order
 * is another than the Feistel's, so a set made before this change replays
 * other offsets under the same pass rule).
 *
 * Cycle walking turns the permutation E of [0, 2^b) into one of [0, n):
 * from i < n apply E until the value falls below n.  Following the cycle
 * of E through i, the values >= n are skipped, so the images of the i < n
 * are the values < n in the same cyclic order: a bijection.  Each step
 * lands below n with probability n / 2^b > 1/2 for a random-looking E, so
 * the walk takes fewer than 2 steps on average (tests/unit/test_randmap.c
 * measures it); n a power of two, as a 1 GiB file of 4K blocks, never
 * walks.
 *
 * Memory: the key, 24 bytes, whatever n is: a 16 TB device in
 * 4 KiB blocks (2^32 blocks) needs no 512 MiB bitmap.
 */
#include "randmap.h"

static uint64_t randmap_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* m^-1 mod 2^64 for odd m (Newton: each step doubles the correct bits,
 * from 3 bits of m * m = 1 mod 8); also the inverse mod every 2^b. */
static uint64_t randmap_inv(uint64_t m)
{
	uint64_t v = m;
	for (int i = 0; i < 5; i++)
		v *= 2 - m * v;
	return v;
}

void randmap_init(struct randmap *m, uint64_t n, uint64_t key)
{
	unsigned b = 0;

	if (n < 1)
		n = 1;
	if (n > RANDMAP_MAX_N)
		n = RANDMAP_MAX_N;
	while (b < 63 && (1ULL << b) < n)
		b++;
	m->n = n;
	m->mask = b ? (~0ULL >> (64 - b)) : 0;
	m->shift = (b + 1) / 2;
	uint64_t x = key;
	for (int t = 0; t < 3; t++) {
		x += 0x9e3779b97f4a7c15ull;
		m->k[t] = randmap_mix(x) & m->mask;
	}
}

uint64_t randmap_walk(const struct randmap *m, uint64_t x, unsigned *walk)
{
	unsigned steps = 1;

	do {
		x = randmap_step(m, x);
		steps++;
	} while (x >= m->n);
	if (walk)
		*walk = steps;
	return x;
}

/* randmap_step backwards: each bijection's inverse (see the top). */
static uint64_t randmap_unstep(const struct randmap *m, uint64_t y)
{
	static const uint64_t mul[3] = { RANDMAP_M0, RANDMAP_M1, RANDMAP_M2 };

	y ^= y >> m->shift;
	for (int t = 2; t >= 0; t--) {
		y = (y * randmap_inv(mul[t])) & m->mask;
		y ^= y >> m->shift;
		y ^= m->k[t];
	}
	return y;
}

uint64_t randmap_inverse(const struct randmap *m, uint64_t y)
{
	uint64_t x = y < m->n ? y : y % m->n;

	do
		x = randmap_unstep(m, x);
	while (x >= m->n);
	return x;
}
