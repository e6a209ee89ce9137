/*
 * jobproc.c - jobs as processes (thread: false); see jobproc.h.
 *
 * Why: fio's job processes each call setsid(), and with sched_autogroup
 * each session is a scheduling group, so on a busy machine fio's N job
 * processes get N shares of the CPU where N threads of one process get
 * one.  Measured 2026-12-01 (make bench, jobs part, 2-CPU VM at load 12,
 * zram 4K randread QD32 libaio): at jobs=4 fio's processes used 0.9 of a
 * core, fio thread=1 and iomatrix's threads 0.4 each.
 */
#include "jobproc.h"
#include "util/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

void *shm_alloc(size_t len)
{
	void *p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p; /* fresh pages are zero */
}

void shm_free(void *p, size_t len)
{
	if (p)
		munmap(p, len ? len : 1);
}


/* The interval histograms of a series down the pipe: the intervals, the
 * pairs, their offsets, bucket indexes and counts.  -1 when the pipe
 * broke. */
static int jobproc_send_hist(int wfd, const struct ivhist *h)
{
	uint64_t n = h->n, np = h->npairs;
	return fsutil_write_all(wfd, &n, sizeof(n)) < 0 ||
	       fsutil_write_all(wfd, &np, sizeof(np)) < 0 ||
	       (n && fsutil_write_all(wfd, h->off, (n + 1) * sizeof(*h->off)) < 0) ||
	       (np && (fsutil_write_all(wfd, h->idx, np * sizeof(*h->idx)) < 0 ||
		       fsutil_write_all(wfd, h->cnt, np * sizeof(*h->cnt)) < 0)) ? -1 : 0;
}

/* ... and back into the runner's copy: -ENOMEM, -EPIPE (the process sent
 * less, or offsets that do not describe its pairs). */
static int jobproc_recv_hist(int rfd, struct ivhist *h)
{
	uint64_t n, np;
	h->n = h->npairs = 0;
	if (fsutil_read_all(rfd, &n, sizeof(n)) < 0 || fsutil_read_all(rfd, &np, sizeof(np)) < 0 ||
	    n > SIZE_MAX / 16 || np > SIZE_MAX / 16)
		return -EPIPE;
	if (ivhist_reserve(h, (size_t)n, (size_t)np) < 0)
		return -ENOMEM;
	if ((n && fsutil_read_all(rfd, h->off, (n + 1) * sizeof(*h->off)) < 0) ||
	    (np && (fsutil_read_all(rfd, h->idx, np * sizeof(*h->idx)) < 0 ||
		    fsutil_read_all(rfd, h->cnt, np * sizeof(*h->cnt)) < 0)))
		return -EPIPE;
	if (n && (h->off[0] != 0 || h->off[n] != np))
		return -EPIPE;
	h->n = (size_t)n;
	h->npairs = (size_t)np;
	return 0;
}

/* The job's process: its own session, dies with the runner, runs the job,
 * sends its series, leaves without running the runner's exit handlers. */
static void __attribute__((noreturn)) child(struct job *j, int wfd, pid_t parent,
					    const struct placement *pl)
{
	setsid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	if (pl->bind_cpus)
		sched_setaffinity(0, sizeof(pl->set), &pl->set);
	j->ru_pending = true;
	worker_main(j);
	getrusage(RUSAGE_SELF, &j->ru_end);
	if (j->ru_pending) /* never issued past t0: no usage to count */
		j->ru_t0 = j->ru_end;
	for (int d = 0; d < DIR__COUNT; d++) {
		const struct series *s = &j->series[d];
		uint64_t n = s->n, fn = s->fine_interval_ns ? s->fine_n : 0;
		if (fsutil_write_all(wfd, &n, sizeof(n)) < 0 ||
		    (n && (fsutil_write_all(wfd, s->ios, n * sizeof(*s->ios)) < 0 ||
			   fsutil_write_all(wfd, s->bytes, n * sizeof(*s->bytes)) < 0 ||
			   fsutil_write_all(wfd, s->lat_sum_ns, n * sizeof(*s->lat_sum_ns)) < 0)) ||
		    (fn && (fsutil_write_all(wfd, s->fine_ios, fn * sizeof(*s->fine_ios)) < 0 ||
			    fsutil_write_all(wfd, s->fine_bytes, fn * sizeof(*s->fine_bytes)) < 0 ||
			    fsutil_write_all(wfd, s->fine_lat_sum_ns, fn * sizeof(*s->fine_lat_sum_ns)) < 0)) ||
		    jobproc_send_hist(wfd, &s->hist) < 0)
			_exit(1);
	}
	_exit(0);
}

int jobproc_start(struct job *j, struct jobproc *p, const struct placement *pl)
{
	int fds[2];
	pid_t parent = getpid();

	p->rfd = -1;
	p->pid = -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	memcpy(p->series, j->series, sizeof(p->series));
	fflush(NULL); /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (pid == 0) {
		close(fds[0]);
		child(j, fds[1], parent, pl);
	}
	close(fds[1]);
	p->pid = pid;
	p->rfd = fds[0];
	p->reaped = false;
	return 0;
}

void jobproc_poll(struct rep_shared *sh, struct job *jobs, struct jobproc *p,
		  unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (p[i].reaped || p[i].pid <= 0)
			continue;
		if (waitpid(p[i].pid, &p[i].status, WNOHANG) != p[i].pid)
			continue;
		p[i].reaped = true;
		pthread_mutex_lock(&sh->lock);
		if (!jobs[i].done) {
			struct job *j = &jobs[i];
			j->done = true;
			if (!j->err) {
				j->err = -ECHILD;
				if (WIFSIGNALED(p[i].status))
					snprintf(j->errmsg, sizeof(j->errmsg),
						 "job %u's process was killed by signal %d (%s)",
						 i, WTERMSIG(p[i].status),
						 strsignal(WTERMSIG(p[i].status)));
				else
					snprintf(j->errmsg, sizeof(j->errmsg),
						 "job %u's process exited (status %d) before its job ended",
						 i, WEXITSTATUS(p[i].status));
			}
			atomic_store(&sh->stop, 1);
			if (!j->ready) {
				j->ready = true;
				sh->nready++;
			}
			sh->nfinished++;
			pthread_cond_signal(&sh->cond);
		}
		pthread_mutex_unlock(&sh->lock);
	}
}

static void tv_add(struct timeval *a, const struct timeval *e, const struct timeval *s)
{
	long long us = (long long)a->tv_usec + (e->tv_sec - s->tv_sec) * 1000000LL +
		       (e->tv_usec - s->tv_usec);
	a->tv_sec += (time_t)(us / 1000000);
	a->tv_usec = (suseconds_t)(us % 1000000);
	if (a->tv_usec < 0) {
		a->tv_usec += 1000000;
		a->tv_sec--;
	}
}

/* A job's series from its pipe into the runner's own copies (p->series;
 * the shared job keeps the child's until the child is gone: it reads them
 * to send them after it said it finished).  -ENOMEM, or -EPIPE when the
 * process sent less than its series (it died). */
static int series_back(struct jobproc *p)
{
	for (int d = 0; d < DIR__COUNT; d++) {
		struct series *s = &p->series[d];
		uint64_t n;
		s->n = 0;
		if (p->rfd < 0 || fsutil_read_all(p->rfd, &n, sizeof(n)) < 0)
			return -EPIPE;
		if (series_reserve(s, (size_t)n) < 0)
			return -ENOMEM;
		if (n && (fsutil_read_all(p->rfd, s->ios, n * sizeof(*s->ios)) < 0 ||
			  fsutil_read_all(p->rfd, s->bytes, n * sizeof(*s->bytes)) < 0 ||
			  fsutil_read_all(p->rfd, s->lat_sum_ns, n * sizeof(*s->lat_sum_ns)) < 0))
			return -EPIPE;
		s->n = (size_t)n;
		/* the fine samples: arrays of a size fixed before the fork */
		size_t fn = s->fine_interval_ns ? s->fine_n : 0;
		if (fn && (fsutil_read_all(p->rfd, s->fine_ios, fn * sizeof(*s->fine_ios)) < 0 ||
			   fsutil_read_all(p->rfd, s->fine_bytes, fn * sizeof(*s->fine_bytes)) < 0 ||
			   fsutil_read_all(p->rfd, s->fine_lat_sum_ns, fn * sizeof(*s->fine_lat_sum_ns)) < 0))
			return -EPIPE;
		int rh = jobproc_recv_hist(p->rfd, &s->hist);
		if (rh < 0)
			return rh;
	}
	return 0;
}

int jobproc_finish(struct job *jobs, struct jobproc *p, unsigned n, struct rusage *ru)
{
	int ret = 0;
	for (unsigned i = 0; i < n; i++) {
		if (p[i].pid <= 0)
			continue;
		int sb = ret ? 0 : series_back(&p[i]);
		if (sb == -ENOMEM)
			ret = -ENOMEM;
		if (p[i].rfd >= 0)
			close(p[i].rfd);
		p[i].rfd = -1;
		while (!p[i].reaped && waitpid(p[i].pid, &p[i].status, 0) < 0 && errno == EINTR)
			;
		p[i].reaped = true;
		/* the child is gone: the runner's own series back into the job,
		 * whatever the child left there (jobs_free releases these) */
		memcpy(jobs[i].series, p[i].series, sizeof(jobs[i].series));
		struct job *j = &jobs[i];
		if (sb == -EPIPE && !j->err) {
			/* a cell with a job's time series missing is not a result */
			j->err = -EPIPE;
			if (WIFSIGNALED(p[i].status))
				snprintf(j->errmsg, sizeof(j->errmsg), "job %u's process was killed by "
					 "signal %d (%s) before it sent its time series", i,
					 WTERMSIG(p[i].status), strsignal(WTERMSIG(p[i].status)));
			else
				snprintf(j->errmsg, sizeof(j->errmsg), "job %u's process exited "
					 "(status %d) before it sent its time series", i,
					 WEXITSTATUS(p[i].status));
		}
		if (!j->done || (WIFEXITED(p[i].status) && WEXITSTATUS(p[i].status)))
			continue; /* no usage it wrote to trust */
		tv_add(&ru->ru_utime, &j->ru_end.ru_utime, &j->ru_t0.ru_utime);
		tv_add(&ru->ru_stime, &j->ru_end.ru_stime, &j->ru_t0.ru_stime);
		ru->ru_nvcsw += j->ru_end.ru_nvcsw - j->ru_t0.ru_nvcsw;
		ru->ru_nivcsw += j->ru_end.ru_nivcsw - j->ru_t0.ru_nivcsw;
	}
	return ret;
}
