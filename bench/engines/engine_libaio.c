/*
 * engine_libaio.c - Linux native AIO (io_submit/io_getevents).  Requests
 * queued since the last commit go down iodepth_batch at a time (fio's
 * iodepth_batch_submit; default one io_submit per request).  Completions
 * come from io_getevents(min, max), as fio's do; with userspace_reap they
 * are read straight from the AIO ring the kernel maps into our address
 * space first, so a device that completes inline (zram, NVMe polling) costs
 * no io_getevents syscall at all.
 *
 * Why io_getevents is the default (measured 2026-12-01, this 2-core VM,
 * strace -f -c, 4K randread on zram, fio 3.33 running `iomatrix export
 * fio`'s job): with the ring read first iomatrix made 1.00 syscalls per IO
 * at QD1 and QD32, fio's job 2.00 and 1.99 (one io_submit and one
 * io_getevents per IO), so "iomatrix vs fio" compared two workloads (p50
 * 17-37 % lower at zram QD32).  Reaping through the kernel call
 * with min 1, max iodepth, and exporting iodepth_batch_complete_max=iodepth,
 * the two make the same calls.  fio's own userspace_reap reads the ring only
 * with iodepth_batch_complete_min=0 and then spins on it, where ours waits
 * in io_getevents once the ring is empty: the same syscalls per IO on a
 * device that completes inline, fewer for fio (and a busy CPU) elsewhere;
 * the exported job says so.
 */
#include "engine.h"
#include "engine_ops.h"
#include "sysraw.h"
#include "util/monotime.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Layout of the completion ring at the address io_setup() returns (kernel
 * fs/aio.c; stable ABI since 2.6). */
struct aio_ring {
	unsigned id, nr, head, tail;
	unsigned magic, compat_features, incompat_features, header_length;
	struct io_event io_events[];
};
#define AIO_RING_MAGIC 0xa10a10a1u

struct engine_ctx {
	io_context_t aio;
	unsigned depth;
	unsigned batch;         /* iocbs per io_submit, 0: all pending */
	void (*on_submit)(void *arg, unsigned n);
	void *on_submit_arg;
	unsigned nfree;
	unsigned npending;
	struct iocb *iocbs;
	struct iocb **freelist;
	struct iocb **pending;
	struct io_event *events;
	struct io_req **failed; /* refused by io_submit: handed back by reap */
	unsigned nfailed;
	bool user_reap;
};

static void libaio_release(struct engine_ctx *c)
{
	if (!c)
		return;
	if (c->aio)
		io_destroy(c->aio);
	free(c->iocbs);
	free(c->freelist);
	free(c->pending);
	free(c->events);
	free(c->failed);
	free(c);
}

static int libaio_init(struct engine_ctx **out, const struct engine_opts *o,
		       char *err, size_t errlen)
{
	(void)err, (void)errlen;
	struct engine_ctx *c = calloc(1, sizeof(*c));
	int ret = -ENOMEM;
	if (!c)
		return -ENOMEM;
	c->depth = o->depth ? o->depth : 1;
	c->batch = o->batch;
	c->on_submit = o->on_submit;
	c->on_submit_arg = o->on_submit_arg;
	c->iocbs = calloc(c->depth, sizeof(*c->iocbs));
	c->freelist = calloc(c->depth, sizeof(*c->freelist));
	c->pending = calloc(c->depth, sizeof(*c->pending));
	c->events = calloc(c->depth, sizeof(*c->events));
	c->failed = calloc(c->depth, sizeof(*c->failed));
	if (!c->iocbs || !c->freelist || !c->pending || !c->events || !c->failed)
		goto err;
	for (unsigned i = 0; i < c->depth; i++)
		c->freelist[i] = &c->iocbs[i];
	c->nfree = c->depth;
	ret = io_setup((int)c->depth, &c->aio);
	if (ret < 0) {
		c->aio = 0;
		goto err;
	}
	const struct aio_ring *ring = (const struct aio_ring *)c->aio;
	c->user_reap = o->userspace_reap && ring->magic == AIO_RING_MAGIC &&
		       ring->incompat_features == 0;
	*out = c;
	return 0;
err:
	libaio_release(c);
	return ret;
}

static enum engine_queue libaio_queue(struct engine_ctx *c, struct io_req *r)
{
	if (!c->nfree)
		return ENGINE_Q_BUSY;
	struct iocb *cb = c->freelist[--c->nfree];
	if (r->write)
		io_prep_pwrite(cb, r->fd, r->buf, r->len, (long long)r->offset);
	else
		io_prep_pread(cb, r->fd, r->buf, r->len, (long long)r->offset);
	cb->data = r;
	c->pending[c->npending++] = cb;
	return ENGINE_Q_QUEUED;
}

static int libaio_commit(struct engine_ctx *c);

/* A full batch goes down at once (fio: td_io_queue commits when
 * iodepth_batch are queued), so a request waits for no later one. */
static enum engine_queue libaio_queue_batch(struct engine_ctx *c, struct io_req *r)
{
	enum engine_queue q = libaio_queue(c, r);
	if (q == ENGINE_Q_QUEUED && c->batch && c->npending >= c->batch)
		libaio_commit(c);
	return q;
}

/*
 * iodepth_batch requests per io_submit; by default one, as fio does
 * (iodepth_batch_submit=1).  Handing the kernel the whole batch in one call
 * plugs the queue until the last iocb is prepared; on a virtio disk here
 * that cost 16 % of the 4K QD32 random-read IOPS against fio on the same
 * file (73 K vs 88 K), while one call per request matched fio (84-88 K).
 * On a RAM device the syscall per IO is what batching saves.
 */
/* io_submit(2) of n pending iocbs from the from-th: how many the kernel
 * took, or -errno, as libaio's io_submit answers; the system call itself
 * (sysraw.h: libaio's wrapper and syscall(2) cost 41 instructions per IO,
 * the call 4). */
static inline long libaio_submit(struct engine_ctx *c, long n, unsigned from)
{
	return sysraw4(SYS_io_submit, (long)c->aio, n, (long)(c->pending + from), 0);
}

static __attribute__((noinline)) int libaio_submit_all(struct engine_ctx *c)
{
	unsigned done = 0;
	while (done < c->npending) {
		unsigned left = c->npending - done;
		long n = c->batch && c->batch < left ? c->batch : left;
		int ret = (int)libaio_submit(c, n, done);
		if (ret > 0) {
			done += (unsigned)ret;
			if (c->on_submit)
				c->on_submit(c->on_submit_arg, (unsigned)ret);
			continue;
		}
		if (ret == -EINTR || ret == -EAGAIN) {
			if (ret == -EAGAIN && done == 0)
				usleep(100);
			continue;
		}
		if (ret == 0)
			ret = -EIO;
		/* the first remaining iocb was refused: fail it, retry the rest */
		struct iocb *cb = c->pending[done++];
		struct io_req *r = cb->data;
		r->result = ret;
		c->failed[c->nfailed++] = r;
		c->freelist[c->nfree++] = cb;
	}
	c->npending = 0;
	return 0;
}

/* The default, one iocb, goes down here when the kernel takes it at the
 * first call; any other count or answer goes to libaio_submit_all (asked
 * again there), whose loop and rules cost 40 instructions per IO in this
 * function before (callgrind, zram 4K randread QD32), 18 now. */
static int libaio_commit(struct engine_ctx *c)
{
	if (c->npending == 1 && libaio_submit(c, 1, 0) == 1) {
		c->npending = 0;
		if (c->on_submit)
			c->on_submit(c->on_submit_arg, 1);
		return 0;
	}
	return libaio_submit_all(c);
}

static unsigned libaio_take(struct engine_ctx *c, struct io_event *ev,
			    struct io_req **out)
{
	struct iocb *cb = ev->obj;
	struct io_req *r = cb->data;
	long res = (long)ev->res;
	r->result = (int)res;
	c->freelist[c->nfree++] = cb;
	*out = r;
	return 1;
}

/* Completions the kernel has posted to the ring, read in user space. */
static unsigned libaio_ring_take(struct engine_ctx *c, unsigned max,
				 struct io_req **out)
{
	struct aio_ring *ring = (struct aio_ring *)c->aio;
	unsigned head = ring->head, n = 0;
	unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	while (head != tail && n < max) {
		n += libaio_take(c, &ring->io_events[head], &out[n]);
		head = head + 1 == ring->nr ? 0 : head + 1;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

/* With a deadline: one io_getevents that returns at min completions or
 * at the deadline with what came (a timeout of zero once it has passed:
 * one look), unless what is at hand is enough already. */
static int libaio_reap(struct engine_ctx *c, unsigned min, unsigned max,
		       struct io_req **out, uint64_t deadline_ns)
{
	unsigned n = 0;
	int ret;
	while (c->nfailed && n < max)
		out[n++] = c->failed[--c->nfailed];
	if (c->user_reap)
		n += libaio_ring_take(c, max - n, out + n);
	if (deadline_ns) {
		if (n && n >= min)
			return (int)n;
		do {
			struct timespec ts = mono_time_left(deadline_ns);
			ret = io_getevents(c->aio, n < min ? (long)(min - n) : 0,
					   (long)(max - n), c->events, &ts);
		} while (ret == -EINTR);
		if (ret < 0)
			return ret;
		for (int i = 0; i < ret; i++)
			n += libaio_take(c, &c->events[i], &out[n]);
		return (int)n;
	}
	while (n < min) {
		ret = io_getevents(c->aio, (long)(min - n), (long)(max - n),
				   c->events, NULL);
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			return ret;
		for (int i = 0; i < ret; i++)
			n += libaio_take(c, &c->events[i], &out[n]);
	}
	return (int)n;
}

const struct engine engine_libaio = {
	.name = "libaio",
	.flags = ENGINE_BUILTIN | ENGINE_ASYNC | ENGINE_NEEDS_ALIGN,
	.init = libaio_init,
	.queue = libaio_queue_batch,
	.commit = libaio_commit,
	.reap = libaio_reap,
	.fsync = engine_fsync_syscall,
	.release = libaio_release,
};
