/*
 * engine.h - the IO engine ops table.  One file per engine
 * (engine_libaio.c, engine_uring.c, engine_psync.c, engine_null.c,
 * engine_model.c), each ending
 * in a designated-initializer `const struct engine`, registered in the static
 * array of registry.c, the one list of engine names.  Capabilities are flags,
 * not special cases in callers.  Engines sit below the suite layer, so the
 * suite loader validates engine names and capabilities against this
 * registry.
 *
 * Each worker thread owns one engine context with `iodepth` slots.
 * Functions return 0 or -errno.
 *
 * The functions declared here are registry.c's: every engine includes this
 * header for the table it fills, and the registry names every engine, so
 * the file that defines them is named for what it is, not for this header.
 */
#ifndef IOMATRIX_ENGINE_H
#define IOMATRIX_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Capabilities: the suite loader, the runner, fio export and the report ask
 * these instead of comparing names.  Where an engine is named, it is data:
 * an option that belongs to one engine names its owner in its row of the
 * key table (suite/keys.c .engine, as fio's engine .options: io_uring's
 * fast paths), read through key_applies(); the importers write the names
 * they translate from fio's and sysbench's; run suggests psync when an
 * engine is not built in. */
enum engine_flags {
	ENGINE_ASYNC = 1 << 0,       /* iodepth > 1 meaningful; without it a job
				      * does one IO at a time */
	ENGINE_NEEDS_ALIGN = 1 << 1, /* does real IO: buffers page-aligned, bs and
				      * offsets checked against the logical block
				      * size for O_DIRECT */
	ENGINE_NO_IO = 1 << 2,       /* null: touches no file, lays nothing out */
	ENGINE_BUILTIN = 1 << 3,     /* ops present in this binary (io_uring needs
				      * liburing at build time) */
	ENGINE_DONE_TIME = 1 << 4,   /* reap() sets io_req.done_ns and hands a
				      * job's requests over in that order (model) */
};

struct io_req {
	int fd;
	unsigned file;          /* index of fd in engine_opts.fds (registerfiles) */
	unsigned buf_index;     /* slot number: buf is bufs + buf_index * buf_size
				 * (fixedbufs) */
	bool write;
	void *buf;
	uint64_t len;
	uint64_t offset;
	uint64_t submit_ns;     /* set by the worker before queue(); the worker
				 * times the completion when it reaps */
	uint64_t done_ns;       /* ENGINE_DONE_TIME: when the request completed
				 * on the device, which the engine knows better
				 * than the reap's clock (the model: when its
				 * keys put it); the worker counts it in the
				 * window and interval of that time */
	int result;             /* bytes done or -errno */
	void *slot;             /* worker bookkeeping */
};

enum engine_queue {
	ENGINE_Q_COMPLETED, /* done synchronously: result set */
	ENGINE_Q_QUEUED,    /* will be returned by reap() */
	ENGINE_Q_BUSY,      /* no room: reap first */
};

struct engine_ctx; /* engine private */
struct model_params; /* engine_model.h */

/* Bytes of memory one repetition's jobs share, zeroed before they start,
 * for an engine whose jobs serve one device of its own (model). */
#define ENGINE_SHARED_BYTES 1024

/*
 * What a job asks of its engine context.  Names follow fio's options; an
 * engine ignores what it has no use for (libaio: the io_uring fast paths).
 * fds and bufs belong to the caller and outlive the context.
 */
struct engine_opts {
	unsigned depth;
	unsigned batch;            /* iodepth_batch: requests per submit call,
				    * 0: everything queued (fio: iodepth) */
	bool userspace_reap;       /* libaio: take completions from the AIO ring
				    * in user space before io_getevents (fio's
				    * userspace_reap); off: io_getevents only */
	bool submit_and_wait;      /* io_uring: the last batch rides on the enter
				    * that waits (one syscall); off: commit()
				    * submits, reap() enters only to wait (fio) */
	bool registerfiles;        /* io_uring: fixed file table */
	bool fixedbufs;            /* io_uring: registered buffers, READ/WRITE_FIXED */
	bool sqthread_poll;        /* io_uring: SQPOLL kernel thread */
	int sqthread_poll_cpu;     /* pin the SQPOLL thread; -1: kernel's choice */
	bool hipri;                /* io_uring: polled completions (IOPOLL) */
	int nonvectored;           /* io_uring: 1 READ/WRITE, 0 READV/WRITEV,
				    * -1 whichever the kernel has (fio's -1) */
	const int *fds;            /* the job's files, nfds of them */
	unsigned nfds;
	void *bufs;                /* depth buffers of buf_size bytes, contiguous */
	uint64_t buf_size;
	/* model: the device's keys; shared: ENGINE_SHARED_BYTES the jobs of
	 * the repetition share (threads or processes); seed: this job's
	 * stream; noise_seed: the repetition's (differs between repetitions
	 * even with randrepeat) */
	const struct model_params *model;
	void *shared;
	uint64_t seed, noise_seed;
	/* IOMATRIX_TRACE: called after each submit call with the number of
	 * requests it handed to the kernel; NULL when not tracing */
	void (*on_submit)(void *arg, unsigned n);
	void *on_submit_arg;
};


/* Defaults equal to fio's for every option (depth 1); registry.c. */
void engine_opts_init(struct engine_opts *o);

struct engine {
	const char *name;
	unsigned flags;
	/* the fix to suggest when init() is refused by policy (-EPERM/-ENOSYS);
	 * NULL: "try another engine" */
	const char *refused_hint;
	/* On failure returns -errno; when the refusal is about an option (a
	 * fast path the kernel or device does not offer) err says which, why
	 * and the fix; otherwise err is left empty. */
	int (*init)(struct engine_ctx **ctx, const struct engine_opts *o,
		    char *err, size_t errlen);
	/* Queue r; an engine that batches submits a full batch (batch
	 * requests) here, as fio commits once iodepth_batch are queued, so
	 * each request is submitted right after the worker stamps it. */
	enum engine_queue (*queue)(struct engine_ctx *ctx, struct io_req *r);
	/* Submit what was queued.  May leave the syscall to the reap() the
	 * worker always calls next (io_uring: one enter submits and waits). */
	int (*commit)(struct engine_ctx *ctx);
	/* Wait for at least min completions, store up to max done requests
	 * in out; returns count or -errno.  deadline_ns 0: wait as long as it
	 * takes, and min 0 takes what is at hand (no syscall where the engine
	 * can tell without one).  deadline_ns set (CLOCK_MONOTONIC): wait in
	 * the kernel for min completions but no later than then, and return
	 * what came (maybe none); a deadline already past asks the kernel
	 * once without waiting.  A rated job waits this way for its requests
	 * until its next intended start, so each completion is taken when the
	 * kernel hands it over, not when the job next looks (a job that
	 * polled held completions until every slot was in flight). */
	int (*reap)(struct engine_ctx *ctx, unsigned min, unsigned max,
		    struct io_req **out, uint64_t deadline_ns);
	/* An engine that holds its requests itself, in user space (model):
	 * hand back every request still in flight, up to max, as not done
	 * (result -ECANCELED); returns the count.  The worker then gives each
	 * of its waits a deadline (a stop is seen within the runner's poll),
	 * and at a stop or the run's end cancels what is not yet due: such a
	 * request may be due hours later (model_bw: 1 put one 4K IO 4,096 s
	 * away), and nothing but the keys made it so.  NULL where
	 * the kernel holds each request (libaio, io_uring, psync): the wait
	 * ends when the device completes it, as fio's does, and nothing can
	 * end it sooner (exit itself waits for in-flight AIO), so the worker
	 * waits there as fio does, for what the device takes, not the keys. */
	int (*cancel)(struct engine_ctx *ctx, unsigned max, struct io_req **out);
	int (*fsync)(struct engine_ctx *ctx, int fd);
	void (*release)(struct engine_ctx *ctx);
};

/* The registry (registry.c): every engine iomatrix knows, built in or not. */

/* A built-in engine (ENGINE_BUILTIN: has ops); NULL when unknown or not
 * built in. */
const struct engine *engine_find(const char *name);
/* Any known engine, built in or not (flags and name only are sure); NULL
 * when unknown. */
const struct engine *engine_lookup(const char *name);
/* Names of every known engine in registry order, NULL-terminated. */
const char *const *engine_names(void);
/* true if name is a known engine (even when not built in). */
bool engine_known(const char *name);
/* "libaio, io_uring, psync or null": the known names for a message. */
const char *engine_names_text(void);

#endif
