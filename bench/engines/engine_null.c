/*
 * engine_null.c - completes every request at once without touching a file:
 * measures the runner's own per-IO overhead and lets tests run without
 * storage.  Requests are queued and handed back by the next reap(), like an
 * async engine, so batching is exercised too.  IOMATRIX_NULL_LATENCY_US
 * makes the engine a device that serves one request at a time, each taking
 * that long: a request completes at max(its submission, the previous
 * completion) + the latency.  A known, storage-free throttle for tests of
 * compare and of the report; at iodepth > 1 the device always has the next
 * request queued, so its IOPS (1 / latency) do not depend on how late a busy
 * machine wakes the job (tests/integration/report/compare_null_throttle.sh).
 */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

struct engine_ctx {
	unsigned depth, n;
	struct io_req **done;
	uint64_t latency_ns;   /* 0: complete at once */
	uint64_t last_due;     /* completion time of the last request reaped */
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Requests complete in submission order, one latency after the later of
 * their submission and the previous completion; wait for the first when
 * fewer than min are due. */
static int null_reap_delayed(struct engine_ctx *c, unsigned min, unsigned max,
			     struct io_req **out)
{
	unsigned n = 0;
	for (;;) {
		uint64_t now = now_ns(), due = 0;
		while (n < max && n < c->n) {
			uint64_t start = c->done[n]->submit_ns;
			due = (start > c->last_due ? start : c->last_due) + c->latency_ns;
			if (due > now)
				break;
			out[n] = c->done[n];
			c->last_due = due;
			n++;
		}
		if (n >= min || n >= c->n)
			break;
		struct timespec ts = { (time_t)(due / 1000000000ull), (long)(due % 1000000000ull) };
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	for (unsigned i = n; i < c->n; i++)
		c->done[i - n] = c->done[i];
	c->n -= n;
	return (int)n;
}

static int null_init(struct engine_ctx **out, const struct engine_opts *o,
		     char *err, size_t errlen)
{
	(void)err, (void)errlen;
	struct engine_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->depth = o->depth ? o->depth : 1;
	const char *lat = getenv("IOMATRIX_NULL_LATENCY_US");
	if (lat && *lat)
		c->latency_ns = (uint64_t)strtoull(lat, NULL, 10) * 1000ull;
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

static int null_commit(struct engine_ctx *c)
{
	(void)c;
	return 0;
}

static int null_reap(struct engine_ctx *c, unsigned min, unsigned max,
		     struct io_req **out)
{
	if (c->latency_ns)
		return null_reap_delayed(c, min, max, out);
	(void)min;
	unsigned n = c->n < max ? c->n : max;
	for (unsigned i = 0; i < n; i++)
		out[i] = c->done[c->n - n + i];
	c->n -= n;
	return (int)n;
}

static int null_fsync(struct engine_ctx *c, int fd)
{
	(void)c;
	(void)fd;
	return 0;
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
	.commit = null_commit,
	.reap = null_reap,
	.fsync = null_fsync,
	.release = null_release,
};
