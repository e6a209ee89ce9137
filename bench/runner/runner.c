/*
 * runner.c - runner.h: run one repetition: start the job threads behind a
 * start gate, watch time, stop requests and progress from this thread, and
 * merge the per-job numbers.  The file set they run on is layout.c's.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/testhook.h"
#include "util/fsutil.h"
#include "util/hugetlb.h"
#include "util/monotime.h"
#include "engines/engine.h"
#include "stats/prng.h"
#include "jobproc.h"
#include "placement.h"
#include "worker.h"
#include "runner_int.h"
#include "stats/randdist.h"

#define STOP_POLL_NS 100000000ull
#define WORKER_STACK (256u * 1024)

void runner_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

bool runner_stop_requested(const struct run_ctl *ctl)
{
	return ctl && ctl->stop && *ctl->stop;
}

int runner_direct_msg(const char *path, char *err, size_t errlen)
{
	runner_seterr(err, errlen, "O_DIRECT is not supported by the filesystem of '%s'; "
	       "set direct: false or use another path", path);
	return -EINVAL;
}

int runner_check_direct(const char *path, char *err, size_t errlen)
{
	char probe[PATH_MAX + 64], dir[PATH_MAX];
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		return 0;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		/* O_NONBLOCK: a FIFO swapped in since stat() must not hang us */
		fd = open(path, O_RDONLY | O_DIRECT | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return errno == EINVAL ? runner_direct_msg(path, err, errlen) : 0;
		close(fd);
		return 0;
	}
	if (stat(path, &st) == 0)
		snprintf(dir, sizeof(dir), "%s", path);
	else /* a file to be made: its directory */
		fsutil_parent(path, dir, sizeof(dir));
	snprintf(probe, sizeof(probe), "%s/.iomatrix-probe.%ld", dir, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EINVAL ? runner_direct_msg(path, err, errlen) : 0;
	close(fd);
	unlink(probe);
	return 0;
}

int runner_check_bs(const struct cell *c, unsigned lbs, char *err, size_t errlen)
{
	if (!c->direct || !lbs || c->bs % lbs == 0)
		return 0;
	runner_seterr(err, errlen, "bs %" PRIu64 " is %s the logical block size of '%s' "
	       "(%u bytes); use a multiple of %u or direct: false", c->bs,
	       c->bs < lbs ? "below" : "not a multiple of", c->path, lbs, lbs);
	return -EINVAL;
}

uint64_t runner_blocks_per_file(const struct cell *c, uint64_t file_size)
{
	if (!c->bs)
		return 0;
	/* active_range (SNIA PTS-C: 75 %): only the first share of each file
	 * or of the device is addressed, the rest was laid out and left */
	if (c->active_range_pct >= 100 || c->active_range_pct <= 0)
		return file_size / c->bs;
	return (uint64_t)((double)file_size * c->active_range_pct / 100.0) / c->bs;
}

int runner_check_zones(const struct cell *c, const struct target *t, char *err,
		       size_t errlen)
{
	struct randdist d;
	char why[240];

	if (!c->random_distribution || !c->random_distribution[0] || !pattern_is_random(c->pattern) ||
	    randdist_parse(c->random_distribution, &d, why, sizeof(why)) < 0)
		return 0; /* job set-up says what is wrong with the text */
	if (randdist_zones_fit(&d, runner_blocks_per_file(c, t->file_size) * t->nfiles,
			       c->bs, why, sizeof(why)) == 0)
		return 0;
	runner_seterr(err, errlen, "%s (of '%s')", why, c->path);
	return -EINVAL;
}

/* ---- one repetition ---- */

static void drop_caches(struct rep_result *out)
{
	if (geteuid() != 0) {
		snprintf(out->warning, sizeof(out->warning), "drop_caches skipped: not root");
		return;
	}
	sync();
	/* a test reads /proc from its own directory (testhook.h: proc=DIR)
	 * and sees the drop there instead of emptying the machine's cache */
	const char *proc = testhook_value("proc");
	char path[512];
	snprintf(path, sizeof(path), "%s/sys/vm/drop_caches", proc ? proc : "/proc");
	int fd = open(path, O_WRONLY | O_CLOEXEC | (proc ? O_APPEND | O_NOFOLLOW : 0));
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		snprintf(out->warning, sizeof(out->warning), "drop_caches failed: %s",
			 strerror(errno));
	if (fd >= 0)
		close(fd);
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

/* The jobs' files and memory; shm: thread: false, the job array and the
 * histograms are shared memory (jobproc.h). */
static void jobs_free(struct job *jobs, unsigned n, unsigned nfiles, bool shm)
{
	if (!jobs)
		return;
	for (unsigned i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		for (unsigned f = 0; j->fds && f < nfiles; f++)
			if (j->fds[f] >= 0)
				close(j->fds[f]);
		free(j->fds);
		if (j->bufs_mapped)
			munmap(j->bufs_base, j->bufs_mapped);
		else
			free(j->bufs);
		free(j->wcount);
		free(j->fsync_due);
		free(j->dcount);
		free(j->datasync_due);
		free(j->trace.buf);
		for (int d = 0; d < DIR__COUNT; d++) {
			if (shm) {
				shm_free(j->hist[d], sizeof(*j->hist[d]));
				shm_free(j->svc_hist[d], sizeof(*j->svc_hist[d]));
			} else {
				free(j->hist[d]);
				free(j->svc_hist[d]);
			}
			free(j->iv_snap[d]);
			series_release(&j->series[d]);
		}
		free(j->iv_idx);
		free(j->iv_cnt);
	}
	if (shm)
		shm_free(jobs, sizeof(*jobs) * n);
	else
		free(jobs);
}

/* Open file f of the target for a job: never through a link planted in
 * place of a scratch file, and only the very file runner_prepare checked. */
static int open_file(const struct cell *c, const struct target *t, unsigned f,
		     int flags, char *err, size_t errlen)
{
	const char *path = t->paths[f];
	int fd = open(path, flags | (t->nofollow ? O_NOFOLLOW : 0) | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == EINVAL && (flags & O_DIRECT))
			return runner_direct_msg(c->path, err, errlen);
		runner_seterr(err, errlen, "cannot open '%s': %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	if (t->ids && t->ids[f].ino && !t->is_blockdev &&
	    (fstat(fd, &st) < 0 || st.st_dev != t->ids[f].dev || st.st_ino != t->ids[f].ino)) {
		close(fd);
		runner_seterr(err, errlen, "'%s' was replaced by another file after it was laid out; "
		       "not touching it: check who else writes that directory", path);
		return -ESTALE;
	}
	return fd;
}

/* cpu.ns_per_io: the job threads' usr+sys over the IOs they did, both
 * from the start gate to the end (the ramp is in both, so it cancels).
 * Under SQPOLL the kernel's SQ thread submits and the job thread may do no
 * syscall at all (0 ns per IO, seen under ASan in engine_uring_options): the
 * number would not mean what it says, so it is null with the reason. */
static void rep_cpu_per_io(const struct cell *c, const struct job *jobs, unsigned n,
			   struct rep_result *out)
{
	uint64_t ns = 0, ios = 0;
	if (c->sqthread_poll) {
		out->have_cpu_per_io = false;
		out->cpu_per_io_why = "sqthread_poll: the kernel's SQ thread submits the IOs; "
				      "its CPU time is not the job threads'";
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		ns += jobs[i].cpu_ns;
		ios += jobs[i].all_ios;
	}
	out->have_cpu_per_io = ios > 0;
	out->cpu_ns_per_io = ios ? (double)ns / (double)ios : 0;
}

uint64_t runner_rep_seed(const struct cell *c, unsigned rep)
{
	if (c->randrepeat)
		return c->seed;
	uint64_t x = c->seed ^ ((uint64_t)(rep + 1) << 32);
	return prng_splitmix(&x);
}

/* The shared state of a repetition from the cell and the target: depth,
 * directions, block geometry, the request budget.  0, or -EINVAL with err
 * filled in. */
static int shared_init(struct rep_shared *sh, const struct cell *c,
		       const struct target *t, const struct engine *eng,
		       char *err, size_t errlen)
{
	uint64_t bs = c->bs;

	if (bs == 0 || t->nfiles == 0) {
		runner_seterr(err, errlen, "bs and the file set must not be empty");
		return -EINVAL;
	}
	if ((eng->flags & ENGINE_NEEDS_ALIGN) &&
	    runner_check_bs(c, t->logical_block, err, errlen) < 0)
		return -EINVAL;
	uint64_t bpf = runner_blocks_per_file(c, t->file_size);
	if (bpf == 0) {
		runner_seterr(err, errlen, "size %" PRIu64 " of '%s' is smaller than bs %" PRIu64
		       "; raise size or lower bs", t->file_size, c->path, bs);
		return -EINVAL;
	}
	sh->c = c;
	sh->t = t;
	sh->eng = eng;
	sh->depth = (eng->flags & ENGINE_ASYNC) && c->iodepth ? c->iodepth : 1;
	sh->reads = pattern_reads(c->pattern);
	sh->writes = pattern_writes(c->pattern);
	sh->mixed = pattern_is_mixed(c->pattern);
	sh->random = pattern_is_random(c->pattern);
	sh->bs = bs;
	sh->rate_iops = (double)rate_job_iops(&c->rate, sh->reads, sh->writes);
	sh->blocks_per_file = bpf;
	sh->nblocks = bpf * t->nfiles;
	if (c->requests)
		sh->budget = c->requests;
	uint64_t io_size = c->io_size;
	if (c->io_size_mult > 0) /* "1.5x": of the whole file set or device */
		io_size = (uint64_t)(c->io_size_mult * (double)t->file_size *
				     (double)t->nfiles);
	if (io_size) {
		uint64_t n = io_size / bs ? io_size / bs : 1;
		if (!sh->budget || n < sh->budget)
			sh->budget = n;
	}
	return 0;
}

/*
 * A job's IO buffers (worker.h).  By default 4K pages from the allocator,
 * page aligned for O_DIRECT, as fio's default (iomem=malloc) gets them, so
 * a large IO reaches the device as fio's does: on a loop device (128
 * segments per request) a 1 MiB read of 4K pages can be two requests.
 * mem: mmaphuge asks for huge pages, one request per large IO: reserved
 * hugetlb pages where the machine has them (an anonymous MAP_HUGETLB
 * mapping, as fio's iomem=mmaphuge; shared, so that a job process does not
 * copy it on write), else transparent huge pages (a 2 MiB aligned private
 * mapping, advised; ignored where THP is off).  Measured 2026-12-02 before the default
 * changed: a 1M QD8 read on this VM's virtio disk made 172 device reads
 * per 100 IOs in 4K pages, fio 86, 100 in huge pages; on a loop device the
 * huge-page cells read 1.5-2.6x fio's IOPS.  An engine that
 * does no IO wants cache-line alignment only.  0 or -ENOMEM.
 */
static int job_bufs_alloc(const struct rep_shared *sh, struct job *j, uint64_t blen)
{
	size_t align = (sh->eng->flags & ENGINE_NEEDS_ALIGN) ? 4096 : 64;
	j->bufs = NULL;
	j->bufs_mapped = 0;
	if (!worker_bufs_huge(sh))
		return posix_memalign(&j->bufs, align, blen) ? -ENOMEM : 0;
	uint64_t page = hugetlb_page_bytes(), hlen = hugetlb_round(blen, page);
#ifdef MAP_HUGETLB
	void *p = mmap(NULL, hlen, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p != MAP_FAILED) {
		j->bufs = j->bufs_base = p;
		j->bufs_mapped = hlen;
		return 0;
	}
#endif
	/* a mapping of our own, 2 MiB aligned inside: an allocator's (a
	 * sanitizer's) chunk may not take the advice (ASan's: 12 % of 1M
	 * reads split) */
	hlen = hugetlb_round(blen, WORKER_BUF_HUGE_BYTES);
	size_t mlen = hlen + WORKER_BUF_HUGE_BYTES;
	char *m = mmap(NULL, mlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -ENOMEM;
	uintptr_t a = ((uintptr_t)m + WORKER_BUF_HUGE_BYTES - 1) &
		      ~(uintptr_t)(WORKER_BUF_HUGE_BYTES - 1);
	j->bufs = (void *)a;
	j->bufs_base = m;
	j->bufs_mapped = mlen;
#ifdef MADV_HUGEPAGE
	madvise(j->bufs, hlen, MADV_HUGEPAGE);
#endif
	return 0;
}

/* Job i's files, buffers, histograms, PRNG and slice.  0, -ENOMEM, or the
 * -errno of an open with err filled in. */
static int job_setup(struct rep_shared *sh, struct job *j, unsigned i,
		     unsigned njobs, bool one_pass, size_t expect,
		     const struct placement *pl, char *err, size_t errlen)
{
	const struct cell *c = sh->c;
	const struct target *t = sh->t;
	bool no_io = sh->eng->flags & ENGINE_NO_IO;
	int oflags = (sh->writes ? O_RDWR : O_RDONLY) | (c->direct ? O_DIRECT : 0);

	j->sh = sh;
	j->idx = i;
	j->fds = malloc(t->nfiles * sizeof(*j->fds));
	j->wcount = calloc(t->nfiles, sizeof(*j->wcount));
	j->fsync_due = calloc(t->nfiles, sizeof(*j->fsync_due));
	j->dcount = calloc(t->nfiles, sizeof(*j->dcount));
	j->datasync_due = calloc(t->nfiles, sizeof(*j->datasync_due));
	if (!j->fds || !j->wcount || !j->fsync_due || !j->dcount || !j->datasync_due)
		return -ENOMEM;
	for (unsigned f = 0; f < t->nfiles; f++)
		j->fds[f] = -1;
	for (unsigned f = 0; f < t->nfiles && !no_io; f++) {
		j->fds[f] = open_file(c, t, f, oflags, err, errlen);
		if (j->fds[f] < 0)
			return j->fds[f];
	}
	uint64_t blen = worker_buf_bytes(sh);
	if (job_bufs_alloc(sh, j, blen) < 0)
		return -ENOMEM;
	placement_bind_memory(pl, j->bufs, blen);
	/* the job fills (writes) or faults in (reads) its buffers itself,
	 * before the start gate: worker.c, wloop_init() */
	for (int d = 0; d < DIR__COUNT; d++) {
		welford_init(&j->lat[d]);
		series_init(&j->series[d], cell_interval_ns(c));
		if (!(d == DIR_READ ? sh->reads : sh->writes))
			continue;
		j->hist[d] = c->thread ? calloc(1, sizeof(*j->hist[d]))
				       : shm_alloc(sizeof(*j->hist[d]));
		/* the interval histograms (worker.c closes one per interval):
		 * a job process keeps its own, room for 64 buckets an interval
		 * before the first growth; threads add theirs to sh->ivacc */
		if (!j->hist[d] || series_reserve(&j->series[d], expect) < 0 ||
		    !(j->iv_snap[d] = calloc(1, sizeof(*j->iv_snap[d]))) ||
		    (!sh->ivacc && ivhist_reserve(&j->series[d].hist, expect, expect * 64) < 0))
			return -ENOMEM;
		/* a write's first seconds finer: a short cache runs out there */
		if (d == DIR_WRITE && series_init_fine(&j->series[d], SERIES_FINE_NS,
						       SERIES_FINE_SPAN_NS) < 0)
			return -ENOMEM;
		welford_init(&j->svc_lat[d]);
		if (sh->rate_iops > 0 &&
		    !(j->svc_hist[d] = c->thread ? calloc(1, sizeof(*j->svc_hist[d]))
						 : shm_alloc(sizeof(*j->svc_hist[d]))))
			return -ENOMEM;
	}
	if (sh->trace_fd >= 0 && !(j->trace.buf = malloc(JOBTRACE_BUF)))
		return -ENOMEM;
	if (!(j->iv_idx = malloc(HIST_BUCKETS * sizeof(*j->iv_idx))) ||
	    !(j->iv_cnt = malloc(HIST_BUCKETS * sizeof(*j->iv_cnt))))
		return -ENOMEM;
	prng_seed(&j->rng, sh->seed ^ ((uint64_t)(i + 1) * 0xd1b54a32d192ed03ull));
	/* sequential jobs each own a contiguous slice of the file set */
	uint64_t lo = (uint64_t)((unsigned __int128)sh->nblocks * i / njobs);
	uint64_t hi = (uint64_t)((unsigned __int128)sh->nblocks * (i + 1) / njobs);
	if (lo == hi) {
		lo = i % sh->nblocks;
		hi = lo + 1;
	}
	if (sh->random && offsets_init(&j->offs, c, sh->nblocks, sh->bs,
				       njobs > 1 ? &sh->map_cursor : NULL, sh->seed,
				       err, errlen) < 0)
		return -EINVAL;
	j->slice_lo = j->cursor = lo;
	j->slice_hi = hi;
	j->quota = one_pass ? hi - lo : UINT64_MAX;
	return 0;
}

/* Progress of the running jobs to ctl, from their live counters. */
struct watch {
	uint64_t next_prog, last_t, last_ios, last_bytes;
};

static void watch_progress(struct rep_shared *sh, struct job *jobs, unsigned created,
			   struct run_ctl *ctl, struct watch *w, uint64_t now)
{
	const struct cell *c = sh->c;
	uint64_t ios = 0;

	for (unsigned i = 0; i < created; i++)
		ios += atomic_load_explicit(&jobs[i].live_ios, memory_order_relaxed);
	uint64_t bytes = ios * sh->bs; /* every IO of the repetition is bs */
	double dt = (double)(now - w->last_t) / 1e9;
	if (ctl && ctl->progress && dt > 0) {
		struct progress p = {
			.elapsed_s = (double)(now - sh->t_start) / 1e9,
			.total_s = c->runtime_ns ?
				(double)(c->ramp_ns + c->runtime_ns) / 1e9 : 0,
			.iops = (double)(ios - w->last_ios) / dt,
			.bw_bytes_s = (double)(bytes - w->last_bytes) / dt,
			.in_ramp = now < sh->t0,
		};
		ctl->progress(ctl->arg, &p);
	}
	w->last_t = now;
	w->last_ios = ios;
	w->last_bytes = bytes;
	w->next_prog = now + PROGRESS_NS;
}

/* Open the start gate, then watch the jobs until all finished: stop them
 * on a signal, sample getrusage at the end of the ramp, report progress.
 * Returns whether a stop was requested; *ru0 holds the usage at the start
 * of measurement. */
static bool rep_watch(struct rep_shared *sh, struct job *jobs, unsigned created,
		      struct jobproc *procs, struct run_ctl *ctl, struct rusage *ru0)
{
	const struct cell *c = sh->c;
	bool sampled = false, interrupted = false;

	pthread_mutex_lock(&sh->lock);
	while (sh->nready < created) {
		if (!procs) {
			pthread_cond_wait(&sh->cond, &sh->lock);
			continue;
		}
		/* a job process may die before it gets to the gate */
		uint64_t wake = mono_ns() + STOP_POLL_NS;
		struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000ull),
				       .tv_nsec = (long)(wake % 1000000000ull) };
		pthread_cond_timedwait(&sh->cond, &sh->lock, &ts);
		pthread_mutex_unlock(&sh->lock);
		jobproc_poll(sh, jobs, procs, created);
		pthread_mutex_lock(&sh->lock);
	}
	sh->t_start = mono_ns();
	sh->t0 = sh->t_start + c->ramp_ns;
	sh->t_end = c->runtime_ns ? sh->t0 + c->runtime_ns : 0;
	if (!c->ramp_ns) {
		getrusage(RUSAGE_SELF, ru0);
		sampled = true;
	}
	sh->go = true;
	pthread_cond_broadcast(&sh->go_cond);

	struct watch w = { sh->t_start + PROGRESS_NS, sh->t_start, 0, 0 };
	while (sh->nfinished < created) {
		uint64_t now = mono_ns();
		uint64_t wake = now + STOP_POLL_NS;
		if (w.next_prog < wake)
			wake = w.next_prog;
		if (!sampled && sh->t0 < wake)
			wake = sh->t0;
		struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000ull),
				       .tv_nsec = (long)(wake % 1000000000ull) };
		pthread_cond_timedwait(&sh->cond, &sh->lock, &ts);
		if (sh->nfinished >= created)
			break;
		pthread_mutex_unlock(&sh->lock);
		if (procs)
			jobproc_poll(sh, jobs, procs, created);
		now = mono_ns();
		if (runner_stop_requested(ctl) && !interrupted) {
			interrupted = true;
			atomic_store(&sh->stop, 1);
		}
		if (!sampled && now >= sh->t0) {
			getrusage(RUSAGE_SELF, ru0);
			sampled = true;
		}
		if (now >= w.next_prog)
			watch_progress(sh, jobs, created, ctl, &w, now);
		pthread_mutex_lock(&sh->lock);
	}
	pthread_mutex_unlock(&sh->lock);
	if (!sampled)
		ru0->ru_utime.tv_sec = -1; /* no ramp end reached: use the end */
	return interrupted;
}

/* Rated: the service latency of direction d beside the response
 * latency that is the direction's own.  0 or -ENOMEM. */
static int rep_merge_service(struct dir_result *dr, const struct job *jobs,
			     unsigned created, int d)
{
	welford_init(&dr->svc_lat);
	if (!(dr->svc_hist = calloc(1, sizeof(*dr->svc_hist))))
		return -ENOMEM;
	for (unsigned i = 0; i < created; i++) {
		welford_merge(&dr->svc_lat, &jobs[i].svc_lat[d]);
		if (jobs[i].svc_hist[d])
			hist_merge(dr->svc_hist, jobs[i].svc_hist[d]);
	}
	return 0;
}

/* The window, in s, that IOPS and bandwidth are counted over: the
 * runtime; for a rated repetition at least the n / rate its n IOs stand
 * for.  A rate's schedule puts its first IO at the start, so a window of T
 * holds ceil(T x rate) intended starts: counted over T alone, 1 IO of a 1
 * IOPS job in 300 ms read 3.3 IOPS, and a rated run
 * always a little above its rate.  Each IO stands for one period of the
 * schedule, as an unrated IO for its own service time, so achieved IOPS
 * never exceed the offered rate, and a job that fell behind is counted
 * over its runtime as before. */
static double rep_rate_window(const struct rep_shared *sh, unsigned created,
			      const struct rep_result *out)
{
	double rt = out->runtime_ns ? (double)out->runtime_ns / 1e9 : 0;
	if (sh->rate_iops <= 0 || !created)
		return rt;
	uint64_t n = out->dir[DIR_READ].ios + out->dir[DIR_WRITE].ios;
	double span = (double)n / (sh->rate_iops * (double)created);
	return span > rt ? span : rt;
}

/* Merge the jobs' numbers into out: the first job error (*job_err, err
 * filled in), the runtime (ramp excluded; a time-limited run lasts at
 * least its runtime), per direction counts, moments, histogram and
 * series, CPU usage.  0, or -ENOMEM when merging ran out of memory. */
static int rep_merge(struct rep_shared *sh, struct job *jobs, unsigned created,
		     const struct rusage *ru0, const struct rusage *ru1,
		     struct rep_result *out, int *job_err, char *err, size_t errlen)
{
	*job_err = 0;
	for (unsigned i = 0; i < created && !*job_err; i++) {
		if (jobs[i].err) {
			*job_err = jobs[i].err;
			runner_seterr(err, errlen, "%s", jobs[i].errmsg);
		}
	}
	/* a time-limited run lasts at least its runtime, even if the last
	 * completion came a hair before the deadline */
	uint64_t end = 0;
	for (unsigned i = 0; i < created; i++) {
		if (jobs[i].end_ns > end)
			end = jobs[i].end_ns;
		if (jobs[i].timed_out && sh->t_end > end)
			end = sh->t_end;
	}
	out->runtime_ns = end > sh->t0 ? end - sh->t0 : 0;
	for (int d = 0; d < DIR__COUNT; d++) {
		struct dir_result *dr = &out->dir[d];
		if (!(d == DIR_READ ? sh->reads : sh->writes))
			continue;
		if (!(dr->hist = calloc(1, sizeof(*dr->hist))))
			return -ENOMEM;
		for (unsigned i = 0; i < created; i++) {
			struct job *j = &jobs[i];
			dr->ios += j->ios[d];
			dr->bytes += j->bytes[d];
			welford_merge(&dr->lat, &j->lat[d]);
			if (j->hist[d])
				hist_merge(dr->hist, j->hist[d]);
			if (series_merge(&dr->series, &j->series[d]) < 0)
				return -ENOMEM;
		}
		/* jobs as threads: their intervals were gathered as they went */
		if (sh->ivacc && ivacc_take(&sh->ivacc[d], dr->series.n, &dr->series.hist) < 0)
			return -ENOMEM;
		if (dr->ios && !out->runtime_ns)
			out->runtime_ns = 1;
		if (sh->rate_iops > 0 && rep_merge_service(dr, jobs, created, d) < 0)
			return -ENOMEM;
	}
	out->lat_kind = sh->rate_iops > 0 ? LAT_RESPONSE : LAT_TOTAL;
	double win = rep_rate_window(sh, created, out);
	/* every direction the pattern has is measured, IO or not */
	for (int d = 0; d < DIR__COUNT; d++) {
		struct dir_result *dr = &out->dir[d];
		dr->present = dr->hist || dr->ios;
		dr->known = REP_EXACT | REP_LAT | REP_LAT_RANGE | REP_LAT_SD;
		dr->iops = win > 0 ? (double)dr->ios / win : 0;
		dr->bw_bytes_s = win > 0 ? (double)dr->bytes / win : 0;
	}
	out->have_cpu = out->have_ctx = true;
	if (out->runtime_ns) {
		double rt = (double)out->runtime_ns;
		out->cpu_usr_pct = (double)(tv_ns(ru1->ru_utime) - tv_ns(ru0->ru_utime)) / rt * 100;
		out->cpu_sys_pct = (double)(tv_ns(ru1->ru_stime) - tv_ns(ru0->ru_stime)) / rt * 100;
	}
	rep_cpu_per_io(sh->c, jobs, created, out);
	out->ctx_voluntary = (uint64_t)(ru1->ru_nvcsw - ru0->ru_nvcsw);
	out->ctx_involuntary = (uint64_t)(ru1->ru_nivcsw - ru0->ru_nivcsw);
	return 0;
}

/* The second reading of the machine, and what happened since the first
 * (b: iomatrix's own usage then, e: now). */
static void rep_load(const struct sysload *before, const struct rusage *b,
		     const struct rusage *e, struct rep_result *out)
{
	out->load_before = *before;
	if (sysload_read(sysload_dir(), &out->load_after) < 0)
		return;
	double own = (double)(tv_ns(e->ru_utime) - tv_ns(b->ru_utime) +
			      tv_ns(e->ru_stime) - tv_ns(b->ru_stime)) / 1e9;
	sysload_delta(before, &out->load_after, own, (double)sysconf(_SC_CLK_TCK),
		      &out->load);
	out->have_load = true;
}

/* Release jobs that may be waiting at the gate or running, after a
 * failure in the middle of a repetition: threads are joined, processes
 * waited for. */
static void jobs_abort(struct rep_shared *sh, struct job *jobs, pthread_t *tids,
		       struct jobproc *procs, unsigned created)
{
	atomic_store(&sh->stop, 1);
	pthread_mutex_lock(&sh->lock);
	sh->go = true;
	pthread_cond_broadcast(&sh->go_cond);
	pthread_mutex_unlock(&sh->lock);
	if (procs) {
		struct rusage ru;
		memset(&ru, 0, sizeof(ru));
		jobproc_finish(jobs, procs, created, &ru);
		return;
	}
	for (unsigned i = 0; i < created; i++)
		pthread_join(tids[i], NULL);
}

/* The mutex and both condition variables (the runner waits on cond with
 * CLOCK_MONOTONIC deadlines), shared between processes so that job
 * processes (thread: false) pass the same gate.  0 or -ENOMEM. */
static int shared_sync_init(struct rep_shared *sh)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int ret = 0;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	if (pthread_mutex_init(&sh->lock, &ma) || pthread_mutex_init(&sh->iv_lock, &ma) ||
	    pthread_cond_init(&sh->go_cond, &ca))
		ret = -ENOMEM;
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!ret && pthread_cond_init(&sh->cond, &ca))
		ret = -ENOMEM;
	pthread_condattr_destroy(&ca);
	pthread_mutexattr_destroy(&ma);
	return ret;
}

/* Start the jobs: threads (thread: true) or processes (jobproc.h).
 * Returns 0 or -errno with err filled; *created says how many run. */
static int jobs_start(struct rep_shared *sh, struct job *jobs, unsigned njobs,
		      pthread_t *tids, struct jobproc *procs,
		      const struct placement *pl, unsigned *created,
		      char *err, size_t errlen)
{
	int ret = 0;
	if (procs) {
		for (; *created < njobs; (*created)++) {
			if ((ret = jobproc_start(&jobs[*created], &procs[*created], pl)) < 0) {
				runner_seterr(err, errlen, "cannot start job process %u: %s",
					      *created, strerror(-ret));
				atomic_store(&sh->stop, 1);
				break;
			}
		}
		return ret;
	}
	/* Jobs are threads of this process, as fio's with thread=1.  fio's
	 * default job processes each call setsid(), and with sched_autogroup
	 * (on here) each session is a scheduling group of its own, so on a
	 * busy machine fio's N processes get N shares of the CPU where our N
	 * threads get one: thread: false runs them as processes.  Measured
	 * 2026-12-01 (make bench, jobs part, 2-CPU VM at load 12, zram 4K
	 * randread QD32 libaio, 3 rounds): at jobs=4 fio's processes used 0.9
	 * of a core against 0.4 for our threads and 0.4 for fio thread=1 (IOPS
	 * 0.54-0.61x fio, 1.35-1.83x fio thread=1); at jobs=16 1.6 against
	 * 0.5.  CPU per IO stays flat from 1 to 16 jobs (2.9-3.1 us), so no
	 * lock or shared cache line costs as jobs grow.  On a quiet machine
	 * both get every CPU and the difference goes. */
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	if ((ret = placement_apply_attr(pl, &attr)) < 0) {
		pthread_attr_destroy(&attr);
		runner_seterr(err, errlen, "cpus_allowed '%s': cannot bind the job threads: %s",
		       pl->cpus, strerror(-ret));
		return ret;
	}
	for (; *created < njobs; (*created)++) {
		if (pthread_create(&tids[*created], &attr, worker_main, &jobs[*created])) {
			runner_seterr(err, errlen, "cannot start job thread %u", *created);
			ret = -EAGAIN;
			atomic_store(&sh->stop, 1);
			break;
		}
	}
	pthread_attr_destroy(&attr);
	return ret;
}

int runner_run_rep(const struct cell *c, const struct target *t,
		   struct run_ctl *ctl, struct rep_result *out,
		   char *err, size_t errlen)
{
	struct rep_shared *sh = shm_alloc(sizeof(*sh));
	struct job *jobs = NULL;
	pthread_t *tids = NULL;
	struct jobproc *procs = NULL;
	unsigned njobs = c->jobs ? c->jobs : 1, created = 0;
	int ret = 0;
	bool sync_init = false, interrupted = false;

	memset(out, 0, sizeof(*out));
	for (int d = 0; d < DIR__COUNT; d++) {
		welford_init(&out->dir[d].lat);
		series_init(&out->dir[d].series, cell_interval_ns(c));
	}
	if (!sh) {
		runner_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	sh->trace_fd = -1;

	const struct engine *eng = engine_find(c->engine);
	if (!eng) {
		if (engine_known(c->engine))
			runner_seterr(err, errlen, "engine '%s' is not built in", c->engine);
		else
			runner_seterr(err, errlen, "unknown engine '%s'", c->engine);
		ret = -EINVAL;
		goto out;
	}
	if ((ret = shared_init(sh, c, t, eng, err, errlen)) < 0)
		goto out;
	sh->seed = runner_rep_seed(c, ctl ? ctl->rep : 0);
	sh->rep = ctl ? ctl->rep : 0;
	struct placement pl;
	if (placement_resolve(c->cpus_allowed, c->numa_node, &pl, err, errlen) < 0) {
		ret = -EINVAL;
		goto out;
	}
	bool one_pass = !c->runtime_ns && !sh->budget;

	if (c->drop_caches)
		drop_caches(out);
	if (shared_sync_init(sh) < 0) {
		runner_seterr(err, errlen, "cannot create a mutex");
		ret = -ENOMEM;
		goto out;
	}
	sync_init = true;

	const char *trace = getenv("IOMATRIX_TRACE");
	if (trace && *trace) {
		sh->trace_fd = open(trace, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (sh->trace_fd < 0) {
			ret = -errno;
			runner_seterr(err, errlen, "cannot open IOMATRIX_TRACE '%s': %s", trace,
			       strerror(-ret));
			goto out;
		}
	}

	if (c->thread && !(sh->ivacc = calloc(DIR__COUNT, sizeof(*sh->ivacc))))
		goto oom;
	for (int d = 0; sh->ivacc && d < DIR__COUNT; d++)
		if (ivacc_init(&sh->ivacc[d], njobs) < 0)
			goto oom;
	if (c->thread) {
		jobs = aligned_alloc(64, ((sizeof(*jobs) * njobs + 63) / 64) * 64);
		tids = calloc(njobs, sizeof(*tids));
		if (jobs)
			memset(jobs, 0, sizeof(*jobs) * njobs);
	} else {
		jobs = shm_alloc(sizeof(*jobs) * njobs);
		procs = calloc(njobs, sizeof(*procs));
	}
	if (!jobs || (!tids && !procs))
		goto oom;
	size_t expect = c->runtime_ns ? (size_t)((c->runtime_ns + c->ramp_ns) /
				       cell_interval_ns(c)) + 2 : 16;
	if (expect > 1u << 20)
		expect = 1u << 20;
	for (unsigned i = 0; i < njobs; i++) {
		ret = job_setup(sh, &jobs[i], i, njobs, one_pass, expect, &pl, err, errlen);
		if (ret == -ENOMEM)
			goto oom;
		if (ret < 0)
			goto out;
	}

	/* the machine before the jobs start and after they end: what else
	 * ran meanwhile (sysload.h); job processes count from their t0 */
	struct sysload lb;
	struct rusage rb;
	bool have_lb = sysload_read(sysload_dir(), &lb) == 0;
	getrusage(RUSAGE_SELF, &rb);

	ret = jobs_start(sh, jobs, njobs, tids, procs, &pl, &created, err, errlen);
	if (ret < 0 && !created)
		goto out;

	struct rusage ru0, ru1;
	interrupted = rep_watch(sh, jobs, created, procs, ctl, &ru0);
	for (unsigned i = 0; tids && i < created; i++)
		pthread_join(tids[i], NULL);
	getrusage(RUSAGE_SELF, &ru1);
	if (ru0.ru_utime.tv_sec == -1)
		ru0 = ru1;
	/* job processes: their series back, their usage added to ours */
	int pret = procs ? jobproc_finish(jobs, procs, created, &ru1) : 0;
	if (have_lb)
		rep_load(&lb, &rb, &ru1, out);
	unsigned started = created;
	created = 0; /* joined: nothing left for jobs_abort */
	if (pret < 0)
		goto oom;
	if (runner_stop_requested(ctl))
		interrupted = true;
	int job_err;
	/* a job that did not start (ret set) keeps its own message */
	if (rep_merge(sh, jobs, started, &ru0, &ru1, out, &job_err,
		      ret ? NULL : err, errlen) < 0)
		goto oom;
	if (!ret)
		ret = job_err;
	if (interrupted && (!ret || ret == -EINTR)) {
		ret = -EINTR;
		runner_seterr(err, errlen, "interrupted");
	}
	goto out;
oom:
	ret = -ENOMEM;
	runner_seterr(err, errlen, "out of memory");
	if (created)
		jobs_abort(sh, jobs, tids, procs, created);
out:
	if (sh->trace_fd >= 0)
		close(sh->trace_fd);
	jobs_free(jobs, jobs ? njobs : 0, t->nfiles, !c->thread);
	free(tids);
	free(procs);
	for (int d = 0; sh->ivacc && d < DIR__COUNT; d++)
		ivacc_release(&sh->ivacc[d]);
	free(sh->ivacc);
	if (sync_init) {
		pthread_mutex_destroy(&sh->iv_lock);
		pthread_mutex_destroy(&sh->lock);
		pthread_cond_destroy(&sh->cond);
		pthread_cond_destroy(&sh->go_cond);
	}
	shm_free(sh, sizeof(*sh));
	return ret;
}
