/*
 * tmpdir.c - tmpdir.h: whose a hidden temporary set directory is, and the
 * sweep of those whose owner died.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "tmpdir.h"
#include "util/fsdir.h"

/* A decimal PID from s to its end (no sign, no leading zero), else 0. */
static pid_t pid_of(const char *s)
{
	long v = 0;

	if (s[0] < '1' || s[0] > '9')
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return 0;
		v = v * 10 + (*s - '0');
	}
	return (pid_t)v;
}

pid_t resultset_tmp_owner(const char *name)
{
	if (!fsutil_is_temp_name(name))
		return 0;
	if (!strncmp(name, RESULTSET_TMP_UNPACK, sizeof(RESULTSET_TMP_UNPACK) - 1)) {
		/* unpack.PID.N */
		char pid[16];
		const char *p = name + sizeof(RESULTSET_TMP_UNPACK) - 1, *dot = strchr(p, '.');
		if (!dot || (size_t)(dot - p) >= sizeof(pid) || !dot[1] ||
		    strspn(dot + 1, "0123456789") != strlen(dot + 1))
			return 0;
		snprintf(pid, sizeof(pid), "%.*s", (int)(dot - p), p);
		return pid_of(pid);
	}
	/* NAME.importing.PID: the last ".importing." */
	const char *at = NULL;
	for (const char *p = name; (p = strstr(p, RESULTSET_TMP_IMPORTING)); p++)
		at = p;
	return at && at > name + sizeof(FSUTIL_TMP_PREFIX) - 1 ?
	       pid_of(at + sizeof(RESULTSET_TMP_IMPORTING) - 1) : 0;
}

void resultset_tmp_hold(int fd)
{
	flock(fd, LOCK_EX | LOCK_NB);
}

/* Is name's lock held by another open file (a live owner)? */
static bool tmp_locked(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	bool held = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;

	if (fd >= 0)
		close(fd); /* and with it the lock just taken */
	return held;
}

int resultset_tmp_sweep(int dirfd)
{
	DIR *d = fsdir_open_fd(openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		pid_t pid = resultset_tmp_owner(e->d_name);
		if (pid > 0 && pid != getpid() && kill(pid, 0) < 0 && errno == ESRCH &&
		    !tmp_locked(dirfd, e->d_name)) {
			fsutil_remove_tree_at(dirfd, e->d_name);
			n++;
		}
	}
	closedir(d);
	return n;
}
