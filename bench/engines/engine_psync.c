/*
 * engine_psync.c - synchronous pread/pwrite, one request at a time (fio's
 * psync, sysbench's default).  queue() does the IO and returns COMPLETED.
 *
 * The calls are the system call itself (sysraw.h), not libc's
 * pread/pwrite: in a process with threads, glibc's wrappers are
 * cancellation points that switch the thread's cancel state on and off
 * around every call, two atomic updates of its cancelhandling word per IO
 * (callgrind, psync 4K QD1 on zram: 29 of the worker's ~520 instructions
 * per IO, __pthread_enable_ and _disable_asynccancel), and syscall(2)
 * costs 11 more than the instruction.  iomatrix never cancels a thread;
 * the system call is the same.
 */
#include "engine.h"
#include "engine_ops.h"
#include "sysraw.h"

#include <errno.h>
#include <stdlib.h>

struct engine_ctx {
	int unused;
};

static int psync_init(struct engine_ctx **out, const struct engine_opts *o,
		      char *err, size_t errlen)
{
	(void)o, (void)err, (void)errlen;
	struct engine_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	*out = c;
	return 0;
}

/* One pread or pwrite of r from byte `done` on: bytes moved, or -errno. */
static long psync_call(const struct io_req *r, uint64_t done)
{
	return sysraw4(r->write ? SYS_pwrite64 : SYS_pread64, r->fd, (long)((char *)r->buf + done),
		       (long)(r->len - done), (long)(r->offset + done));
}

/* The rest of a request whose first call moved fewer bytes than asked or
 * failed (n: what it returned, or -errno): a short transfer is retried
 * for the rest; 0 means end of file. */
static enum engine_queue psync_finish(struct io_req *r, long n)
{
	uint64_t done = 0;
	for (;;) {
		if (n < 0) {
			if (n != -EINTR) {
				r->result = (int)n;
				return ENGINE_Q_COMPLETED;
			}
		} else if (n == 0) {
			break;
		} else {
			done += (uint64_t)n;
		}
		if (done >= r->len)
			break;
		n = psync_call(r, done);
	}
	r->result = (int)done;
	return ENGINE_Q_COMPLETED;
}

static enum engine_queue psync_queue(struct engine_ctx *c, struct io_req *r)
{
	(void)c;
	long n = psync_call(r, 0);
	if (__builtin_expect(n != (long)r->len, 0))
		return psync_finish(r, n);
	r->result = (int)n;
	return ENGINE_Q_COMPLETED;
}

static int psync_reap(struct engine_ctx *c, unsigned min, unsigned max,
		      struct io_req **out, uint64_t deadline_ns)
{
	(void)deadline_ns; /* nothing is ever in flight: the IO was the wait */
	(void)c;
	(void)min;
	(void)max;
	(void)out;
	return 0;
}

static void psync_release(struct engine_ctx *c)
{
	free(c);
}

const struct engine engine_psync = {
	.name = "psync",
	.flags = ENGINE_BUILTIN | ENGINE_NEEDS_ALIGN,
	.init = psync_init,
	.queue = psync_queue,
	.commit = engine_commit_none,
	.reap = psync_reap,
	.fsync = engine_fsync_syscall,
	.release = psync_release,
};
