/*
 * engine.h - the IO engine ops table.  One file per engine
 * (engine_libaio.c, engine_uring.c, engine_psync.c, engine_null.c), each ending
 * in a designated-initializer `const struct engine`, registered in the static
 * array of engine.c.  Capabilities are flags, not special cases in callers.
 *
 * Each worker thread owns one engine context with `iodepth` slots.
 * Functions return 0 or -errno.
 */
#ifndef IOMATRIX_ENGINE_H
#define IOMATRIX_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

enum engine_flags {
	ENGINE_ASYNC = 1 << 0,       /* iodepth > 1 meaningful */
	ENGINE_NEEDS_ALIGN = 1 << 1, /* buffers aligned for O_DIRECT */
	ENGINE_NO_IO = 1 << 2,       /* null: touches no file */
};

struct io_req {
	int fd;
	bool write;
	void *buf;
	uint64_t len;
	uint64_t offset;
	uint64_t submit_ns;     /* set by the worker before queue(); the worker
				 * times the completion when it reaps */
	int result;             /* bytes done or -errno */
	void *slot;             /* worker bookkeeping */
};

enum engine_queue {
	ENGINE_Q_COMPLETED, /* done synchronously: result set */
	ENGINE_Q_QUEUED,    /* will be returned by reap() */
	ENGINE_Q_BUSY,      /* no room: reap first */
};

struct engine_ctx; /* engine private */

struct engine {
	const char *name;
	unsigned flags;
	/* the fix to suggest when init() is refused by policy (-EPERM/-ENOSYS);
	 * NULL: "try another engine" */
	const char *refused_hint;
	int (*init)(struct engine_ctx **ctx, unsigned depth);
	enum engine_queue (*queue)(struct engine_ctx *ctx, struct io_req *r);
	/* Submit what was queued.  May leave the syscall to the reap() the
	 * worker always calls next (io_uring: one enter submits and waits). */
	int (*commit)(struct engine_ctx *ctx);
	/* Wait for at least min completions (0: poll), store up to max done
	 * requests in out; returns count or -errno. */
	int (*reap)(struct engine_ctx *ctx, unsigned min, unsigned max,
		    struct io_req **out);
	int (*fsync)(struct engine_ctx *ctx, int fd);
	void (*release)(struct engine_ctx *ctx);
};

/* NULL when unknown or not built in. */
const struct engine *engine_find(const char *name);
/* Names of built-in engines, NULL-terminated. */
const char *const *engine_names(void);
/* true if name is a known engine (even when not built in). */
bool engine_known(const char *name);

#endif
