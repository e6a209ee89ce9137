/*
 * worker.c - the per-job IO loop: fill every free slot, submit the batch in
 * one commit (iodepth_batch per submit call), reap what is done
 * (iodepth_batch_complete_min/max), account it.  The hot path takes one
 * clock reading per submitted batch and one per reaped batch (as fio does
 * for completions), allocates nothing and takes no lock.
 *
 * Why CLOCK_MONOTONIC and not a TSC clock: measured here (make bench,
 * clock_cost and clock_count) a vDSO reading costs 60 ns and rdtsc 26 ns,
 * but at QD32 iomatrix takes 0.06 readings per IO on zram libaio (under
 * 4 ns of ~3 us of CPU per IO) and 0.6 on io_uring (35 ns of ~5 us): a
 * cheaper clock cannot move those numbers.  Only the null engine at QD1
 * (2 readings per IO, ~80 % of its 150 ns) would gain, and that measures
 * nothing a user stores.
 */
#include "worker.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define TRACE_BUF (64 * 1024)
#define ACC_FOLD (1u << 20) /* keeps the integer moments far from overflow */

struct slot {
	struct io_req req;
	unsigned file;
	bool counted;
};

uint64_t worker_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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
 * histogram total is set once at the end). */
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
	job_fail(j, e, "'%s': %s error at offset %" PRIu64 ": %s",
		 j->sh->t->paths[file], r->write ? "write" : "read", r->offset,
		 r->result < 0 ? strerror(-e) : "short transfer");
}

/* Account n measured completions of direction d at `now` (their latencies
 * are already in the histogram): counters, time series, Welford fold.
 * Shared by synchronous engines (one at a time) and reaped batches. */
static inline void account(struct job *j, unsigned d, uint64_t now, uint64_t t0,
			   uint64_t n, uint64_t bs, uint64_t lat_sum)
{
	j->ios[d] += n;
	j->bytes[d] += n * bs;
	j->end_ns = now;
	series_add_n(&j->series[d], now - t0, n, n * bs, lat_sum);
	if (j->acc[d].n >= ACC_FOLD)
		acc_fold(&j->acc[d], &j->lat[d]);
}

static void trace_flush(struct job *j)
{
	size_t off = 0;
	while (off < j->trace_len) {
		ssize_t n = write(j->sh->trace_fd, j->trace_buf + off, j->trace_len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	j->trace_len = 0;
}

/* Vary write buffers per IO so blocks never deduplicate: one 64-bit stamp
 * per 512-byte sector (random data) or per 4 KiB at the end of the random
 * tail (compressible data, keeps the zero share). */
static void stamp_buffer(struct job *j, struct prng *drng, char *buf, uint64_t len)
{
	const struct cell *c = j->sh->c;
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

/*
 * How many completions to wait for and take in one reap (fio's
 * iodepth_batch_complete_min/max).  As in fio, a full queue waits for at
 * least one even with min 0, and so does a job that has stopped issuing
 * (it only drains).  max 0: up to iodepth.
 */
static void job_reap_bounds(const struct job *j, bool issuing, unsigned nfree,
			    unsigned inflight, unsigned *min, unsigned *max)
{
	const struct cell *c = j->sh->c;
	unsigned depth = j->sh->depth;
	*max = c->iodepth_batch_complete_max && c->iodepth_batch_complete_max < depth ?
	       c->iodepth_batch_complete_max : depth;
	*min = c->iodepth_batch_complete_min < inflight ? c->iodepth_batch_complete_min
							: inflight;
	if (*min > *max)
		*min = *max;
	if (!*min && (!nfree || !issuing))
		*min = 1;
}

/* IOMATRIX_TRACE: what a completed request moved, "JOB data DIR OFFSET LEN
 * FILEIDX HASH" (64-bit FNV-1a of the buffer, hex), so a test can check
 * the bytes end to end against the file. */
static void job_trace_data(struct job *j, const struct io_req *r)
{
	uint64_t h = 0xcbf29ce484222325ull;
	const unsigned char *b = r->buf;
	for (uint64_t i = 0; r->result > 0 && i < (uint64_t)r->result; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	if (j->trace_len > TRACE_BUF - 96)
		trace_flush(j);
	j->trace_len += (size_t)snprintf(j->trace_buf + j->trace_len, 96,
					 "%u data %s %" PRIu64 " %" PRIu64 " %u %016" PRIx64 "\n",
					 j->idx, r->write ? "write" : "read", r->offset,
					 r->len, r->file, h);
}

/* IOMATRIX_TRACE: one line per submit call, "JOB submit N". */
static void job_trace_submit(void *arg, unsigned n)
{
	struct job *j = arg;
	if (j->trace_len > TRACE_BUF - 96)
		trace_flush(j);
	j->trace_len += (size_t)snprintf(j->trace_buf + j->trace_len, 96,
					 "%u submit %u\n", j->idx, n);
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
	/* fio caps the batch at iodepth; 0 (fio: iodepth) is everything queued */
	o->batch = c->iodepth_batch > sh->depth ? sh->depth : c->iodepth_batch;
	o->registerfiles = c->registerfiles;
	o->fixedbufs = c->fixedbufs;
	o->sqthread_poll = c->sqthread_poll;
	o->sqthread_poll_cpu = c->sqthread_poll_cpu;
	o->hipri = c->hipri;
	o->nonvectored = c->nonvectored;
	if (sh->trace_fd >= 0) {
		o->on_submit = job_trace_submit;
		o->on_submit_arg = j;
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

void *worker_main(void *arg)
{
	struct job *j = arg;
	struct rep_shared *sh = j->sh;
	const struct cell *c = sh->c;
	const struct target *t = sh->t;
	const struct engine *eng = sh->eng;
	const unsigned depth = sh->depth;
	struct engine_ctx *ctx = NULL;
	struct slot *slots = calloc(depth, sizeof(*slots));
	unsigned *freeidx = calloc(depth, sizeof(*freeidx));
	struct io_req **done = calloc(depth, sizeof(*done));
	struct prng drng;

	prng_seed(&drng, c->seed ^ 0x5bd1e995u ^ ((uint64_t)j->idx << 32));
	for (int d = 0; d < DIR__COUNT; d++)
		acc_reset(&j->acc[d]);
	if (!slots || !freeidx || !done)
		job_fail(j, -ENOMEM, "out of memory");
	else
		ctx = job_engine_start(j);
	/* start gate: the runner sets t_start/t0/t_end, then opens it */
	pthread_mutex_lock(&sh->lock);
	sh->nready++;
	pthread_cond_signal(&sh->cond);
	while (!sh->go)
		pthread_cond_wait(&sh->go_cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	j->cpu_ns = thread_cpu_ns();
	if (j->err)
		goto out;

	for (unsigned i = 0; i < depth; i++) {
		slots[i].req.buf = (char *)j->bufs + (uint64_t)i * sh->bs;
		slots[i].req.len = sh->bs;
		slots[i].req.slot = &slots[i];
		slots[i].req.buf_index = i;
		freeidx[i] = i;
	}

	const uint64_t t0 = sh->t0, t_end = sh->t_end, budget = sh->budget;
	const uint64_t bs = sh->bs, bpf = sh->blocks_per_file, nblocks = sh->nblocks;
	const unsigned nfiles = t->nfiles;
	const bool random = sh->random, mixed = sh->mixed, writes = sh->writes;
	const unsigned rwmix = c->rwmixread;
	const bool tracing = sh->trace_fd >= 0;
	const bool stamping = c->data != DATA_ZERO;
	uint64_t chunk = budget / ((uint64_t)sh->c->jobs * 16);
	if (chunk < 1)
		chunk = 1;
	if (chunk > 256)
		chunk = 256;
	uint64_t tokens = 0;
	unsigned nfree = depth, inflight = 0;
	bool issuing = true, fsync_due = false;
	uint64_t live_ios = 0, live_bytes = 0;

	for (;;) {
		if (issuing && atomic_load_explicit(&sh->stop, memory_order_relaxed))
			issuing = false;
		if (issuing && !fsync_due && nfree) {
			uint64_t ts = worker_now_ns();
			unsigned queued = 0;
			while (nfree) {
				if (t_end && ts >= t_end) {
					j->timed_out = true;
					issuing = false;
					break;
				}
				bool counted = ts >= t0;
				if (counted) {
					if (j->quota != UINT64_MAX) {
						if (!j->quota) {
							issuing = false;
							break;
						}
					}
					if (budget && !tokens) {
						uint64_t old = atomic_fetch_add(&sh->claimed, chunk);
						tokens = old >= budget ? 0
							: (budget - old < chunk ? budget - old : chunk);
						if (!tokens) {
							issuing = false;
							break;
						}
					}
					if (j->quota != UINT64_MAX)
						j->quota--;
					if (budget)
						tokens--;
				}
				unsigned si = freeidx[--nfree];
				struct slot *s = &slots[si];
				struct io_req *r = &s->req;
				uint64_t blk;
				if (random) {
					blk = prng_below(&j->rng, nblocks);
				} else {
					blk = j->cursor++;
					if (j->cursor >= j->slice_hi)
						j->cursor = j->slice_lo;
				}
				bool w = mixed ? prng_below(&j->rng, 100) >= rwmix : writes;
				unsigned f = 0;
				if (nfiles > 1) {
					f = (unsigned)(blk / bpf);
					blk -= (uint64_t)f * bpf;
				}
				s->file = f;
				s->counted = counted;
				r->fd = j->fds[f];
				r->file = f;
				r->write = w;
				r->offset = t->offset + blk * bs;
				r->submit_ns = ts;
				if (w && stamping)
					stamp_buffer(j, &drng, r->buf, bs);
				if (tracing) {
					if (j->trace_len > TRACE_BUF - 96)
						trace_flush(j);
					j->trace_len += (size_t)snprintf(
						j->trace_buf + j->trace_len, 96,
						"%u %s %" PRIu64 " %" PRIu64 " %u\n", j->idx,
						w ? "write" : "read", r->offset, bs, f);
				}
				if (w && c->fsync && ++j->wcount[f] >= c->fsync) {
					j->wcount[f] = 0;
					j->wcount[nfiles + f] = 1; /* due on this file */
					fsync_due = true;
				}
				enum engine_queue q = eng->queue(ctx, r);
				if (q == ENGINE_Q_QUEUED) {
					queued++;
					inflight++;
				} else if (q == ENGINE_Q_COMPLETED) {
					uint64_t now = worker_now_ns();
					unsigned d = w ? DIR_WRITE : DIR_READ;
					freeidx[nfree++] = si;
					live_ios++;
					live_bytes += bs;
					if (tracing)
						job_trace_data(j, r);
					if (r->result != (int)bs) {
						io_failed(j, r, f);
						issuing = false;
						break;
					}
					if (counted) {
						uint64_t lat = now - ts;
						lat_record(j, d, lat);
						account(j, d, now, t0, 1, bs, lat);
					}
					atomic_store_explicit(&j->live_ios, live_ios,
							      memory_order_relaxed);
					atomic_store_explicit(&j->live_bytes, live_bytes,
							      memory_order_relaxed);
					ts = now;
					if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
						issuing = false;
						break;
					}
				} else {
					/* engine full although a slot was free: reap first */
					freeidx[nfree++] = si;
					if (counted) {
						if (j->quota != UINT64_MAX)
							j->quota++;
						if (budget)
							tokens++;
					}
					break;
				}
				if (fsync_due)
					break;
			}
			if (queued) {
				int ret = eng->commit(ctx);
				if (ret < 0) {
					job_fail(j, ret, "'%s': cannot submit IO: %s",
						 t->paths[0], strerror(-ret));
					issuing = false;
				}
			}
		}
		if (!inflight) {
			if (fsync_due) {
				for (unsigned f = 0; f < nfiles; f++) {
					if (!j->wcount[nfiles + f])
						continue;
					j->wcount[nfiles + f] = 0;
					int ret = eng->fsync(ctx, j->fds[f]);
					if (ret < 0) {
						job_fail(j, ret, "'%s': fsync failed: %s",
							 t->paths[f], strerror(-ret));
						issuing = false;
					}
				}
				fsync_due = false;
				continue;
			}
			if (!issuing)
				break;
			continue;
		}
		unsigned rmin, rmax;
		job_reap_bounds(j, issuing, nfree, inflight, &rmin, &rmax);
		int n = eng->reap(ctx, rmin, rmax, done);
		if (n < 0) {
			job_fail(j, n, "'%s': cannot reap IO: %s", t->paths[0], strerror(-n));
			break; /* in-flight requests die with the context */
		}
		uint64_t now = worker_now_ns();
		uint64_t bios[DIR__COUNT] = { 0, 0 }, blat[DIR__COUNT] = { 0, 0 };
		for (int i = 0; i < n; i++) {
			struct io_req *r = done[i];
			struct slot *s = r->slot;
			unsigned d = r->write ? DIR_WRITE : DIR_READ;
			freeidx[nfree++] = (unsigned)(s - slots);
			if (tracing)
				job_trace_data(j, r);
			if (r->result != (int)r->len) {
				io_failed(j, r, s->file);
				issuing = false;
				continue;
			}
			if (!s->counted)
				continue;
			uint64_t lat = now - r->submit_ns;
			lat_record(j, d, lat);
			bios[d]++;
			blat[d] += lat;
		}
		inflight -= (unsigned)n;
		live_ios += (uint64_t)n;
		live_bytes += (uint64_t)n * bs;
		for (unsigned d = 0; d < DIR__COUNT; d++)
			if (bios[d])
				account(j, d, now, t0, bios[d], bs, blat[d]);
		atomic_store_explicit(&j->live_ios, live_ios, memory_order_relaxed);
		atomic_store_explicit(&j->live_bytes, live_bytes, memory_order_relaxed);
	}

	if (c->end_fsync && writes && !j->err &&
	    !atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		for (unsigned f = 0; f < nfiles; f++) {
			int ret = eng->fsync(ctx, j->fds[f]);
			if (ret < 0) {
				job_fail(j, ret, "'%s': fsync failed: %s", t->paths[f],
					 strerror(-ret));
				break;
			}
		}
		if (j->ios[DIR_READ] + j->ios[DIR_WRITE])
			j->end_ns = worker_now_ns();
	}
out:
	j->cpu_ns = thread_cpu_ns() - j->cpu_ns;
	j->all_ios = atomic_load_explicit(&j->live_ios, memory_order_relaxed);
	for (int d = 0; d < DIR__COUNT; d++) {
		acc_fold(&j->acc[d], &j->lat[d]);
		if (j->hist[d]) /* the hot path bumps buckets only */
			j->hist[d]->total = j->lat[d].n;
	}
	if (sh->trace_fd >= 0 && j->trace_len) {
		pthread_mutex_lock(&sh->lock);
		trace_flush(j);
		pthread_mutex_unlock(&sh->lock);
	}
	if (ctx)
		eng->release(ctx);
	free(slots);
	free(freeidx);
	free(done);
	pthread_mutex_lock(&sh->lock);
	sh->nfinished++;
	pthread_cond_signal(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
	return NULL;
}
