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
 * (model_cancel), however far ahead the keys put it.  At an iodepth above the servers
 * the device always has the next request queued, so its IOPS do not
 * depend on how late a busy machine wakes the job.
 */
#include "engine.h"
#include "engine_model.h"

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
	double late_p99;          /* how late this job's sleeps end, their
				   * 99th percentile as it goes (model_sleep_to) */
};

/* A job that has fewer requests in flight than the device has servers
 * leaves a server idle from a completion until it queues the next
 * request, so how late it wakes is lost device time: a one-server 100 us
 * device at QD1 made 6,700-7,500 IOPS at 132-149 us, not 10,000 at 100 us
 * (a wake-up late by the scheduler is lost service).  Measured here (clock_nanosleep to an absolute time,
 * timer slack 1 ns, a 2-CPU VM): sleeps end 30 us late at p10, 39 us at
 * p50, 144 us at p90 at load 10.  Such a job sleeps until a lead before
 * the completion, as far ahead as its sleeps have been late (their 99th
 * percentile + 2 us, learnt as it goes: every wake after the completion
 * is device time lost, so the lead covers nearly all of them), and spins
 * the rest, at most MODEL_SPIN_MAX_NS a wait, which bounds the CPU it
 * burns: at 100 us and QD1 it spins nearly all the time (a 90th
 * percentile spun half of it and made 8,900 IOPS of 10,000).  A job with
 * the device's queue full of its requests sleeps as before: the device
 * serves the next one meanwhile; so does a job whose sleeps end later
 * than that bound, on a machine too busy for a spin to make up for it. */
#define MODEL_SPIN_MAX_NS 200000.0
#define MODEL_LEAD_PAD_NS 2000.0
#define MODEL_LATE_STEP_NS 500.0 /* the percentile's step per sleep */

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
	c->late_p99 = 50000; /* a guess the first sleeps correct */
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

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Sleep until `until`; with spin, wake the learnt lead before it and spin
 * to it (see MODEL_SPIN_MAX_NS).  A lead past that bound means the machine
 * wakes the job later than any spin could make up for (a loaded machine):
 * it then sleeps as before, and learns on, so that it spins again once the
 * machine is quiet.  A signal may end a sleep early: the caller looks
 * again. */
static void model_sleep_to(struct engine_ctx *c, uint64_t until, bool spin)
{
	double lead = c->late_p99 + MODEL_LEAD_PAD_NS;
	if (!spin || lead > MODEL_SPIN_MAX_NS)
		lead = 0;
	uint64_t now = mono_ns();
	if (now >= until)
		return;
	if ((double)(until - now) > lead) {
		uint64_t at = until - (uint64_t)lead;
		struct timespec ts = { (time_t)(at / 1000000000ull),
				       (long)(at % 1000000000ull) };
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) || !spin)
			return;
		now = mono_ns();
		/* up 99 steps when later than the estimate, down 1 when not:
		 * it settles where 1 % of the sleeps end later */
		double late = now > at ? (double)(now - at) : 0;
		c->late_p99 += late > c->late_p99 ? 99 * MODEL_LATE_STEP_NS : -MODEL_LATE_STEP_NS;
		if (c->late_p99 < 0)
			c->late_p99 = 0;
	}
	while (lead > 0 && now < until) {
		cpu_relax();
		now = mono_ns();
	}
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
		if (deadline_ns && deadline_ns < next)
			model_sleep_to(c, deadline_ns, false);
		else
			model_sleep_to(c, next, c->n <= c->p.parallel);
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

static int model_fsync(struct engine_ctx *c, int fd)
{
	(void)c;
	(void)fd;
	return 0;
}

const struct engine engine_model = {
	.name = "model",
	.flags = ENGINE_BUILTIN | ENGINE_ASYNC | ENGINE_NO_IO | ENGINE_DONE_TIME,
	.init = model_init,
	.queue = model_queue,
	.commit = model_commit,
	.reap = model_reap,
	.cancel = model_cancel,
	.fsync = model_fsync,
	.release = model_release,
};
