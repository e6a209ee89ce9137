/*
 * batch.c - batch.h: fio's submit and reap batch sizes of a cell.
 */
#include "batch.h"

unsigned batch_submit(const struct cell *c, unsigned depth)
{
	return c->iodepth_batch > depth ? depth : c->iodepth_batch;
}

void batch_reap_bounds(const struct cell *c, unsigned depth, bool issuing,
		       unsigned nfree, unsigned inflight, unsigned *min, unsigned *max)
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
