/*
 * offsets.h - where a random job's next IO goes (internal to the runner):
 * the block index from the cell's generator, behind one call so that the
 * worker's loop does not change with it.
 *
 *  - default (fio's random map): a keyed permutation of the blocks
 *    (stats/randmap.h), a new one per pass, walked by all the jobs of a
 *    repetition through one shared counter (one relaxed atomic add per
 *    IO), so that however fast each job goes, every block is read once
 *    per pass of the jobs together.
 *  - norandommap: uniform draws with replacement (1 - 1/e of the blocks
 *    in one pass's worth of IOs).
 *  - random_distribution other than random: a rank from the distribution
 *    (stats/randdist.h); zipf, pareto and normal ranks are scattered over
 *    the range by a fixed keyed permutation (fio hashes them), zoned ranks
 *    are positions.  fio keeps no map for these either.
 */
#ifndef IOMATRIX_OFFSETS_H
#define IOMATRIX_OFFSETS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/prng.h"
#include "stats/randdist.h"
#include "stats/randmap.h"
#include "suite/cell.h"

enum offsets_mode { OFFSETS_MAP, OFFSETS_UNIFORM, OFFSETS_DIST };

struct offsets {
	enum offsets_mode mode;
	uint64_t nblocks;
	uint64_t key;              /* pass keys and the scatter derive from it */
	_Atomic uint64_t *cursor;  /* OFFSETS_MAP: IOs of all jobs so far;
				    * NULL with one job (local_next) */
	uint64_t local_next;
	uint64_t pass, base;       /* the pass map is keyed for, its first IO */
	bool scatter;              /* OFFSETS_DIST: permute the rank */
	struct randmap map;        /* this pass's order, or the scatter */
	struct randdist_gen dist;
};

/* Set up the generator of one job: nblocks blocks of bs bytes in the file
 * set, cursor the repetition's shared count (zero at the start; NULL when
 * the job is alone), seed the repetition's seed.  0, or -1 with err filled in (zoned_abs zones that
 * do not fit). */
int offsets_init(struct offsets *o, const struct cell *c, uint64_t nblocks,
		 uint64_t bs, _Atomic uint64_t *cursor, uint64_t seed,
		 char *err, size_t errlen);

/* Key the map for pass p (a new permutation). */
void offsets_pass(struct offsets *o, uint64_t p);

/* The next block index in [0, nblocks); rng is the job's PRNG. */
static inline uint64_t offsets_next(struct offsets *o, struct prng *rng)
{
	switch (o->mode) {
	case OFFSETS_MAP: {
		uint64_t g = o->cursor ? atomic_fetch_add_explicit(o->cursor, 1,
					 memory_order_relaxed) : o->local_next++;
		if (g - o->base >= o->nblocks) /* g only grows: a later pass */
			offsets_pass(o, g / o->nblocks);
		return randmap_at(&o->map, g - o->base, NULL);
	}
	case OFFSETS_DIST: {
		uint64_t r = randdist_next(&o->dist, rng);
		return o->scatter ? randmap_at(&o->map, r, NULL) : r;
	}
	case OFFSETS_UNIFORM:
		break;
	}
	return prng_below(rng, o->nblocks);
}

#endif
