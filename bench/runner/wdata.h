/*
 * wdata.h - the bytes a job writes (data:): what its write buffers start
 * with, and the stamp that varies them per IO.  Inline: the stamp is in
 * the worker's hot path (worker.c), once per write.
 */
#ifndef IOMATRIX_WDATA_H
#define IOMATRIX_WDATA_H

#include <stdint.h>
#include <string.h>

#include "suite/cell.h"
#include "stats/prng.h"

/* The data a write buffer starts with: zeros, compress_pct % zeros per
 * 4 KiB, or random (data:). */
static inline void wdata_fill(const struct cell *c, struct prng *rng, char *buf,
			      uint64_t len)
{
	if (c->data == DATA_ZERO) {
		memset(buf, 0, len);
	} else if (c->data == DATA_COMPRESSIBLE) {
		/* per 4 KiB: the first compress_pct % zero, the rest random */
		for (uint64_t k = 0; k < len; k += 4096) {
			uint64_t seg = len - k < 4096 ? len - k : 4096;
			uint64_t z = seg * c->compress_pct / 100;
			memset(buf + k, 0, z);
			prng_fill(rng, buf + k + z, seg - z);
		}
	} else {
		prng_fill(rng, buf, len);
	}
}

/* Vary write buffers per IO so blocks never deduplicate: one 64-bit stamp
 * per 512-byte sector (random data) or per 4 KiB at the end of the random
 * tail (compressible data, keeps the zero share). */
static inline void wdata_stamp(const struct cell *c, struct prng *drng, char *buf,
			       uint64_t len)
{
	uint64_t v = prng_next(drng);
	if (c->data == DATA_RANDOM) {
		for (uint64_t k = 0; k + 8 <= len; k += 512) {
			uint64_t x = v ^ k;
			memcpy(buf + k, &x, 8);
		}
	} else if (c->data == DATA_COMPRESSIBLE && c->compress_pct < 100) {
		uint64_t seg = len < 4096 ? len : 4096;
		for (uint64_t k = seg; k <= len && seg >= 8; k += seg) {
			uint64_t x = v ^ k;
			memcpy(buf + k - 8, &x, 8);
		}
	}
}

#endif
