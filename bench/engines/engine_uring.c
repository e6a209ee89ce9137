/*
 * engine_uring.c - io_uring through liburing.  commit() leaves the actual
 * io_uring_enter to the reap() that always follows it, so one syscall both
 * submits the batch and waits for completions.  The ring must be created by
 * the thread that uses it (SINGLE_ISSUER); the runner inits engines inside
 * each worker thread.
 */
#ifdef HAVE_LIBURING
#include "engine.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <unistd.h>

struct engine_ctx {
	struct io_uring ring;
	unsigned depth;
	unsigned inflight;
	unsigned unsubmitted;
};

static int uring_init(struct engine_ctx **out, unsigned depth)
{
	struct engine_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->depth = depth ? depth : 1;
	unsigned flags = 0;
#ifdef IORING_SETUP_SINGLE_ISSUER
	flags |= IORING_SETUP_SINGLE_ISSUER;
#endif
#ifdef IORING_SETUP_DEFER_TASKRUN
	flags |= IORING_SETUP_DEFER_TASKRUN;
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
	if (!(flags & IORING_SETUP_SINGLE_ISSUER))
		flags |= IORING_SETUP_COOP_TASKRUN;
#endif
	int ret = io_uring_queue_init(c->depth, &c->ring, flags);
	if (ret == -EINVAL && flags) /* older kernel: plain ring */
		ret = io_uring_queue_init(c->depth, &c->ring, 0);
	if (ret < 0) {
		free(c);
		return ret;
	}
	/* Devices without NOWAIT support (zram, loop) are served by io-wq
	 * threads; the kernel allows up to 4 per CPU, which on a small machine
	 * mostly adds context switches.  One per CPU measured faster here (and
	 * changes nothing where depth <= CPUs or the device supports NOWAIT). */
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > 0 && (unsigned long)ncpu < c->depth) {
		unsigned v[2] = { (unsigned)ncpu, 0 };
		io_uring_register_iowq_max_workers(&c->ring, v); /* best effort */
	}
	*out = c;
	return 0;
}

static enum engine_queue uring_queue(struct engine_ctx *c, struct io_req *r)
{
	if (c->inflight == c->depth)
		return ENGINE_Q_BUSY;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&c->ring);
	if (!sqe)
		return ENGINE_Q_BUSY;
	if (r->write)
		io_uring_prep_write(sqe, r->fd, r->buf, (unsigned)r->len, r->offset);
	else
		io_uring_prep_read(sqe, r->fd, r->buf, (unsigned)r->len, r->offset);
	io_uring_sqe_set_data(sqe, r);
	c->inflight++;
	c->unsubmitted++;
	return ENGINE_Q_QUEUED;
}

static int uring_commit(struct engine_ctx *c)
{
	(void)c; /* deferred to reap(): see the top of the file */
	return 0;
}

static int uring_reap(struct engine_ctx *c, unsigned min, unsigned max,
		      struct io_req **out)
{
	if (min > c->inflight)
		min = c->inflight;
	if (c->unsubmitted) {
		int ret;
		do
			ret = io_uring_submit_and_wait(&c->ring, min);
		while (ret == -EINTR);
		if (ret < 0)
			return ret;
		c->unsubmitted = 0;
		min = 0; /* waited already */
	}
	unsigned n = 0;
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		io_uring_for_each_cqe(&c->ring, head, cqe) {
			if (n == max)
				break;
			struct io_req *r = io_uring_cqe_get_data(cqe);
			r->result = cqe->res;
			out[n++] = r;
			seen++;
		}
		io_uring_cq_advance(&c->ring, seen);
		c->inflight -= seen;
		if (n >= min || n == max)
			break;
		int ret = io_uring_wait_cqe_nr(&c->ring, &cqe, min - n);
		if (ret < 0 && ret != -EINTR && ret != -ETIME)
			return ret;
	}
	return (int)n;
}

static int uring_fsync(struct engine_ctx *c, int fd)
{
	(void)c;
	return fsync(fd) < 0 ? -errno : 0;
}

static void uring_release(struct engine_ctx *c)
{
	if (!c)
		return;
	io_uring_queue_exit(&c->ring);
	free(c);
}

const struct engine engine_uring = {
	.name = "io_uring",
	.flags = ENGINE_BUILTIN | ENGINE_ASYNC | ENGINE_NEEDS_ALIGN,
	/* often switched off by policy: sysctl kernel.io_uring_disabled, or a
	 * container's seccomp profile */
	.refused_hint = "io_uring is disabled here (sysctl kernel.io_uring_disabled "
			"or a container's seccomp policy); use engine: libaio",
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.fsync = uring_fsync,
	.release = uring_release,
};
#else
/* Not built (no liburing): known by name and capabilities, so a suite that
 * asks for it validates and `run` says how to get it, but without ops. */
const struct engine engine_uring = {
	.name = "io_uring",
	.flags = ENGINE_ASYNC | ENGINE_NEEDS_ALIGN,
};
#endif
