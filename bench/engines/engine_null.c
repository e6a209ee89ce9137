/*
 * engine_null.c - completes every request at once without touching a file:
 * measures the runner's own per-IO overhead and lets tests run without
 * storage.  Requests are queued and handed back by the next reap(), like an
 * async engine, so batching is exercised too.  A device that takes time,
 * with a truth known from its keys, is engine_model.c's.
 */
#include "engine.h"
#include "engine_ops.h"

#include <errno.h>
#include <stdlib.h>

struct engine_ctx {
	unsigned depth, n;
	struct io_req **done;
};

static int null_init(struct engine_ctx **out, const struct engine_opts *o,
		     char *err, size_t errlen)
{
	(void)err, (void)errlen;
	struct engine_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->depth = o->depth ? o->depth : 1;
	c->done = calloc(c->depth, sizeof(*c->done));
	if (!c->done) {
		free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

static enum engine_queue null_queue(struct engine_ctx *c, struct io_req *r)
{
	if (c->n == c->depth)
		return ENGINE_Q_BUSY;
	r->result = (int)r->len;
	c->done[c->n++] = r;
	return ENGINE_Q_QUEUED;
}

static int null_reap(struct engine_ctx *c, unsigned min, unsigned max,
		     struct io_req **out, uint64_t deadline_ns)
{
	(void)min;
	(void)deadline_ns;
	unsigned n = c->n < max ? c->n : max;
	for (unsigned i = 0; i < n; i++)
		out[i] = c->done[c->n - n + i];
	c->n -= n;
	return (int)n;
}

static void null_release(struct engine_ctx *c)
{
	if (!c)
		return;
	free(c->done);
	free(c);
}

const struct engine engine_null = {
	.name = "null",
	.flags = ENGINE_BUILTIN | ENGINE_ASYNC | ENGINE_NO_IO,
	.init = null_init,
	.queue = null_queue,
	.commit = engine_commit_none,
	.reap = null_reap,
	.fsync = engine_fsync_none,
	.release = null_release,
};
