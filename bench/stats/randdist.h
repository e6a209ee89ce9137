/*
 * randdist.h - fio's random_distribution values (random, zipf:θ, pareto:h,
 * normal:σ, zoned:a/r:..., zoned_abs:a/size:...): the parser with fio's
 * syntax and limits, the canonical text, and a sampler of ranks in [0, n).
 * Pure: no IO, no allocation; the math is in randdist.c.
 */
#ifndef IOMATRIX_RANDDIST_H
#define IOMATRIX_RANDDIST_H

#include <stddef.h>
#include <stdint.h>

#include "prng.h"

enum randdist_kind {
	RANDDIST_RANDOM,    /* uniform (the random map applies) */
	RANDDIST_ZIPF,      /* P(rank k) ~ 1/k^θ, θ > 0, θ != 1 */
	RANDDIST_PARETO,    /* share 1-h of the IOs on share h of the blocks */
	RANDDIST_NORMAL,    /* σ in percent of the range, around its middle */
	RANDDIST_ZONED,     /* a% of the IOs on the next r% of the range */
	RANDDIST_ZONED_ABS, /* a% of the IOs on the next `size` bytes */
};

#define RANDDIST_MAX_ZONES 16
#define RANDDIST_TEXT_MAX 256 /* canonical text, NUL included */

struct randdist {
	enum randdist_kind kind;
	double param;                 /* θ, h or σ */
	unsigned nzones;
	double access_pct[RANDDIST_MAX_ZONES];
	double range_pct[RANDDIST_MAX_ZONES];     /* zoned */
	uint64_t range_bytes[RANDDIST_MAX_ZONES]; /* zoned_abs */
};

/* Parse s into d.  0, or -1 with why filled in (lower-case, says the range
 * and an example: "zipf:0: θ must be above 0 and not 1 (e.g. zipf:1.2)"). */
int randdist_parse(const char *s, struct randdist *d, char *why, size_t whylen);

/* The canonical text of d ("zipf:1.2", "zoned:60/10:40/90"), which
 * randdist_parse reads back to the same d; fio reads it too. */
void randdist_format(const struct randdist *d, char *buf, size_t len);

/* A sampler of ranks in [0, n) (rank 0 the hottest for zipf and pareto;
 * for normal and the zoned kinds the rank is a position in the range). */
struct randdist_gen {
	enum randdist_kind kind;
	uint64_t n;
	double theta, h_x1, h_n, s;   /* zipf: rejection-inversion constants */
	double pow;                   /* pareto */
	double mean, sd;              /* normal, in blocks */
	unsigned nzones;
	double cum[RANDDIST_MAX_ZONES];         /* zoned: cumulative access, 0..1 */
	uint64_t start[RANDDIST_MAX_ZONES], len[RANDDIST_MAX_ZONES];
};

/* Do d's zones fit in n blocks of bs bytes?  Only zoned_abs has zones of
 * a size: what the zones cover must be addressed.  The suite loader asks
 * with the most a cell can address, the runner with what it does address,
 * before any IO.  0, or -1 with why filled in. */
int randdist_zones_fit(const struct randdist *d, uint64_t n, uint64_t bs, char *why,
		       size_t whylen);

/* Prepare a sampler of d over n blocks of bs bytes.  0, or -1 with why
 * filled in (zoned_abs zones that do not fit in the n blocks). */
int randdist_gen_init(struct randdist_gen *g, const struct randdist *d,
		      uint64_t n, uint64_t bs, char *why, size_t whylen);

/* One rank in [0, n). */
uint64_t randdist_next(const struct randdist_gen *g, struct prng *p);

/* Uniform double in [0, 1) from 53 random bits. */
static inline double randdist_unit(struct prng *p)
{
	return (double)(prng_next(p) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
