/*
 * worker.h - one job thread of a repetition (internal to the runner): its
 * IO slots, offset generator, and per-job statistics that the runner merges
 * after the threads end.  Not part of the public runner API.
 */
#ifndef IOMATRIX_WORKER_H
#define IOMATRIX_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "suite/cell.h"
#include "engines/engine.h"
#include "stats/prng.h"
#include "stats/qos.h"
#include "jobtrace.h"
#include "offsets.h"
#include "stats/rep.h"
#include "stats/stats.h"
#include "target.h"

/* State shared by all jobs of one repetition. */
struct rep_shared {
	const struct cell *c;
	const struct target *t;
	const struct engine *eng;
	unsigned depth;           /* slots per job */
	bool reads, writes, mixed, random;
	uint64_t bs;
	uint64_t blocks_per_file; /* file_size / bs */
	uint64_t nblocks;         /* over the whole file set */
	uint64_t t_start;         /* CLOCK_MONOTONIC ns, set before release */
	uint64_t t0;              /* measurement start (ramp end) */
	uint64_t t_end;           /* stop issuing; 0: not time-limited */
	uint64_t budget;          /* counted IOs in total; 0: none */
	double rate_iops;         /* per job (rate_iops, a sweep point); 0: none */
	uint64_t seed;            /* this repetition's: the cell's seed, or with
				   * randrepeat off one per repetition */
	unsigned rep;             /* its number, from 0 */
	/* sysbench_fsync_freq: requests of all jobs so far, whether one was
	 * a write since the last round, fsyncs of the round still to issue
	 * and the rotating file they go to (sysbench's fsynced_file) */
	_Atomic uint64_t map_cursor; /* random map: IOs of all jobs (offsets.h) */
	_Atomic uint64_t seq_cursor; /* sequential_shared: the next block */
	_Atomic uint64_t sb_reqs;
	atomic_bool sb_dirty;
	_Atomic int64_t sb_left;
	_Atomic uint64_t sb_file;
	_Atomic uint64_t claimed; /* budget handed out so far */
	atomic_int stop;          /* signal or error: drain and leave */
	int trace_fd;             /* IOMATRIX_TRACE, -1 when off */
	/* jobs as threads: each interval's latency histogram of the whole
	 * repetition, per direction, gathered as each job closes it
	 * (stats/ivhist.h ivacc; worker.c interval_roll); NULL for job
	 * processes, which keep their own and send them with the series */
	struct ivacc *ivacc;
	pthread_mutex_t iv_lock;  /* guards ivacc */
	pthread_mutex_t lock;     /* guards nready, go, nfinished + both conds */
	pthread_cond_t cond;      /* worker -> runner: ready / finished */
	pthread_cond_t go_cond;   /* runner -> workers: start */
	unsigned nready, nfinished;
	bool go;
	/* engine_opts.shared: the model device of the repetition */
	_Alignas(64) unsigned char eng_shared[ENGINE_SHARED_BYTES];
};

/* A job's IO buffers: one slot of bs bytes per unit of depth.  4K pages,
 * as fio's default; with mem: mmaphuge (and an engine that does IO) huge
 * pages (runner.c, job_bufs_alloc), which the job faults in before the
 * start gate (worker.c, wloop_init). */
#define WORKER_BUF_HUGE_BYTES (2u << 20)

static inline uint64_t worker_buf_bytes(const struct rep_shared *sh)
{
	return (uint64_t)sh->depth * sh->bs;
}

static inline bool worker_bufs_huge(const struct rep_shared *sh)
{
	return sh->c->mem == MEM_MMAPHUGE && !(sh->eng->flags & ENGINE_NO_IO);
}

/* Exact integer moments of a block of latencies, folded into Welford. */
struct lat_acc {
	uint64_t n, sum, min, max;
	unsigned __int128 sumsq;
};

struct job {
	struct rep_shared *sh;
	unsigned idx;
	int *fds;                 /* one per file; owned by the runner */
	struct prng rng;
	struct offsets offs;      /* random jobs: the offset generator */
	uint64_t slice_lo, slice_hi, cursor; /* sequential: block range */
	uint64_t quota;           /* one pass: counted IOs left; UINT64_MAX none */
	void *bufs;               /* depth * bs, 4096-aligned */
	void *bufs_base;          /* mem: mmaphuge: the mapping bufs lies in */
	size_t bufs_mapped;       /* its bytes; 0: bufs was allocated */
	unsigned *wcount;         /* fsync: writes since the last fsync, per file */
	unsigned *dcount;         /* fdatasync: the same count of its own */
	bool *datasync_due;       /* fdatasync: this file's count came due */
	bool *fsync_due;          /* fsync: this file's count came due; the
				   * fsync waits until nothing is in flight */
	struct lat_hist *hist[DIR__COUNT]; /* rated: response latency */
	struct lat_acc acc[DIR__COUNT];
	/* rated: service latency (submit to completion) beside it; NULL off */
	struct lat_hist *svc_hist[DIR__COUNT];
	struct welford svc_lat[DIR__COUNT];
	struct welford lat[DIR__COUNT];
	struct series series[DIR__COUNT];
	/* hist[d] as it was when the open interval began: what it gained
	 * since is that interval's histogram (stats/ivhist.h), taken into
	 * iv_idx/iv_cnt (HIST_BUCKETS each) for the repetition's ivacc */
	struct lat_hist *iv_snap[DIR__COUNT];
	uint16_t *iv_idx;
	uint64_t *iv_cnt;
	uint64_t ios[DIR__COUNT], bytes[DIR__COUNT];
	uint64_t end_ns;          /* last counted completion */
	uint64_t cpu_ns;          /* usr+sys of the thread from the start gate
				   * to the end (cpu.ns_per_io) */
	uint64_t all_ios;         /* IOs done in that time, ramp included */
	uint64_t hook_ns;         /* test hook "interval" (testhook.h): fire at
				   * the first completion this far past t0; 0 off */
	bool timed_out;           /* stopped issuing at t_end */
	bool ready, done;         /* at the start gate / worker_main ended
				   * (both set under sh->lock) */
	/* thread: false (jobproc.c): the job's process samples its own usage
	 * at its first issue at or past t0 and at its end (the runner's
	 * getrusage does not see it) */
	bool ru_pending;
	struct rusage ru_t0, ru_end;
	int err;                  /* -errno of the first failure */
	char errmsg[384];
	struct jobtrace trace;    /* IOMATRIX_TRACE: its buffer, the runner's */
	/* read by the runner thread for progress, written once per batch
	 * (the bytes are live_ios x the repetition's bs) */
	_Alignas(64) _Atomic uint64_t live_ios;
	char pad[56];
};

void *worker_main(void *arg);


#endif
