/*
 * engine_model.c - a model device: does no IO, and serves each request in
 * a time its keys set (engine_model.h), on the real clock.  So what a
 * report says about a device that behaves a given way can be checked
 * against a truth the keys alone give (docs/engines.md has the formulas).
 *
 * The device is one per repetition, shared by all its jobs (threads or
 * processes: its state lives in engine_opts.shared, a spin lock guards
 * it).  A request reaches it when queued; it starts at the latest of its
 * arrival, the first free server (model_parallel of them), the IOPS and
 * MB/s ceilings (each start holds the next one back by 1/iops and by
 * len/bw) and, for a write once model_write_buffer bytes were written in
 * the repetition, the sustained write rate (len/write_rate); it completes
 * one service time later.  The job is handed a request at its completion
 * time or later (it sleeps until then, in slices the worker bounds), with
 * that time (done_ns, ENGINE_DONE_TIME): the worker counts it by when the
 * device completed it, not by how late the job woke to take it; a
 * request not yet due at a stop or at the run's end is cancelled
 * (model_cancel), however far ahead the keys put it.  At an iodepth above
 * the servers the device has the next request queued, so its IOPS do not
 * depend on how late a busy machine wakes the job, while the job wakes
 * within what that queue lasts.
 */
#include "engine.h"
#include "engine_model.h"
#include "engine_ops.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "stats/prng.h"
#include "util/monotime.h"

/* The device of one repetition, in engine_opts.shared (zeroed by the
 * runner before the jobs start). */
struct model_state {
	int lock;
	int ready;                /* factor set (the first job's init) */
	double factor;            /* this repetition's noise: times service
				   * time and ceiling costs */
	uint64_t gate_ns;         /* the ceilings: no start before this */
	uint64_t wgate_ns;        /* the sustained write rate: likewise */
	uint64_t written;         /* bytes written in the repetition */
	uint64_t server_free[MODEL_MAX_PARALLEL];
};
_Static_assert(sizeof(struct model_state) <= ENGINE_SHARED_BYTES,
	       "the model's state fits the shared area");

struct inflight {
	struct io_req *r;
	uint64_t due;
};

struct engine_ctx {
	struct model_params p;
	struct model_state *st;
	struct prng rng;          /* service times, one stream per job */
	unsigned depth, n;
	struct inflight *q;
};

/* A job with no more requests in flight than the device has servers
 * (QD1 on one server) leaves a server idle from each completion until it
 * wakes and queues the next request: the IO's service starts when it is
 * submitted, as a real device's, so IOPS = J x Q / (L + W), W the job's
 * turnaround (docs/engines.md).  No spin makes W up: measured on this
 * 2-CPU VM (load 12, a probe sleeping to an absolute time at 1 ns of
 * timer slack) sleeps end 26 us late at p10, 35 us at p50, 0.8-3 ms at
 * p99, under SCHED_FIFO too.  A job that woke ahead and spun the rest
 * (the lead its sleeps' 99th percentile, up to 200 us) made 8,856-9,900
 * IOPS of 10,000 at 100 us only under chrt -f 50, for 90-100 % of a CPU,
 * and 3,174-6,952 under CFS (sleeping: 3,928-5,602); at 1 ms the lead
 * never fit and it slept (771-920 of 1,000 both ways).  So the job sleeps
 * to each completion. */

static void state_lock(struct model_state *st)
{
	while (__atomic_exchange_n(&st->lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void state_unlock(struct model_state *st)
{
	__atomic_store_n(&st->lock, 0, __ATOMIC_RELEASE);
}

/* uniform in (0, 1], 53 bits */
static double unit(struct prng *r)
{
	return (double)((prng_next(r) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

static double service_ns(struct engine_ctx *c)
{
	double m = (double)c->p.latency_ns;
	switch (c->p.dist) {
	case MODEL_EXPONENTIAL: return -m * log(unit(&c->rng));
	case MODEL_UNIFORM: return 2.0 * m * unit(&c->rng);
	default: return m;
	}
}

static void model_release(struct engine_ctx *c)
{
	if (!c)
		return;
	free(c->q);
	free(c);
}

static int model_init(struct engine_ctx **out, const struct engine_opts *o,
		      char *err, size_t errlen)
{
	(void)err, (void)errlen;
	if (!o->model || !o->shared)
		return -EINVAL;
	struct engine_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->p = *o->model;
	if (c->p.parallel < 1)
		c->p.parallel = 1;
	if (c->p.parallel > MODEL_MAX_PARALLEL)
		c->p.parallel = MODEL_MAX_PARALLEL;
	c->st = o->shared;
	c->depth = o->depth ? o->depth : 1;
	c->q = calloc(c->depth, sizeof(*c->q));
	if (!c->q) {
		model_release(c);
		return -ENOMEM;
	}
	prng_seed(&c->rng, o->seed ^ 0x6d6f64656cull);
	state_lock(c->st);
	if (!c->st->ready) {
		struct prng r;
		prng_seed(&r, o->noise_seed ^ 0x6e6f697365ull);
		double u = 2.0 * unit(&r) - 1.0;
		c->st->factor = pow(1.0 + c->p.noise_pct / 100.0, u);
		c->st->ready = 1;
	}
	state_unlock(c->st);
	/* the job sleeps until completion times: without the default 50 us
	 * of timer slack it wakes then, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1ul, 0ul, 0ul, 0ul);
	*out = c;
	return 0;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The request's completion time on the device (see the top). */
static uint64_t model_schedule(struct engine_ctx *c, const struct io_req *r,
			       uint64_t now)
{
	struct model_state *st = c->st;
	const struct model_params *p = &c->p;
	double svc = service_ns(c);

	state_lock(st);
	double f = st->factor;
	unsigned k = 0;
	for (unsigned i = 1; i < p->parallel; i++)
		if (st->server_free[i] < st->server_free[k])
			k = i;
	uint64_t start = max_u64(max_u64(now, st->server_free[k]), st->gate_ns);
	bool slow_write = r->write && p->write_rate && st->written >= p->write_buffer;
	if (slow_write)
		start = max_u64(start, st->wgate_ns);
	double cost = 0;
	if (p->iops)
		cost = 1e9 / (double)p->iops;
	if (p->bw && 1e9 * (double)r->len / (double)p->bw > cost)
		cost = 1e9 * (double)r->len / (double)p->bw;
	st->gate_ns = start + (uint64_t)(cost * f);
	if (slow_write)
		st->wgate_ns = start + (uint64_t)(1e9 * (double)r->len /
						  (double)p->write_rate * f);
	if (r->write)
		st->written += r->len;
	uint64_t due = start + (uint64_t)(svc * f);
	st->server_free[k] = due;
	state_unlock(st);
	return due;
}

/* The job's requests in flight are a binary heap by completion time
 * (c->q[0] the earliest): a reap hands them over in the order the device
 * completed them, as ENGINE_DONE_TIME promises the worker, which counts
 * each in the interval of its done_ns. */
static void model_heap_push(struct engine_ctx *c, struct io_req *r, uint64_t due)
{
	unsigned i = c->n++;
	while (i && c->q[(i - 1) / 2].due > due) {
		c->q[i] = c->q[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	c->q[i] = (struct inflight){ r, due };
}

static struct io_req *model_heap_pop(struct engine_ctx *c)
{
	struct io_req *top = c->q[0].r;
	struct inflight last = c->q[--c->n];
	unsigned i = 0;
	for (;;) {
		unsigned k = 2 * i + 1;
		if (k >= c->n)
			break;
		if (k + 1 < c->n && c->q[k + 1].due < c->q[k].due)
			k++;
		if (c->q[k].due >= last.due)
			break;
		c->q[i] = c->q[k];
		i = k;
	}
	if (c->n)
		c->q[i] = last;
	return top;
}

static enum engine_queue model_queue(struct engine_ctx *c, struct io_req *r)
{
	if (c->n == c->depth)
		return ENGINE_Q_BUSY;
	r->result = (int)r->len;
	r->done_ns = model_schedule(c, r, mono_ns());
	model_heap_push(c, r, r->done_ns);
	return ENGINE_Q_QUEUED;
}

static int model_commit(struct engine_ctx *c)
{
	(void)c;
	return 0;
}

/* Hand back what is due, up to max; sleep to the next completion while
 * fewer than min are, but not past the deadline. */
static int model_reap(struct engine_ctx *c, unsigned min, unsigned max,
		      struct io_req **out, uint64_t deadline_ns)
{
	unsigned n = 0;
	if (min > c->n)
		min = c->n;
	for (;;) {
		uint64_t now = mono_ns();
		while (c->n && n < max && c->q[0].due <= now)
			out[n++] = model_heap_pop(c);
		uint64_t next = c->n ? c->q[0].due : UINT64_MAX;
		if (n >= min || n == max || !c->n)
			break;
		if (deadline_ns && now >= deadline_ns)
			break;
		/* a deadline before the completion is only a look at a stop */
		mono_sleep_until(deadline_ns && deadline_ns < next ? deadline_ns : next);
	}
	return (int)n;
}

/* At a stop or the run's end: nothing the model holds is waited for. */
static int model_cancel(struct engine_ctx *c, unsigned max, struct io_req **out)
{
	unsigned n = 0;
	while (c->n && n < max) {
		struct io_req *r = c->q[--c->n].r;
		r->result = -ECANCELED;
		r->done_ns = 0;
		out[n++] = r;
	}
	return (int)n;
}

const struct engine engine_model = {
	.name = "model",
	.flags = ENGINE_BUILTIN | ENGINE_ASYNC | ENGINE_NO_IO | ENGINE_DONE_TIME,
	.init = model_init,
	.queue = model_queue,
	.commit = model_commit,
	.reap = model_reap,
	.cancel = model_cancel,
	.fsync = engine_fsync_none,
	.release = model_release,
};
