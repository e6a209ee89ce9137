/*
 * offsets.c - offsets.h: the random offset generator's set-up and passes.
 */
#include "offsets.h"

#include <stdio.h>
#include <string.h>

/* The key of pass p: every job of a repetition derives the same one. */
static uint64_t pass_key(uint64_t key, uint64_t pass)
{
	uint64_t x = key ^ (pass * 0xd6e8feb86659fd93ull);
	return prng_splitmix(&x);
}

void offsets_pass(struct offsets *o, uint64_t p)
{
	o->pass = p;
	o->base = p * o->nblocks;
	randmap_init(&o->map, o->nblocks, pass_key(o->key, p));
}

int offsets_init(struct offsets *o, const struct cell *c, uint64_t nblocks,
		 uint64_t bs, _Atomic uint64_t *cursor, uint64_t seed,
		 char *err, size_t errlen)
{
	struct randdist d;
	char why[240];

	memset(o, 0, sizeof(*o));
	o->nblocks = nblocks ? nblocks : 1;
	o->key = seed ^ 0x6f666673ull; /* "offs" */
	o->cursor = cursor;
	if (c->random_distribution) {
		if (randdist_parse(c->random_distribution, &d, why, sizeof(why)) < 0 ||
		    randdist_gen_init(&o->dist, &d, o->nblocks, bs, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s", why);
			return -1;
		}
		if (d.kind != RANDDIST_RANDOM) {
			o->mode = OFFSETS_DIST;
			o->scatter = d.kind != RANDDIST_ZONED && d.kind != RANDDIST_ZONED_ABS;
			randmap_init(&o->map, o->nblocks, pass_key(o->key, UINT64_MAX));
			return 0;
		}
	}
	if (c->norandommap) {
		o->mode = OFFSETS_UNIFORM;
		return 0;
	}
	o->mode = OFFSETS_MAP;
	offsets_pass(o, 0);
	return 0;
}
