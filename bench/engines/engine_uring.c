/*
 * engine_uring.c - io_uring through liburing, with fio's fast paths as
 * options: registerfiles, fixedbufs (READ/WRITE_FIXED), sqthread_poll
 * (+ sqthread_poll_cpu), hipri (IOPOLL), nonvectored.  Queued requests go
 * down iodepth_batch per io_uring_enter, all of them by commit(); reap()
 * takes what the completion ring holds and enters only to wait for the
 * rest, as fio does.  With submit_and_wait the last batch instead rides on
 * the enter that reap() makes to wait, so one syscall both submits and
 * waits.  The ring must be created by the thread that uses it
 * (SINGLE_ISSUER); the runner inits engines inside each worker thread.
 *
 * Why commit() submits by default (measured 2026-12-01, this 2-core VM,
 * strace -f -c, 4K randread on zram, fio 3.33 running the exported job):
 * riding the wait, iomatrix made 1.00 io_uring_enter per IO at QD1 where
 * fio made 2.00 (it submits, then enters to wait); at QD32 both made 1.00.
 * At QD32 submitting without IORING_ENTER_GETEVENTS made 1.06 enters per
 * IO against fio's 1.00: under DEFER_TASKRUN nothing completed is posted
 * until an enter asks, so each refill needed one more enter to wait; fio's
 * commit asks, and so does ours now.  fio has no option for one enter that
 * submits and waits, so a submit_and_wait cell's exported job says it is
 * not the same workload.
 */
#ifdef HAVE_LIBURING
#include "engine.h"
#include "engine_ops.h"
#include "sysraw.h"
#include "util/monotime.h"

#include <errno.h>
#include <limits.h>
#include <liburing.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

struct engine_ctx {
	struct io_uring ring;
	unsigned depth;
	unsigned batch;         /* SQEs per enter, 0: all queued */
	/* uring_queue's two tests, one compare each: a full batch goes down
	 * before the next SQE (full_before) or after this one (full_after);
	 * UINT_MAX: never there (no batch; submit_and_wait: not after) */
	unsigned full_before, full_after;
	unsigned inflight;
	unsigned unsubmitted;
	int submit_err;         /* a failed early submit, returned by commit() */
	bool fixed_files, fixed_bufs, vectored, defer_taskrun;
	bool submit_and_wait;   /* the last batch rides on reap()'s enter */
	bool raw_enter;         /* uring_submit_queued enters in place (no SQPOLL) */
	int enter_fd;           /* the ring's fd, or its registered index */
	unsigned enter_flags;   /* GETEVENTS, and REGISTERED_RING with that index */
	struct iovec *iov;      /* one per slot: registered buffers, READV */
	void (*on_submit)(void *arg, unsigned n);
	void *on_submit_arg;
};

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)

/* Ring flags for what was asked.  SQPOLL excludes DEFER_TASKRUN (the kernel
 * thread, not us, runs the submissions); both cost nothing to ask for and
 * are dropped on kernels that lack them.  The optional set is fio's (3.33,
 * strace of io_uring_setup): SINGLE_ISSUER|DEFER_TASKRUN (completions are
 * run in our own io_uring_enter, no IPI, no task-work wakeups) plus
 * COOP_TASKRUN, and a CQ ring of iodepth entries (CQSIZE): at most iodepth
 * requests are in flight, so it cannot overflow, and a smaller ring is
 * fewer cache lines to walk. */
static unsigned uring_setup_flags(const struct engine_opts *o, bool optional)
{
	unsigned flags = 0;
	if (o->sqthread_poll) {
		flags |= IORING_SETUP_SQPOLL;
		if (o->sqthread_poll_cpu >= 0)
			flags |= IORING_SETUP_SQ_AFF;
	}
	if (o->hipri)
		flags |= IORING_SETUP_IOPOLL;
	if (!optional)
		return flags;
	flags |= IORING_SETUP_CQSIZE;
#ifdef IORING_SETUP_SINGLE_ISSUER
	flags |= IORING_SETUP_SINGLE_ISSUER;
#endif
#ifdef IORING_SETUP_DEFER_TASKRUN
	if (!o->sqthread_poll)
		flags |= IORING_SETUP_DEFER_TASKRUN;
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
	flags |= IORING_SETUP_COOP_TASKRUN;
#endif
	return flags;
}

/* Why the kernel refused the ring, for the option that asked for it.  An
 * error left empty means a plain refusal (policy): engine.refused_hint. */
static void uring_explain_setup(const struct engine_opts *o, int ret, char *err,
				size_t errlen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (o->sqthread_poll && o->sqthread_poll_cpu >= 0 && ret == -EINVAL)
		ERR("sqthread_poll_cpu %d: the kernel refused to pin the SQPOLL thread "
		    "(IORING_SETUP_SQ_AFF): %s; pick an online CPU (0-%ld) this process "
		    "may run on, or drop sqthread_poll_cpu",
		    o->sqthread_poll_cpu, strerror(-ret), ncpu - 1);
	else if (o->sqthread_poll && ret == -EPERM)
		ERR("sqthread_poll: the kernel refused an SQPOLL ring "
		    "(IORING_SETUP_SQPOLL): %s; before Linux 5.11 it needs root "
		    "(CAP_SYS_ADMIN): run as root, use a newer kernel, or drop sqthread_poll",
		    strerror(-ret));
	else if (o->hipri && (ret == -EINVAL || ret == -EOPNOTSUPP))
		ERR("hipri: the kernel refused a polled ring (IORING_SETUP_IOPOLL): %s; "
		    "drop hipri", strerror(-ret));
	else if (o->sqthread_poll && ret == -EINVAL)
		ERR("sqthread_poll: the kernel refused an SQPOLL ring "
		    "(IORING_SETUP_SQPOLL, Linux 5.1+): %s; drop sqthread_poll",
		    strerror(-ret));
}

/*
 * hipri needs a device with poll queues: the block layer then completes by
 * polling instead of by interrupt.  Without them the kernel fails each IO
 * with EOPNOTSUPP; checking queue/io_poll up front gives the fix instead.
 * Returns 0 (has them, or cannot tell: the kernel has the last word) or
 * -EOPNOTSUPP with err filled.
 */
static int uring_check_poll_queues(int fd, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return 0;
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	char path[128], name[64] = "";
	/* a partition has no queue/ of its own: its disk's is one level up */
	const char *const fmts[] = { "/sys/dev/block/%u:%u/queue/io_poll",
				     "/sys/dev/block/%u:%u/../queue/io_poll" };
	FILE *f = NULL;
	for (int i = 0; i < 2 && !f; i++) {
		snprintf(path, sizeof(path), fmts[i], major(dev), minor(dev));
		f = fopen(path, "r");
	}
	if (!f)
		return 0;
	int v = fgetc(f);
	fclose(f);
	if (v != '0')
		return 0;
	char link[64], target[256];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		const char *b = strrchr(target, '/');
		snprintf(name, sizeof(name), "%.63s", b ? b + 1 : target);
	}
	ERR("hipri: device '%s' has no poll queues (%s is 0); for NVMe load the "
	    "driver with poll queues (nvme.poll_queues=N on the kernel command line, "
	    "or modprobe nvme poll_queues=N), or drop hipri",
	    *name ? name : "?", path);
	return -EOPNOTSUPP;
}

static int uring_register(struct engine_ctx *c, const struct engine_opts *o,
			  char *err, size_t errlen)
{
	if (o->registerfiles && o->nfds) {
		int ret = io_uring_register_files(&c->ring, o->fds, o->nfds);
		if (ret < 0) {
			ERR("registerfiles: the kernel refused to register %u file(s) "
			    "(IORING_REGISTER_FILES, Linux 5.1+): %s; %s", o->nfds,
			    strerror(-ret), ret == -EMFILE ?
			    "raise the open-file limit (ulimit -n) or drop registerfiles" :
			    "drop registerfiles");
			return ret;
		}
		c->fixed_files = true;
	}
	if (o->fixedbufs) {
		int ret = io_uring_register_buffers(&c->ring, c->iov, c->depth);
		if (ret < 0) {
			struct rlimit rl = { 0, 0 };
			getrlimit(RLIMIT_MEMLOCK, &rl);
			char lim[32] = "unlimited";
			if (rl.rlim_cur != RLIM_INFINITY)
				snprintf(lim, sizeof(lim), "%llu KiB",
					 (unsigned long long)rl.rlim_cur / 1024);
			if (ret == -ENOMEM)
				ERR("fixedbufs: the kernel refused to pin %u buffers of %llu "
				    "bytes (IORING_REGISTER_BUFFERS): %s; pinned memory counts "
				    "against RLIMIT_MEMLOCK (%s here) without CAP_IPC_LOCK: "
				    "raise it (ulimit -l unlimited, LimitMEMLOCK=infinity for a "
				    "service) or drop fixedbufs", c->depth,
				    (unsigned long long)o->buf_size, strerror(-ret), lim);
			else
				ERR("fixedbufs: the kernel refused to register the buffers "
				    "(IORING_REGISTER_BUFFERS, Linux 5.1+): %s; drop fixedbufs",
				    strerror(-ret));
			return ret;
		}
		c->fixed_bufs = true;
	}
	return 0;
}

/* nonvectored -1 (fio's default): IORING_OP_READ/WRITE where the kernel has
 * them (5.6+), else READV/WRITEV. */
static int uring_pick_vectored(struct engine_ctx *c, const struct engine_opts *o,
			       char *err, size_t errlen)
{
	if (o->nonvectored == 0) {
		c->vectored = true;
		return 0;
	}
	struct io_uring_probe *p = io_uring_get_probe_ring(&c->ring);
	bool has = p && io_uring_opcode_supported(p, IORING_OP_READ) &&
		   io_uring_opcode_supported(p, IORING_OP_WRITE);
	if (p)
		io_uring_free_probe(p);
	if (!p) /* no probe (before 5.6): no READ either */
		has = false;
	if (!has && o->nonvectored == 1) {
		ERR("nonvectored: this kernel has no IORING_OP_READ/WRITE (Linux 5.6+); "
		    "set nonvectored: 0 (or -1, whichever the kernel has)");
		return -EOPNOTSUPP;
	}
	c->vectored = !has;
	return 0;
}

static void uring_release(struct engine_ctx *c)
{
	if (!c)
		return;
	if (c->ring.ring_fd > 0)
		io_uring_queue_exit(&c->ring);
	free(c->iov);
	free(c);
}

static int uring_init(struct engine_ctx **out, const struct engine_opts *o,
		      char *err, size_t errlen)
{
	struct engine_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ring.ring_fd = -1;
	c->depth = o->depth ? o->depth : 1;
	c->batch = o->batch;
	c->submit_and_wait = o->submit_and_wait;
	c->full_before = c->batch ? c->batch : UINT_MAX;
	c->full_after = c->batch && !c->submit_and_wait ? c->batch : UINT_MAX;
	c->on_submit = o->on_submit;
	c->on_submit_arg = o->on_submit_arg;
	int ret = -ENOMEM;
	if (!(c->iov = calloc(c->depth, sizeof(*c->iov))))
		goto err;
	for (unsigned i = 0; i < c->depth && o->bufs; i++)
		c->iov[i] = (struct iovec){ (char *)o->bufs + (uint64_t)i * o->buf_size,
					    o->buf_size };
	if (o->hipri)
		for (unsigned i = 0; i < o->nfds; i++)
			if ((ret = uring_check_poll_queues(o->fds[i], err, errlen)) < 0)
				goto err;
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	p.flags = uring_setup_flags(o, true);
	p.cq_entries = c->depth;
	p.sq_thread_cpu = o->sqthread_poll_cpu >= 0 ? (unsigned)o->sqthread_poll_cpu : 0;
	ret = io_uring_queue_init_params(c->depth, &c->ring, &p);
	if (ret == -EINVAL && p.flags != uring_setup_flags(o, false)) {
		/* older kernel: only what was asked for */
		memset(&p, 0, sizeof(p));
		p.flags = uring_setup_flags(o, false);
		p.sq_thread_cpu = o->sqthread_poll_cpu >= 0 ? (unsigned)o->sqthread_poll_cpu : 0;
		ret = io_uring_queue_init_params(c->depth, &c->ring, &p);
	}
	if (ret < 0) {
		c->ring.ring_fd = -1;
		uring_explain_setup(o, ret, err, errlen);
		goto err;
	}
#ifdef IORING_SETUP_DEFER_TASKRUN
	c->defer_taskrun = p.flags & IORING_SETUP_DEFER_TASKRUN;
#endif
	if ((ret = uring_register(c, o, err, errlen)) < 0 ||
	    (ret = uring_pick_vectored(c, o, err, errlen)) < 0)
		goto err;
	/* The ring's fd registered with the thread (IORING_REGISTER_RING_FDS,
	 * Linux 5.18+; ignored where refused): each io_uring_enter then skips
	 * the fd table lookup (fget/fput), 3.7 % of the submitting thread's
	 * samples in perf on zram 4K randread QD32 (2026-12-01).  The requests
	 * and the enters stay those of fio's job, so the exported job is still
	 * the same workload; fio 3.33 does not register it. */
	int reg = io_uring_register_ring_fd(&c->ring);
	/* the enter uring_submit_queued makes in place: liburing's own
	 * arguments (its enter_ring_fd is the registered index once
	 * registering returned 1); SQPOLL keeps liburing's submit, which
	 * wakes the kernel thread */
	c->raw_enter = !(c->ring.flags & IORING_SETUP_SQPOLL);
	c->enter_fd = reg == 1 ? c->ring.enter_ring_fd : c->ring.ring_fd;
	c->enter_flags = IORING_ENTER_GETEVENTS | (reg == 1 ? IORING_ENTER_REGISTERED_RING : 0);
	/* io-wq is left at the kernel's worker count, as fio leaves it.  zram
	 * and loop have no NOWAIT reads, so every request is punted to io-wq;
	 * capping its bounded workers (we used to cap them at one per CPU)
	 * cost IOPS there.  Measured: 2026-11 (quiet 2-core VM, zram
	 * 4K randread QD32, a liburing loop with fixed file and buffers) 245-248
	 * K IOPS capped at 2 against 282-311 K uncapped; 2026-12-01 (this VM
	 * at load 12-15, iomatrix registerfiles+fixedbufs, 7 alternating 3 s
	 * rounds) median 197 K uncapped against 176 K capped, job-thread CPU
	 * 1435 against 1464 ns per IO. */
	*out = c;
	return 0;
err:
	uring_release(c);
	return ret;
}

static void uring_prep(struct engine_ctx *c, struct io_uring_sqe *sqe,
		       const struct io_req *r)
{
	int fd = c->fixed_files ? (int)r->file : r->fd;
	unsigned len = (unsigned)r->len;
	if (c->fixed_bufs) {
		if (r->write)
			io_uring_prep_write_fixed(sqe, fd, r->buf, len, r->offset,
						  (int)r->buf_index);
		else
			io_uring_prep_read_fixed(sqe, fd, r->buf, len, r->offset,
						 (int)r->buf_index);
	} else if (c->vectored) {
		struct iovec *v = &c->iov[r->buf_index];
		v->iov_base = r->buf;
		v->iov_len = len;
		if (r->write)
			io_uring_prep_writev(sqe, fd, v, 1, r->offset);
		else
			io_uring_prep_readv(sqe, fd, v, 1, r->offset);
	} else if (r->write) {
		io_uring_prep_write(sqe, fd, r->buf, len, r->offset);
	} else {
		io_uring_prep_read(sqe, fd, r->buf, len, r->offset);
	}
	if (c->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, (void *)r);
}

/* Submit what is queued: one io_uring_enter (fio's commit).  -EINTR and
 * -EAGAIN/-EBUSY (no room for more in flight) leave the rest for the
 * next commit or reap. */
static inline int uring_submit_queued(struct engine_ctx *c)
{
	/* with IORING_ENTER_GETEVENTS, as fio's commit enters: the kernel
	 * posts what has completed (DEFER_TASKRUN defers it to such an
	 * enter), so reap() finds it without a second enter.  In place,
	 * what liburing's io_uring_submit_and_get_events does without
	 * SQPOLL: the SQ tail published, one enter with the same arguments
	 * (strace: the same calls); 39 user instructions per call in
	 * liburing, an enter per IO at iomatrix's default batch */
	int ret;
	if (c->raw_enter) {
		struct io_uring_sq *sq = &c->ring.sq;
		unsigned tail = sq->sqe_tail;
		sq->sqe_head = tail;
		io_uring_smp_store_release(sq->ktail, tail);
		ret = (int)sysraw6(__NR_io_uring_enter, c->enter_fd, tail - *sq->khead, 0,
				   c->enter_flags, 0, _NSIG / 8);
	} else {
		ret = io_uring_submit_and_get_events(&c->ring);
	}
	if (ret >= 0)
		c->unsubmitted = 0;
	if (ret > 0 && c->on_submit)
		c->on_submit(c->on_submit_arg, (unsigned)ret);
	if (ret == -EINTR || ret == -EAGAIN || ret == -EBUSY)
		return 0;
	return ret < 0 ? ret : 0;
}

static enum engine_queue uring_queue(struct engine_ctx *c, struct io_req *r)
{
	if (c->inflight == c->depth)
		return ENGINE_Q_BUSY;
	/* with submit_and_wait a full batch goes down before the next SQE
	 * is added, so that the last one can still ride on reap()'s enter */
	if (c->unsubmitted >= c->full_before) {
		int ret = uring_submit_queued(c);
		if (ret < 0 && !c->submit_err)
			c->submit_err = ret;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&c->ring);
	if (!sqe)
		return ENGINE_Q_BUSY;
	uring_prep(c, sqe, r);
	c->inflight++;
	c->unsubmitted++;
	/* fio's way: a full batch goes down now, so a request waits for no
	 * later one (submit_and_wait keeps the last batch for reap()) */
	if (c->unsubmitted >= c->full_after) {
		int ret = uring_submit_queued(c);
		if (ret < 0 && !c->submit_err)
			c->submit_err = ret;
	}
	return ENGINE_Q_QUEUED;
}

static int uring_commit(struct engine_ctx *c)
{
	int ret = c->submit_err;
	c->submit_err = 0;
	/* with submit_and_wait the last batch is deferred to reap() */
	if (!ret && c->unsubmitted && !c->submit_and_wait)
		ret = uring_submit_queued(c);
	return ret;
}

/* Take up to max completions from the CQ ring into out[n...]; returns the
 * new n.  A CQE of liburing's own timeout (kernels without EXT_ARG wait
 * with a timeout request) is consumed and not handed on. */
static unsigned uring_take(struct engine_ctx *c, unsigned n, unsigned max,
			   struct io_req **out)
{
	/* io_uring_for_each_cqe, with the tail read once (this thread is
	 * the ring's only reader) and no CQE32 (never asked for) */
	struct io_uring_cq *cq = &c->ring.cq;
	unsigned head = *cq->khead, tail = io_uring_smp_load_acquire(cq->ktail);
	unsigned first = head, mask = cq->ring_mask, took = n;
	for (; head != tail && n < max; head++) {
		struct io_uring_cqe *cqe = &cq->cqes[head & mask];
		if (__builtin_expect(cqe->user_data == LIBURING_UDATA_TIMEOUT, 0))
			continue;
		struct io_req *r = io_uring_cqe_get_data(cqe);
		r->result = cqe->res;
		out[n++] = r;
	}
	c->inflight -= n - took;
	if (head != first)
		io_uring_smp_store_release(cq->khead, head);
	return n;
}

/* Submit what is still queued and wait for min completions until the
 * deadline: one io_uring_enter with IORING_ENTER_EXT_ARG where the kernel
 * has it (5.11+).  -ETIME is a timeout, not an error. */
static int uring_wait_until(struct engine_ctx *c, unsigned min, uint64_t deadline_ns)
{
	struct io_uring_cqe *cqe;
	int ret;
	do {
		struct timespec left = mono_time_left(deadline_ns);
		struct __kernel_timespec ts = { left.tv_sec, left.tv_nsec };
		if (c->unsubmitted) {
			unsigned u = c->unsubmitted;
			ret = io_uring_submit_and_wait_timeout(&c->ring, &cqe, min, &ts, NULL);
			if (ret >= 0 || ret == -ETIME) {
				c->unsubmitted = 0;
				if (c->on_submit)
					c->on_submit(c->on_submit_arg, u);
			}
		} else {
			ret = io_uring_wait_cqes(&c->ring, &cqe, min, &ts, NULL);
		}
	} while (ret == -EINTR);
	return ret == -ETIME || ret > 0 ? 0 : ret;
}

static int uring_reap(struct engine_ctx *c, unsigned min, unsigned max,
		      struct io_req **out, uint64_t deadline_ns)
{
	if (min > c->inflight)
		min = c->inflight;
	if (deadline_ns) {
		if (c->defer_taskrun && !c->unsubmitted)
			io_uring_get_events(&c->ring); /* posted only when we enter */
		unsigned n = uring_take(c, 0, max, out);
		if ((n && n >= min) || (!min && !c->unsubmitted))
			return (int)n;
		int ret = uring_wait_until(c, min > n ? min - n : 1, deadline_ns);
		if (ret < 0)
			return ret;
		return (int)uring_take(c, n, max, out);
	}
	if (c->unsubmitted) {
		int ret;
		do
			ret = io_uring_submit_and_wait(&c->ring, min);
		while (ret == -EINTR);
		if (ret < 0)
			return ret;
		if (ret > 0 && c->on_submit)
			c->on_submit(c->on_submit_arg, (unsigned)ret);
		c->unsubmitted = 0;
		min = 0; /* waited already */
	} else if (!min && c->defer_taskrun) {
		/* completions are posted only when we enter: poll once */
		io_uring_get_events(&c->ring);
	}
	unsigned n = 0;
	for (;;) {
		n = uring_take(c, n, max, out);
		if (n >= min || n == max)
			break;
		struct io_uring_cqe *cqe;
		int ret = io_uring_wait_cqe_nr(&c->ring, &cqe, min - n);
		if (ret < 0 && ret != -EINTR && ret != -ETIME)
			return ret;
	}
	return (int)n;
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
	.fsync = engine_fsync_syscall,
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
