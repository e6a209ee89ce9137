/*
 * prng.h - the runner's reproducible PRNG: xoshiro256** seeded through
 * splitmix64 (one stream per job: seed + job index), plus a bias-free-enough
 * range reduction (Lemire's multiply-shift) for offsets.  Header-only so the
 * per-IO path inlines it.
 */
#ifndef IOMATRIX_PRNG_H
#define IOMATRIX_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

static inline uint64_t prng_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void prng_seed(struct prng *p, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		p->s[i] = prng_splitmix(&x);
}

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t r = prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return r;
}

/* Uniform in [0, n). */
static inline uint64_t prng_below(struct prng *p, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)prng_next(p) * n) >> 64);
}

/* Fill len bytes (any length) with random data. */
static inline void prng_fill(struct prng *p, void *buf, uint64_t len)
{
	unsigned char *b = buf;
	uint64_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t v = prng_next(p);
		__builtin_memcpy(b + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = prng_next(p);
		__builtin_memcpy(b + i, &v, len - i);
	}
}

#endif
