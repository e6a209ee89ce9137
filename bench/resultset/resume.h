/*
 * resume.h - the one way into `--resume SET`, for `run` and for a fleet
 * run alike: lock the set, open it, and check what the set says about
 * itself before anything of it is believed (made by `run`, its own
 * suite.yaml a regular file, its scale a factor in (0, 1e6], --scale
 * agreeing with it).
 */
#ifndef IOMATRIX_RESULTSET_RESUME_H
#define IOMATRIX_RESULTSET_RESUME_H

#include <limits.h>
#include <stddef.h>

#include "resultset/resultset.h"

struct resume_set {
	double scale;                 /* in: --scale (0: not given); out: the set's */
	const char *suite_given;      /* in: SUITE.yaml on the command line, or
				       * NULL (then the set's own copy is used) */
	char suite_path[PATH_MAX];    /* out: suite_given, or DIR/suite.yaml
				       * checked to be a regular file */
	int lock_fd;                  /* out: holds the set's flock; -1 none.
				       * The caller closes it when done. */
};

/*
 * Open dir for --resume into rs (released by the caller with
 * resultset_release, also on failure once opened).  A set another
 * iomatrix is writing (flock), one that was imported, whose suite.yaml is
 * a link or special file, whose manifest scale is not in (0, 1e6], or
 * whose scale differs from a given --scale is refused.  0, or -1 with the
 * message (the set named, the cause, the fix) in err: bad input, exit 2.
 */
int resume_open(struct resultset *rs, const char *dir, struct resume_set *r,
		char *err, size_t errlen);

/*
 * Take an exclusive flock on the set directory dir while it is written,
 * so that a --resume of a set still being written is refused instead of
 * interleaving two writers.  *fd_out gets the locked fd (-1 when dir
 * cannot be opened; the caller closes it).  0, or -1 with the message in
 * err when another process holds the lock.
 */
int resume_lock(const char *dir, int *fd_out, char *err, size_t errlen);

#endif
