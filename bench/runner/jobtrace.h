/*
 * jobtrace.h - IOMATRIX_TRACE's lines of one job (internal to the runner):
 * each request issued, each submit call and what each completed request
 * moved, gathered in a buffer of JOBTRACE_BUF bytes (the runner's) and
 * written to the repetition's trace fd when it fills and at the job's
 * end.  A failed write drops the lines: the trace is a test's view of
 * the IO, not a result.  Kept apart from worker.c's hot path, which calls
 * here only when tracing.
 */
#ifndef IOMATRIX_JOBTRACE_H
#define IOMATRIX_JOBTRACE_H

#include <stddef.h>

#include "engines/engine.h"

#define JOBTRACE_BUF (64 * 1024)

struct jobtrace {
	int fd;          /* the repetition's trace fd */
	unsigned idx;    /* the job's number, each line's first field */
	char *buf;       /* JOBTRACE_BUF bytes; NULL when not tracing */
	size_t len;
};

/* Write what was gathered to the fd (the caller serialises the jobs'
 * flushes at their end). */
void jobtrace_flush(struct jobtrace *t);

/* "JOB read|write OFFSET LEN FILEIDX": request r, issued. */
void jobtrace_request(struct jobtrace *t, const struct io_req *r);

/* "JOB data DIR OFFSET LEN FILEIDX HASH": what completed request r moved
 * (64-bit FNV-1a of the buffer, hex), so a test can check the bytes end to
 * end against the file. */
void jobtrace_data(struct jobtrace *t, const struct io_req *r);

/* "JOB submit N": one submit call handed N requests to the kernel
 * (engine_opts.on_submit; arg is the struct jobtrace). */
void jobtrace_submit(void *arg, unsigned n);

#endif
