/*
 * batch.h - fio's batching rules, the one place the runner computes them:
 * how many requests go to the kernel in one submit call (iodepth_batch)
 * and how many completions one reap waits for and takes
 * (iodepth_batch_complete_min/max).  The worker's loop and the engine
 * options it hands to the engine both read them from here, so the batch
 * the engine submits and the batch the loop stamps are the same number.
 * Inline: the reap bounds are computed once per reap, in the hot loop.
 */
#ifndef IOMATRIX_BATCH_H
#define IOMATRIX_BATCH_H

#include <stdbool.h>

#include "suite/cell.h"

/* Requests per submit call for c at depth slots per job: fio caps
 * iodepth_batch at iodepth; 0 (fio's default: iodepth) means everything
 * queued, and stays 0. */
static inline unsigned batch_submit(const struct cell *c, unsigned depth)
{
	return c->iodepth_batch > depth ? depth : c->iodepth_batch;
}

/*
 * The completions one reap waits for (*min) and takes at most (*max):
 * max is iodepth_batch_complete_max when set and below depth, else depth;
 * min is iodepth_batch_complete_min, at most what is in flight and at most
 * max.  As in fio, a full queue (nfree 0) waits for at least one even
 * with min 0, and so does a job that has stopped issuing (it only drains).
 */
static inline void batch_reap_bounds(const struct cell *c, unsigned depth, bool issuing,
				     unsigned nfree, unsigned inflight, unsigned *min,
				     unsigned *max)
{
	*max = c->iodepth_batch_complete_max && c->iodepth_batch_complete_max < depth ?
	       c->iodepth_batch_complete_max : depth;
	*min = c->iodepth_batch_complete_min < inflight ? c->iodepth_batch_complete_min
							: inflight;
	if (*min > *max)
		*min = *max;
	if (!*min && (!nfree || !issuing))
		*min = 1;
}

#endif
