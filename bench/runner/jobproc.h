/*
 * jobproc.h - jobs as processes (thread: false, fio's default): each job
 * runs worker_main in a forked process of its own session (setsid), so
 * that with sched_autogroup each job is a scheduling group of its own, as
 * each of fio's job processes is.  The repetition's shared state, the job
 * array and the histograms live in shared anonymous memory (shm_alloc), so
 * the runner reads the counters, the gate and the stop flag as with
 * threads; a job's time series, which its process grows with realloc,
 * comes back through a pipe at the end (its fine samples too).  Internal
 * to bench/runner/.
 */
#ifndef IOMATRIX_JOBPROC_H
#define IOMATRIX_JOBPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "placement.h"
#include "worker.h"

struct jobproc {
	pid_t pid;
	int rfd;                             /* the series pipe, -1 closed */
	bool reaped;
	int status;                          /* waitpid's, once reaped */
	struct series series[DIR__COUNT];    /* the runner's own, kept over
					      * the child's realloc */
};

/* Zeroed shared anonymous memory (MAP_SHARED), NULL when out of memory. */
void *shm_alloc(size_t len);
void shm_free(void *p, size_t len);

/* Fork job j's process; it waits at the start gate like a thread.  0, or
 * -errno (nothing started). */
int jobproc_start(struct job *j, struct jobproc *p, const struct placement *pl);

/* While the runner watches: a job process that died before its job ended
 * is counted finished with the job failed.  Call without sh->lock. */
void jobproc_poll(struct rep_shared *sh, struct job *jobs, struct jobproc *p,
		  unsigned n);

/* After every job ended (or was stopped): each job's series back into the
 * runner's, every process waited for, and their usage from t0 to their end
 * added to *ru.  0, or -ENOMEM. */
int jobproc_finish(struct job *jobs, struct jobproc *p, unsigned n, struct rusage *ru);

#endif
