/*
 * randmap.c - randmap.h: a keyed permutation of [0, n) by a Feistel
 * network with cycle walking.
 *
 * Derivation.  Let b be the smallest number of bits with 2^b >= n, so
 * 2^(b-1) < n <= 2^b.  Split a b-bit value x into a high part L of l =
 * ceil(b/2) bits and a low part R of r = floor(b/2) bits.  Each round t
 * changes one half by a keyed function of the other:
 *
 *     t even:  L <- L xor (F_t(R) mod 2^l)
 *     t odd:   R <- R xor (F_t(L) mod 2^r)
 *
 * A round is its own inverse (applying it twice xors the same value twice),
 * so any sequence of rounds is a bijection of [0, 2^b) for any F_t; running
 * the rounds backwards inverts it.  The halves need not be equal, which
 * keeps the domain below 2n for every n (a balanced network would need an
 * even b and up to 4n).  F_t hashes the other half xor a round key with
 * two multiplies and keeps the top bits; four rounds, the count after
 * which a Feistel network of good round functions is indistinguishable
 * from a random permutation (Luby and Rackoff), so that every output bit
 * depends on every input bit.  The cost is that of the per-IO path: about
 * 10 ns per round trip of the walk here.
 *
 * Cycle walking turns the permutation E of [0, 2^b) into one of [0, n):
 * from i < n apply E until the value falls below n.  Following the cycle
 * of E through i, the values >= n are skipped, so the images of the i < n
 * are the values < n in the same cyclic order: a bijection.  Each step
 * lands below n with probability n / 2^b > 1/2 for a random-looking E, so
 * the walk takes fewer than 2 steps on average (tests/unit/test_randmap.c
 * measures it).
 *
 * Memory: the key schedule, 64 bytes, whatever n is: a 16 TB device in
 * 4 KiB blocks (2^32 blocks) needs no 512 MiB bitmap.
 */
#include "randmap.h"

_Static_assert(RANDMAP_ROUNDS == 4, "encrypt and decrypt spell out four rounds");

static uint64_t randmap_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t mask(unsigned bits)
{
	return bits ? (~0ULL >> (64 - bits)) : 0;
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
	m->lbits = (b + 1) / 2;
	m->rbits = b / 2;
	m->lmask = mask(m->lbits);
	m->rmask = mask(m->rbits);
	uint64_t x = key;
	for (unsigned t = 0; t < RANDMAP_ROUNDS; t++) {
		x += 0x9e3779b97f4a7c15ull;
		m->key[t] = randmap_mix(x);
		m->key7[t] = m->key[t] >> 7;
	}
	m->lshift = 63 - m->lbits;
	m->rshift = 63 - m->rbits;
}

/* F_t: the top `bits` bits of (v xor key) times an odd 64-bit constant
 * plus the key's rotation (multiplicative hashing: the high bits of a
 * product depend on every bit of v); one multiply, as the per-IO path
 * wants it cheap.  key7 is key >> 7 and shift 63 - bits (randmap_init):
 * (x >> 1) >> (63 - bits) is x >> (64 - bits) for bits >= 1 and 0 for
 * bits 0, without a branch or a shift by 64. */
static inline uint64_t round_f(uint64_t v, uint64_t key, uint64_t key7, unsigned shift)
{
	uint64_t x = (v ^ key) * 0x9e3779b97f4a7c15ull;
	x ^= (x >> 29) + key7;
	x *= 0xbf58476d1ce4e5b9ull;
	return (x >> 1) >> shift;
}

/* The rounds on the two halves, split once: round t changes L when even,
 * R when odd (each stays below its 2^bits), so splitting and joining
 * around every round, as a round at a time reads, gives the same value.
 * Measured with callgrind on the psync QD1 path: 164 instructions per IO
 * split per round, 124 split once with a branch and the shifts and key
 * rotations computed in every round, 82 with them derived at init
 * (2026-12-06; tests/unit/test_randmap.c holds the values to the old
 * ones). */
static inline __attribute__((always_inline)) uint64_t encrypt(const struct randmap *m,
							       uint64_t x)
{
	uint64_t L = (x >> m->rbits) & m->lmask, R = x & m->rmask;

	L ^= round_f(R, m->key[0], m->key7[0], m->lshift);
	R ^= round_f(L, m->key[1], m->key7[1], m->rshift);
	L ^= round_f(R, m->key[2], m->key7[2], m->lshift);
	R ^= round_f(L, m->key[3], m->key7[3], m->rshift);
	return (L << m->rbits) | R;
}

static uint64_t decrypt(const struct randmap *m, uint64_t x)
{
	uint64_t L = (x >> m->rbits) & m->lmask, R = x & m->rmask;

	R ^= round_f(L, m->key[3], m->key7[3], m->rshift);
	L ^= round_f(R, m->key[2], m->key7[2], m->lshift);
	R ^= round_f(L, m->key[1], m->key7[1], m->rshift);
	L ^= round_f(R, m->key[0], m->key7[0], m->lshift);
	return (L << m->rbits) | R;
}

/* The rest of a walk whose first step landed at x >= n.  Apart, so that
 * the common one-step path reads the key schedule where it needs it: in
 * a loop, the compiler loads all of it into registers first (113
 * instructions per IO in randmap_at then, 82 now, callgrind). */
static __attribute__((noinline)) uint64_t randmap_walk(const struct randmap *m,
							uint64_t x, unsigned *walk)
{
	unsigned steps = 1;

	do {
		x = encrypt(m, x);
		steps++;
	} while (x >= m->n);
	if (walk)
		*walk = steps;
	return x;
}

uint64_t randmap_at(const struct randmap *m, uint64_t i, unsigned *walk)
{
	uint64_t x = encrypt(m, i < m->n ? i : i % m->n);

	if (__builtin_expect(x >= m->n, 0))
		return randmap_walk(m, x, walk);
	if (walk)
		*walk = 1;
	return x;
}

uint64_t randmap_inverse(const struct randmap *m, uint64_t y)
{
	uint64_t x = y < m->n ? y : y % m->n;

	do
		x = decrypt(m, x);
	while (x >= m->n);
	return x;
}
