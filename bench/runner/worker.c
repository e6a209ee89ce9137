/*
 * worker.c - the per-job IO loop: fill every free slot, submit the batch in
 * one commit (iodepth_batch per submit call), reap what is done
 * (iodepth_batch_complete_min/max), account it.  The hot path takes one
 * clock reading per submitted batch and one per reaped batch (as fio does
 * for completions), allocates nothing and takes no lock.
 *
 * Why CLOCK_MONOTONIC and not a TSC clock: measured here (make bench,
 * clock_cost and clock_count) a vDSO reading costs 33 ns of CPU and rdtsc
 * 13 ns, but at QD32 iomatrix takes 0.06 readings per IO on zram libaio
 * (2 ns of ~3.3 us of CPU per IO) and 0.6 on io_uring (20 ns of ~2 us): a
 * cheaper clock cannot move those numbers.  Only the null engine at QD1
 * (2 readings per IO, most of its ~100 ns) would gain, and that measures
 * nothing a user stores.  (Those counts predate one reading per submitted
 * batch: with the default batch of 1 a job now takes about one
 * reading per IO, 33 ns of some 3 us of CPU per IO on zram, still ~1 %.)
 */
#include "worker.h"
#include "batch.h"
#include "wdata.h"
#include "util/testhook.h"
#include "util/monotime.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* A rated job with IOs in flight and the next intended start ahead waits
 * in the engine's reap for a completion, until that start (engine.h, reap's
 * deadline): io_getevents with a timeout, io_uring's EXT_ARG wait, and for
 * psync the IO itself.  Each completion is then timed when the kernel
 * hands it over.  (It used to poll with a non-blocking reap and sleep
 * 20-200 us between polls; libaio's non-blocking reap never called
 * io_getevents, so completions waited until every slot was in flight:
 * 76 ms mean at rate 100 QD32 on zram where fio measures 20 us, issue
 * 30.)  Idle, or waiting, the job wakes at least every RATE_IDLE_NS to see
 * a stop. */
#define RATE_IDLE_NS 10000000ull
/* Every wait ends by the earliest of its deadline, the run's end and a
 * stop request (DESIGN.md, "Every run stops on time").  A job whose engine
 * holds its requests itself (engine.h, cancel: the model) waits in slices
 * of at most WAIT_SLICE_NS, and at the run's end or a stop cancels what
 * is in flight: model_bw: 1 put one 4K IO 4,096 s after the previous one,
 * and the job slept until then through its runtime, SIGINT and SIGTERM
 * (it took SIGKILL).  100 ms, as the runner's own poll of the stop flag: a stop
 * reaches such a job within 0.2 s; a service time under 100 ms costs no
 * extra wake. */
#define WAIT_SLICE_NS 100000000ull
#define ACC_FOLD (1u << 20) /* keeps the integer moments far from overflow */
/* make bench's iomatrix without per-interval histograms (Makefile,
 * iomatrix-noivhist): the interval check stays (the series is counted by
 * it), no interval's histogram is closed, none is written */
#ifdef IOMATRIX_NO_IVHIST
#define WORKER_NO_IVHIST 1
#else
#define WORKER_NO_IVHIST 0
#endif

struct slot {
	struct io_req req;
	uint64_t intended;     /* rated: the IO's intended start */
	unsigned file;
};

/* usr+sys CPU time of the calling thread in ns: what the job itself costs
 * (kernel helper threads such as io-wq or SQPOLL are not in it). */
static uint64_t thread_cpu_ns(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

static void acc_reset(struct lat_acc *a)
{
	memset(a, 0, sizeof(*a));
	a->min = UINT64_MAX;
}

/* Fold the exact integer sums of a block into the running Welford state. */
static void acc_fold(struct lat_acc *a, struct welford *w)
{
	if (!a->n)
		return;
	struct welford b;
	b.n = a->n;
	b.mean = (double)a->sum / (double)a->n;
	unsigned __int128 num = (unsigned __int128)a->n * a->sumsq -
				(unsigned __int128)a->sum * a->sum;
	b.m2 = (double)num / (double)a->n;
	b.min = a->min;
	b.max = a->max;
	welford_merge(w, &b);
	acc_reset(a);
}

/* One measured latency: histogram bucket and exact integer moments (the
 * histogram total is set once at the end), folded into Welford every
 * ACC_FOLD. */
static inline void lat_record(struct job *j, unsigned d, uint64_t lat)
{
	struct lat_acc *a = &j->acc[d];
	j->hist[d]->count[hist_index(lat)]++;
	a->n++;
	a->sum += lat;
	a->sumsq += (unsigned __int128)lat * lat;
	if (lat < a->min)
		a->min = lat;
	if (lat > a->max)
		a->max = lat;
	if (a->n >= ACC_FOLD)
		acc_fold(a, &j->lat[d]);
}

/* The latency of a completed request: submit to completion; rated, from
 * its intended start (response), with the service latency kept beside. */
static inline uint64_t lat_measure(struct job *j, const struct slot *s,
				   unsigned d, uint64_t now, bool rated)
{
	uint64_t svc = now - s->req.submit_ns;
	if (!rated)
		return svc;
	hist_add(j->svc_hist[d], svc);
	welford_add(&j->svc_lat[d], (double)svc);
	return now - s->intended;
}

static void job_fail(struct job *j, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void job_fail(struct job *j, int err, const char *fmt, ...)
{
	if (!j->err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(j->errmsg, sizeof(j->errmsg), fmt, ap);
		va_end(ap);
		j->err = err < 0 ? err : -EIO;
	}
	atomic_store(&j->sh->stop, 1);
}

/* A request that failed or moved fewer bytes than asked: stop the job. */
static void io_failed(struct job *j, const struct io_req *r, unsigned file)
{
	int e = r->result < 0 ? r->result : -EIO;
	job_fail(j, e, "%s error at offset %" PRIu64 " of '%s': %s",
		 r->write ? "write" : "read", r->offset, j->sh->t->paths[file],
		 r->result < 0 ? strerror(-e) : "short transfer");
}

/* Account n measured completions of direction d at `now` (their latencies
 * are already in the histogram), in interval iv of the series (the open
 * one, interval_roll): counters, time series.  Shared by synchronous
 * engines (one at a time) and reaped batches. */
static inline void account(struct job *j, unsigned d, uint64_t now, uint64_t t0,
			   size_t iv, uint64_t n, uint64_t bs, uint64_t lat_sum)
{
	j->ios[d] += n;
	j->bytes[d] += n * bs;
	j->end_ns = now;
	series_add_at(&j->series[d], iv, now - t0, n, n * bs, lat_sum);
}

/* The engine options of this job: the cell's batching and io_uring keys,
 * its files and its slot buffers (slot i uses bufs + i * bs). */
static void job_engine_opts(struct job *j, struct engine_opts *o)
{
	const struct rep_shared *sh = j->sh;
	const struct cell *c = sh->c;
	engine_opts_init(o);
	o->depth = sh->depth;
	o->fds = j->fds;
	o->nfds = sh->t->nfiles;
	o->bufs = j->bufs;
	o->buf_size = sh->bs;
	o->batch = batch_submit(c, sh->depth);
	o->userspace_reap = c->userspace_reap;
	o->submit_and_wait = c->submit_and_wait;
	o->registerfiles = c->registerfiles;
	o->fixedbufs = c->fixedbufs;
	o->sqthread_poll = c->sqthread_poll;
	o->sqthread_poll_cpu = c->sqthread_poll_cpu;
	o->hipri = c->hipri;
	o->nonvectored = c->nonvectored;
	o->model = &c->model;
	o->shared = j->sh->eng_shared;
	o->seed = sh->seed ^ ((uint64_t)(j->idx + 1) << 48);
	/* the model's noise differs between repetitions, randrepeat or not */
	uint64_t x = c->seed ^ ((uint64_t)(sh->rep + 1) << 32);
	o->noise_seed = prng_splitmix(&x);
	if (sh->trace_fd >= 0) {
		o->on_submit = jobtrace_submit;
		o->on_submit_arg = &j->trace;
	}
}

/* Start the job's engine context; NULL with the job failed when the engine
 * refuses (the message names the option at fault, or the policy fix). */
static struct engine_ctx *job_engine_start(struct job *j)
{
	const struct engine *eng = j->sh->eng;
	struct engine_opts o;
	struct engine_ctx *ctx = NULL;
	char why[320] = "";
	job_engine_opts(j, &o);
	int ret = eng->init(&ctx, &o, why, sizeof(why));
	if (ret >= 0)
		return ctx;
	bool policy = ret == -EPERM || ret == -ENOSYS;
	if (*why)
		job_fail(j, ret, "engine '%s' cannot start: %s", eng->name, why);
	else
		job_fail(j, ret, "engine '%s' cannot start: %s; %s", eng->name,
			 strerror(-ret), policy && eng->refused_hint ? eng->refused_hint
			 : "try another engine (libaio, psync)");
	return NULL;
}

/* One job's loop state: the slots, what is in flight, the request tokens
 * it holds, and the copies of the shared values the hot path reads. */
struct wloop {
	struct job *j;
	struct rep_shared *sh;
	const struct cell *c;
	const struct target *t;
	const struct engine *eng;
	struct engine_ctx *ctx;
	struct slot *slots;
	unsigned *freeidx;
	struct io_req **done;
	uint64_t t0, budget, bs, bpf, nblocks, chunk, tokens;
	uint64_t t_end;            /* the run's end; UINT64_MAX: none (one pass) */
	uint64_t off0;             /* the target's offset (target.offset) */
	uint64_t iv_ns, iv_end;    /* the series' interval; the end of the open
				    * one, from t0 */
	size_t iv_at;              /* the open interval */
	uint64_t live_ios;
	unsigned depth, nfiles, rwmix, nfree, inflight;
	unsigned batch;            /* requests per submit call, 0: all queued */
	bool random, mixed, writes, tracing, stamping, seq_shared;
	bool issuing, fsync_due;
	bool limited;              /* a pass quota or a request budget */
	bool sb;                   /* sysbench_fsync_freq */
	bool rare;                 /* prepare_rare has work: writes with a
				    * stamp or an fsync count, tracing, sb */
	bool rated;                /* a rate: latency from the intended start */
	bool paced;                /* sb or rated: issue() looks before each IO */
	bool cancels;              /* the engine can cancel (engine.h): every
				    * wait bounded, nothing waited for at the
				    * end or a stop */
	bool done_time;            /* ENGINE_DONE_TIME: counted by done_ns */
	unsigned long hook_wait, waits; /* test hook "wait" (testhook.h): job
					 * 0's waits so far, the one to fire at */
	struct prng drng;          /* write-buffer stamps (after the hot fields) */
	struct rate_gen rate;      /* rated: intended starts */
};

/*
 * The first measured completion at or past the end of the open interval
 * (t ns after t0): close that interval's histograms, what the repetition's
 * histograms gained while it was open, and the empty intervals up to the
 * one t falls in (ivhist.h).  Called before the latencies completing
 * at t are counted: one compare per reaped batch in the hot path, a pass
 * over the buckets once per interval.
 */
static void interval_roll(struct wloop *L, uint64_t t)
{
	struct job *j = L->j;
	struct rep_shared *sh = L->sh;
	size_t at = (size_t)(t / L->iv_ns);

	for (int d = 0; d < DIR__COUNT && !WORKER_NO_IVHIST; d++) {
		struct ivhist *hs = &j->series[d].hist;
		if (!j->hist[d])
			continue;
		if (sh->ivacc) {
			/* threads: into the repetition's intervals, where the
			 * other jobs' go (the empty ones need nothing) */
			size_t k = ivhist_diff(j->iv_snap[d], j->hist[d], j->iv_idx, j->iv_cnt);
			pthread_mutex_lock(&sh->iv_lock);
			int rc = ivacc_add(&sh->ivacc[d], j->idx, L->iv_at, at, j->iv_idx,
					   j->iv_cnt, k);
			pthread_mutex_unlock(&sh->iv_lock);
			if (rc < 0)
				goto oom;
			continue;
		}
		if (ivhist_close(hs, j->iv_snap[d], j->hist[d]) < 0)
			goto oom;
		while (hs->n < at)
			if (ivhist_push(hs, NULL, NULL, 0) < 0)
				goto oom;
	}
	L->iv_end = ((uint64_t)at + 1) * L->iv_ns;
	L->iv_at = at;
	/* the test hook's time is a whole number of intervals: the first
	 * completion past it rolls the interval */
	if (j->hook_ns && t >= j->hook_ns) {
		testhook_fire("interval", j->hook_ns / L->iv_ns);
		j->hook_ns = 0;
	}
	return;
oom:
	job_fail(j, -ENOMEM, "out of memory for the interval histograms");
	L->issuing = false;
	L->iv_end = UINT64_MAX;
}

/* After the last completion: the open interval closes, and a direction
 * whose last IO came earlier keeps only the intervals its series has (the
 * trailing ones are empty; with threads the runner cuts the repetition's
 * to its series). */
static void interval_finish(struct wloop *L)
{
	struct job *j = L->j;
	struct rep_shared *sh = L->sh;

	for (int d = 0; d < DIR__COUNT && !WORKER_NO_IVHIST; d++) {
		struct ivhist *hs = &j->series[d].hist;
		int rc = 0;
		if (!j->hist[d])
			continue;
		if (sh->ivacc) {
			size_t k = ivhist_diff(j->iv_snap[d], j->hist[d], j->iv_idx, j->iv_cnt);
			pthread_mutex_lock(&sh->iv_lock);
			rc = ivacc_add(&sh->ivacc[d], j->idx, L->iv_at, SIZE_MAX, j->iv_idx,
				       j->iv_cnt, k);
			pthread_mutex_unlock(&sh->iv_lock);
		} else if (hs->n < j->series[d].n) {
			rc = ivhist_close(hs, j->iv_snap[d], j->hist[d]);
		}
		if (rc < 0) {
			job_fail(j, -ENOMEM, "out of memory for the interval histograms");
			continue;
		}
		ivhist_truncate(hs, j->series[d].n);
	}
}

/* May one more IO issued at ts be issued (time, pass quota, request
 * budget)?  Takes its quota/token when it is a counted one. */
static inline bool may_issue(struct wloop *L, uint64_t ts, bool counted)
{
	struct job *j = L->j;

	if (ts >= L->t_end) {
		j->timed_out = true;
		return false;
	}
	if (!counted || !L->limited)
		return true;
	if (j->quota != UINT64_MAX && !j->quota)
		return false;
	if (L->budget && !L->tokens) {
		uint64_t old = atomic_fetch_add(&L->sh->claimed, L->chunk);
		L->tokens = old >= L->budget ? 0 :
			(L->budget - old < L->chunk ? L->budget - old : L->chunk);
		if (!L->tokens)
			return false;
	}
	if (j->quota != UINT64_MAX)
		j->quota--;
	if (L->budget)
		L->tokens--;
	return true;
}

/*
 * sysbench_fsync_freq, as sysbench's fileio does it (sb_fileio.c,
 * file_get_rnd_request/file_get_seq_request, 1.0.20): one request counter
 * for all threads; once it reaches a multiple of N with a write since the
 * last round, the next num_files requests, whichever threads ask, are
 * fsyncs, one per file in turn.  Counting: every issued request.
 */
static void sb_fsync_count(struct wloop *L, bool w)
{
	struct rep_shared *sh = L->sh;
	if (w)
		atomic_store_explicit(&sh->sb_dirty, true, memory_order_relaxed);
	uint64_t n = atomic_fetch_add(&sh->sb_reqs, 1) + 1;
	if (n % L->c->sysbench_fsync_freq == 0 && atomic_exchange(&sh->sb_dirty, false))
		atomic_fetch_add(&sh->sb_left, (int64_t)L->nfiles);
}

/* Take one fsync of the round in progress, if there is one, in place of
 * the next request: true when this job now has an fsync due. */
static bool sb_fsync_claim(struct wloop *L)
{
	struct rep_shared *sh = L->sh;
	int64_t left = atomic_load_explicit(&sh->sb_left, memory_order_relaxed);
	while (left > 0) {
		if (atomic_compare_exchange_weak(&sh->sb_left, &left, left - 1)) {
			unsigned f = (unsigned)(atomic_fetch_add(&sh->sb_file, 1) % L->nfiles);
			L->j->fsync_due[f] = true;
			L->fsync_due = true;
			return true;
		}
	}
	return false;
}

/* What prepare_req does for a write or a traced request beyond filling
 * it in: the buffer's stamp, the trace line, the fsync counts (L->rare
 * says whether any applies, one test per IO where none does). */
static void prepare_rare(struct wloop *L, struct slot *s, bool w)
{
	struct job *j = L->j;
	struct io_req *r = &s->req;
	unsigned f = s->file;

	if (w && L->stamping)
		wdata_stamp(L->c, &L->drng, r->buf, L->bs);
	if (L->tracing)
		jobtrace_request(&j->trace, r);
	if (w && L->c->fsync && ++j->wcount[f] >= L->c->fsync) {
		j->wcount[f] = 0;
		j->fsync_due[f] = true;
		L->fsync_due = true;
	}
	if (w && L->c->fdatasync && ++j->dcount[f] >= L->c->fdatasync) {
		j->dcount[f] = 0;
		j->datasync_due[f] = true;
		L->fsync_due = true;
	}
	if (L->sb)
		sb_fsync_count(L, w);
}

/* Fill slot s with the next request (block, direction, file), submitted
 * at ts; prepare_rare does the rest where it applies. */
static inline void prepare_req(struct wloop *L, struct slot *s, uint64_t ts)
{
	struct job *j = L->j;
	struct io_req *r = &s->req;
	uint64_t blk;

	if (L->random) {
		blk = offsets_next(&j->offs, &j->rng);
	} else if (L->seq_shared) {
		/* sysbench's seq modes: every job takes the next block of
		 * one stream, file after file, then from the start again */
		blk = atomic_fetch_add_explicit(&L->sh->seq_cursor, 1,
						memory_order_relaxed) % L->nblocks;
	} else {
		blk = j->cursor++;
		if (j->cursor >= j->slice_hi)
			j->cursor = j->slice_lo;
	}
	bool w = L->writes;
	if (L->mixed)
		w = prng_below(&j->rng, 100) >= L->rwmix;
	unsigned f = 0;
	if (L->nfiles > 1) {
		f = (unsigned)(blk / L->bpf);
		blk -= (uint64_t)f * L->bpf;
	}
	s->file = f;
	r->fd = j->fds[f];
	r->file = f;
	r->write = w;
	r->offset = L->off0 + blk * L->bs;
	r->submit_ns = ts;
	if (L->rare)
		prepare_rare(L, s, w);
}

/* A request a synchronous engine completed inside queue(). */
static inline void sync_done(struct wloop *L, unsigned si, uint64_t now)
{
	struct job *j = L->j;
	struct io_req *r = &L->slots[si].req;
	unsigned d = r->write ? DIR_WRITE : DIR_READ;

	L->freeidx[L->nfree++] = si;
	L->live_ios++;
	if (L->tracing)
		jobtrace_data(&j->trace, r);
	if (r->result != (int)L->bs) {
		io_failed(j, r, L->slots[si].file);
		L->issuing = false;
		return;
	}
	if (now >= L->t0) {
		if (now - L->t0 >= L->iv_end)
			interval_roll(L, now - L->t0);
		uint64_t lat = lat_measure(j, &L->slots[si], d, now, L->rated);
		lat_record(j, d, lat);
		account(j, d, now, L->t0, L->iv_at, 1, L->bs, lat);
	}
	atomic_store_explicit(&j->live_ios, L->live_ios, memory_order_relaxed);
}

/* Issue requests into the free slots until none is free, a stop rule
 * holds, an fsync is due or the engine is full; then commit. */
static void issue(struct wloop *L)
{
	struct job *j = L->j;
	uint64_t ts = mono_ns();
	/* requests until a submit (batch 0: all queued, never reached) */
	unsigned queued = 0, left = L->batch ? L->batch : UINT_MAX;
	bool stale = false;                   /* ts is before that submit */

	if (j->ru_pending && ts >= L->t0) {
		getrusage(RUSAGE_SELF, &j->ru_t0);
		j->ru_pending = false;
	}

	while (L->nfree) {
		if (stale) {
			ts = mono_ns();
			stale = false;
		}
		/* an IO issued after the ramp takes a request token; the
		 * statistics go by completion time (reap(), sync_done()): an
		 * IO that completes after the ramp is measured, as fio resets
		 * its statistics when the ramp ends */
		bool counted = ts >= L->t0;
		if (__builtin_expect(L->paced, 0)) {
			if (L->sb && sb_fsync_claim(L))
				break;
			/* rated: not before the intended start; when behind, at once */
			if (L->rated && L->rate.next_ns > ts && ts < L->t_end)
				break;
		}
		if (!may_issue(L, ts, counted)) {
			L->issuing = false;
			break;
		}
		unsigned si = L->freeidx[--L->nfree];
		struct slot *s = &L->slots[si];
		if (L->rated) /* its latency runs from there (lat_measure) */
			s->intended = L->rate.next_ns;
		prepare_req(L, s, ts);
		enum engine_queue q = L->eng->queue(L->ctx, &s->req);
		if (L->rated && q != ENGINE_Q_BUSY) /* that start is taken */
			rate_gen_take(&L->rate);
		if (q == ENGINE_Q_QUEUED) {
			queued++;
			L->inflight++;
			/* the engine submitted the full batch inside queue():
			 * the next request starts after it, as fio stamps each
			 * IO before its submit call (one reading per batch,
			 * taken when there is a next request) */
			if (!--left) {
				left = L->batch;
				stale = true;
			}
		} else if (q == ENGINE_Q_COMPLETED) {
			uint64_t now = mono_ns();
			sync_done(L, si, now);
			if (!L->issuing)
				break;
			ts = now;
			if (atomic_load_explicit(&L->sh->stop, memory_order_relaxed)) {
				L->issuing = false;
				break;
			}
		} else {
			/* engine full although a slot was free: reap first */
			L->freeidx[L->nfree++] = si;
			if (counted) {
				if (j->quota != UINT64_MAX)
					j->quota++;
				if (L->budget)
					L->tokens++;
			}
			break;
		}
		if (L->fsync_due)
			break;
	}
	if (queued) {
		int ret = L->eng->commit(L->ctx);
		if (ret < 0) {
			job_fail(j, ret, "cannot submit IO to '%s': %s",
				 L->t->paths[0], strerror(-ret));
			L->issuing = false;
		}
	}
}

/* fsync (the engine's), or fdatasync of file f; -errno.  The engines'
 * fsync is the plain syscall, so fdatasync is called here, except for an
 * engine that does no IO. */
static int sync_file(struct wloop *L, unsigned f, bool data)
{
	if (!data || (L->eng->flags & ENGINE_NO_IO))
		return L->eng->fsync(L->ctx, L->j->fds[f]);
	return fdatasync(L->j->fds[f]) < 0 ? -errno : 0;
}

/* With nothing in flight: fsync or fdatasync every file whose count came
 * due. */
static void fsync_due_files(struct wloop *L)
{
	struct job *j = L->j;

	for (unsigned f = 0; f < L->nfiles; f++) {
		for (int data = 0; data < 2; data++) {
			bool *due = data ? &j->datasync_due[f] : &j->fsync_due[f];
			if (!*due)
				continue;
			*due = false;
			int ret = sync_file(L, f, data);
			if (ret < 0) {
				job_fail(j, ret, "cannot %s '%s': %s", data ? "fdatasync" :
					 "fsync", L->t->paths[f], strerror(-ret));
				L->issuing = false;
			}
		}
	}
	L->fsync_due = false;
}

/* The end of a wait that an engine which cancels may make (see
 * WAIT_SLICE_NS): a slice from now, or the run's end if sooner. */
static uint64_t wait_bound(const struct wloop *L, uint64_t now)
{
	uint64_t end = now + WAIT_SLICE_NS;
	if (L->t_end > now && L->t_end < end)
		end = L->t_end;
	return end;
}

/* Test hook "wait": job 0 is about to wait for a completion or an
 * intended start, the Nth time (the run is in its IO, not a layout or a
 * cooldown). */
static inline void wait_hook(struct wloop *L)
{
	if (L->hook_wait && ++L->waits == L->hook_wait) {
		testhook_fire("wait", L->hook_wait);
		L->hook_wait = 0;
	}
}

/*
 * A request whose engine says when the device completed it (done_ns,
 * ENGINE_DONE_TIME: the model) is counted by that time, however late the
 * job reaped it: not when it completed in the ramp, nor past the run's
 * end (as one cancelled there), and in the interval it completed in.  By
 * the reap's clock a loaded machine's late wake counted a queue of IOs
 * done in the ramp, or after the end, in the window: 2,348 and 2,616 IOPS
 * of a 2,000-IOPS model.  Its latency runs to the reap, as every engine's:
 * the job holds its requests from submission to reap, so a queue's
 * latency stays J x Q / IOPS (Little's law) however late it wakes.  (To
 * done_ns, a job late to submit shortened the device's queue: a 16 ms
 * queue read p50 10.4-15.5 ms in intervals at load 15.)  The engine hands
 * a job's requests over in done_ns order, so the intervals roll forward
 * only.
 */
static void reap_done_time(struct wloop *L, struct slot *s, unsigned d, uint64_t now)
{
	struct job *j = L->j;
	uint64_t at = s->req.done_ns;

	if (at < L->t0 || at > L->t_end)
		return;
	if (at - L->t0 >= L->iv_end)
		interval_roll(L, at - L->t0);
	uint64_t lat = lat_measure(j, s, d, now, L->rated);
	lat_record(j, d, lat);
	account(j, d, at, L->t0, L->iv_at, 1, L->bs, lat);
}

/* reap()'s completion r outside a plain batch, or failed: traced, failed
 * (the job stops), counted by done_ns, or in the ramp.  True when it is
 * still to be measured at now. */
static bool reap_rare(struct wloop *L, struct io_req *r, unsigned d, uint64_t now)
{
	struct slot *s = r->slot;
	if (L->tracing)
		jobtrace_data(&L->j->trace, r);
	if (r->result != (int)r->len) {
		io_failed(L->j, r, s->file);
		L->issuing = false;
		return false;
	}
	if (L->done_time) {
		reap_done_time(L, s, d, now);
		return false;
	}
	return now >= L->t0; /* not completed inside the ramp */
}

/* Reap as the batch rules say and account the batch; with a deadline
 * (rated, rate_wait), wait for one completion but no later than then.
 * -1 when the engine failed (the in-flight requests die with the
 * context). */
static int reap(struct wloop *L, uint64_t deadline)
{
	struct job *j = L->j;
	unsigned rmin, rmax;
	batch_reap_bounds(L->c, L->depth, L->issuing, L->nfree, L->inflight, &rmin, &rmax);
	if (deadline && !rmin)
		rmin = 1;
	if (rmin && !deadline && L->cancels)
		deadline = wait_bound(L, mono_ns());
	if (rmin)
		wait_hook(L);
	int n = L->eng->reap(L->ctx, rmin, rmax, L->done, deadline);

	if (n < 0) {
		job_fail(j, n, "cannot reap IO of '%s': %s", L->t->paths[0], strerror(-n));
		return -1;
	}
	uint64_t now = mono_ns();
	uint64_t bios[DIR__COUNT] = { 0, 0 }, blat[DIR__COUNT] = { 0, 0 };
	if (!L->done_time && now >= L->t0 && now - L->t0 >= L->iv_end)
		interval_roll(L, now - L->t0);
	/* what holds for the whole batch is tested once: per IO, a plain
	 * batch (measured, no trace, no done_ns) tests only the result */
	bool plain = !L->tracing && !L->done_time && now >= L->t0;
	unsigned nfree = L->nfree;
	for (int i = 0; i < n; i++) {
		struct io_req *r = L->done[i];
		struct slot *s = r->slot;
		unsigned d = r->write ? DIR_WRITE : DIR_READ;
		L->freeidx[nfree++] = r->buf_index; /* the slot's number */
		if (__builtin_expect(!plain || r->result != (int)r->len, 0) &&
		    !reap_rare(L, r, d, now))
			continue;
		uint64_t lat = lat_measure(j, s, d, now, L->rated);
		lat_record(j, d, lat);
		bios[d]++;
		blat[d] += lat;
	}
	L->nfree = nfree;
	L->inflight -= (unsigned)n;
	L->live_ios += (uint64_t)n;
	for (unsigned d = 0; d < DIR__COUNT; d++)
		if (bios[d])
			account(j, d, now, L->t0, L->iv_at, bios[d], L->bs, blat[d]);
	atomic_store_explicit(&j->live_ios, L->live_ios, memory_order_relaxed);
	return n;
}

/* At a stop or at the run's end, with requests in flight that the engine
 * can cancel: take what is already done (not at a stop: that repetition
 * is not kept), then cancel the rest, not counted.  -1: the engine
 * failed. */
static int cancel_inflight(struct wloop *L)
{
	if (!atomic_load_explicit(&L->sh->stop, memory_order_relaxed) &&
	    reap(L, mono_ns()) < 0)
		return -1;
	int n = L->inflight ? L->eng->cancel(L->ctx, L->inflight, L->done) : 0;
	if (n < 0) {
		job_fail(L->j, n, "cannot cancel IO of '%s': %s", L->t->paths[0],
			 strerror(-n));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct slot *s = L->done[i]->slot;
		L->freeidx[L->nfree++] = (unsigned)(s - L->slots);
	}
	L->inflight -= (unsigned)n;
	return 0;
}

/* Rated, with a slot free and the next intended start ahead: wait for
 * the completions that come meanwhile until that start (or the end of the
 * run); with nothing in flight, sleep to it.  Never waits once the start
 * is due (one look at what completed), so a job behind schedule issues at
 * once.  -1: the engine failed. */
static int rate_wait(struct wloop *L)
{
	uint64_t now = mono_ns(), due = L->rate.next_ns;

	if (due > L->t_end)
		due = L->t_end;
	if (due > now + RATE_IDLE_NS)
		due = now + RATE_IDLE_NS;
	if (L->inflight)
		return reap(L, due > now ? due : now) < 0 ? -1 : 0;
	if (due > now) {
		wait_hook(L);
		mono_sleep_until(due);
	}
	return 0;
}

/* Slots, engine context and the hot path's copies of the shared values;
 * a failure is recorded in the job (job_fail) and the loop is skipped. */
static void wloop_init(struct wloop *L, struct job *j)
{
	struct rep_shared *sh = j->sh;

	memset(L, 0, sizeof(*L));
	L->j = j;
	L->sh = sh;
	L->c = sh->c;
	L->t = sh->t;
	L->eng = sh->eng;
	L->depth = sh->depth;
	L->slots = calloc(L->depth, sizeof(*L->slots));
	L->freeidx = calloc(L->depth, sizeof(*L->freeidx));
	L->done = calloc(L->depth, sizeof(*L->done));
	prng_seed(&L->drng, sh->seed ^ 0x5bd1e995u ^ ((uint64_t)j->idx << 32));
	j->trace.fd = sh->trace_fd;
	j->trace.idx = j->idx;
	for (int d = 0; d < DIR__COUNT; d++)
		acc_reset(&j->acc[d]);
	if (!L->slots || !L->freeidx || !L->done) {
		job_fail(j, -ENOMEM, "out of memory");
		return;
	}
	L->ctx = job_engine_start(j);
	/* The buffers are filled (writes) or faulted in (huge-page reads)
	 * here, by the job, before the start gate: a job process gets pages
	 * of its own instead of copy-on-write copies of the runner's, which
	 * its first write stamps would make (4K copies: a huge page lost),
	 * and no fault of the timed run's first IOs compacts memory for a
	 * huge page. */
	if (sh->writes) {
		struct prng r;
		prng_seed(&r, sh->seed ^ 0x64617461ull ^ ((uint64_t)j->idx << 32));
		wdata_fill(L->c, &r, j->bufs, worker_buf_bytes(sh));
	} else if (worker_bufs_huge(sh)) {
		memset(j->bufs, 0, worker_buf_bytes(sh));
	}
}

/* After the start gate: the values the runner set, the free slots. */
static void wloop_start(struct wloop *L)
{
	struct rep_shared *sh = L->sh;
	struct job *j = L->j;

	for (unsigned i = 0; i < L->depth; i++) {
		L->slots[i].req.buf = (char *)j->bufs + (uint64_t)i * sh->bs;
		L->slots[i].req.len = sh->bs;
		L->slots[i].req.slot = &L->slots[i];
		L->slots[i].req.buf_index = i;
		L->freeidx[i] = i;
	}
	L->t0 = sh->t0;
	L->t_end = sh->t_end ? sh->t_end : UINT64_MAX;
	L->iv_ns = j->series[DIR_READ].interval_ns;
	L->iv_end = L->iv_ns;
	L->budget = sh->budget;
	L->bs = sh->bs;
	L->bpf = sh->blocks_per_file;
	L->nblocks = sh->nblocks;
	L->nfiles = L->t->nfiles;
	L->random = sh->random;
	L->seq_shared = L->c->sequential_shared;
	L->mixed = sh->mixed;
	L->writes = sh->writes;
	L->rwmix = L->c->rwmixread;
	L->batch = batch_submit(L->c, L->depth);
	L->tracing = sh->trace_fd >= 0;
	L->stamping = L->c->data != DATA_ZERO;
	L->off0 = L->t->offset;
	L->limited = j->quota != UINT64_MAX || L->budget;
	L->sb = L->c->sysbench_fsync_freq != 0;
	L->rare = L->tracing || L->sb ||
		  (L->writes && (L->stamping || L->c->fsync || L->c->fdatasync));
	/* budget tokens are claimed in chunks: few atomics, fair shares */
	L->chunk = L->budget / ((uint64_t)L->c->jobs * 16);
	if (L->chunk < 1)
		L->chunk = 1;
	if (L->chunk > 256)
		L->chunk = 256;
	L->nfree = L->depth;
	L->issuing = true;
	L->cancels = L->eng->cancel != NULL;
	L->done_time = L->eng->flags & ENGINE_DONE_TIME;
	if (j->idx == 0)
		L->hook_wait = testhook_armed("wait");
	/* the schedule starts with the run (ramp included), one stream per job */
	L->rated = sh->rate_iops > 0;
	L->paced = L->sb || L->rated;
	/* a rated job's waits end at intended starts: without the default
	 * 50 us of timer slack the kernel wakes it then, not up to 50 us
	 * later (the lateness is in its response latency) */
	if (L->rated)
		prctl(PR_SET_TIMERSLACK, 1ul, 0ul, 0ul, 0ul);
	if (L->rated)
		rate_gen_init(&L->rate, sh->t_start, sh->rate_iops, L->c->rate_process,
			      sh->seed ^ ((uint64_t)j->idx << 40));
}

/* end_fsync: every file once, after the last IO of the repetition. */
static void end_fsync(struct wloop *L)
{
	struct job *j = L->j;

	for (unsigned f = 0; f < L->nfiles; f++) {
		int ret = L->eng->fsync(L->ctx, j->fds[f]);
		if (ret < 0) {
			job_fail(j, ret, "cannot fsync '%s': %s", L->t->paths[f],
				 strerror(-ret));
			break;
		}
	}
	if (j->ios[DIR_READ] + j->ios[DIR_WRITE])
		j->end_ns = mono_ns();
}

void *worker_main(void *arg)
{
	struct job *j = arg;
	struct rep_shared *sh = j->sh;
	struct wloop L;

	wloop_init(&L, j);
	/* start gate: the runner sets t_start/t0/t_end, then opens it */
	pthread_mutex_lock(&sh->lock);
	j->ready = true;
	sh->nready++;
	pthread_cond_signal(&sh->cond);
	while (!sh->go)
		pthread_cond_wait(&sh->go_cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	j->cpu_ns = thread_cpu_ns();
	if (j->err)
		goto out;
	if (j->idx == 0)
		j->hook_ns = testhook_armed("interval") * j->series[0].interval_ns;

	wloop_start(&L);
	for (;;) {
		bool stop = atomic_load_explicit(&sh->stop, memory_order_relaxed);
		if (L.issuing && stop)
			L.issuing = false;
		/* the run's end or a stop: what the engine holds is cancelled,
		 * even at a full queue, where issue() never looks at the time */
		if (L.cancels && L.inflight && (stop || mono_ns() >= L.t_end)) {
			if (L.issuing)
				j->timed_out = true;
			L.issuing = false;
			if (cancel_inflight(&L) < 0)
				break;
			continue;
		}
		if (L.issuing && !L.fsync_due && L.nfree)
			issue(&L);
		if (L.rated && L.issuing && !L.fsync_due && L.nfree) {
			if (rate_wait(&L) < 0)
				break;
			continue;
		}
		if (!L.inflight) {
			if (L.fsync_due) {
				fsync_due_files(&L);
				continue;
			}
			if (!L.issuing)
				break;
			continue;
		}
		if (reap(&L, 0) < 0)
			break;
	}
	if (L.c->end_fsync && L.writes && !j->err &&
	    !atomic_load_explicit(&sh->stop, memory_order_relaxed))
		end_fsync(&L);
out:
	j->cpu_ns = thread_cpu_ns() - j->cpu_ns;
	j->all_ios = atomic_load_explicit(&j->live_ios, memory_order_relaxed);
	interval_finish(&L);
	for (int d = 0; d < DIR__COUNT; d++) {
		acc_fold(&j->acc[d], &j->lat[d]);
		if (j->hist[d]) /* the hot path bumps buckets only */
			j->hist[d]->total = j->lat[d].n;
	}
	if (sh->trace_fd >= 0 && j->trace.len) {
		pthread_mutex_lock(&sh->lock);
		jobtrace_flush(&j->trace);
		pthread_mutex_unlock(&sh->lock);
	}
	if (L.ctx)
		L.eng->release(L.ctx);
	free(L.slots);
	free(L.freeidx);
	free(L.done);
	pthread_mutex_lock(&sh->lock);
	j->done = true;
	sh->nfinished++;
	pthread_cond_signal(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
	return NULL;
}
