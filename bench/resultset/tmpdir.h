/*
 * tmpdir.h - the hidden directories where unpack and import build a set
 * before it is verified and renamed into place, and the clean-up of those
 * that a killed process (SIGKILL, a crash, a power cut) left behind.
 *
 * Their names say whose they are: FSUTIL_TMP_PREFIX "unpack.PID.N"
 * (unpack, in the results directory) and FSUTIL_TMP_PREFIX
 * "NAME.importing.PID" (import, beside the set NAME).  The process also
 * holds flock() on its directory while it works: the kernel drops that
 * lock when the process dies however it dies, and a process in another
 * PID namespace sharing the directory sees the lock where it cannot see
 * the PID.
 */
#ifndef IOMATRIX_RESULTSET_TMPDIR_H
#define IOMATRIX_RESULTSET_TMPDIR_H

#include <sys/types.h>

#include "util/fsutil.h"

#define RESULTSET_TMP_UNPACK FSUTIL_TMP_PREFIX "unpack."
#define RESULTSET_TMP_IMPORTING ".importing."

/* The PID in name when it is one of the two names above, else 0. */
pid_t resultset_tmp_owner(const char *name);

/* Hold the directory open at fd as this process's (flock, released when
 * fd is closed or the process ends). */
void resultset_tmp_hold(int fd);

/* Remove, below dirfd, every such directory whose PID is gone and whose
 * lock nobody holds; this process's own are kept.  How many it removed. */
int resultset_tmp_sweep(int dirfd);

#endif
