/*
 * setout.c - setout.h: no output inside a result set.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "setout.h"
#include "sums.h"
#include "util/fsutil.h"
#include "util/termesc.h"

/* Deepest walk up: far below any real tree's depth, a bound on a loop of
 * bind mounts. */
#define SETOUT_MAX_UP 4096

/* Is the directory fd a result set (setout.h)?  Nothing is followed. */
static bool setout_is_set(int fd)
{
	struct stat st;

	if (fstatat(fd, "manifest.json", &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
		return false;
	if (fstatat(fd, "cells", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
		return true;
	return fstatat(fd, SUMS_FILE, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

/* The nearest existing directory of path into dir; *missing the names
 * below it on the way to path, first (the one right below dir) into
 * below.  -errno when no ancestor is left. */
static int setout_start(const char *path, char *dir, size_t len, char *below,
			size_t blen, unsigned *missing)
{
	struct stat st;

	*missing = 0;
	below[0] = '\0';
	if (snprintf(dir, len, "%s", *path ? path : ".") >= (int)len)
		return -ENAMETOOLONG;
	while (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		char parent[PATH_MAX];
		size_t n, at = fsutil_last_component(dir, &n);
		snprintf(below, blen, "%.*s", (int)n, dir + at);
		if (fsutil_parent(dir, parent, sizeof(parent)) < 0 || !strcmp(parent, dir))
			return -ENOENT;
		snprintf(dir, len, "%s", parent);
		(*missing)++;
	}
	return 0;
}

/* Is the output exactly set/derived?  up: levels climbed from the start
 * to the set; cur: the stat of the directory one below the set. */
static bool setout_is_derived(int setfd, const char *derived, unsigned up, unsigned missing,
			      const char *below, const struct stat *cur)
{
	struct stat st;

	if (!derived)
		return false;
	if (up == 0)
		return missing == 1 && !strcmp(below, derived);
	return up == 1 && missing == 0 &&
	       fstatat(setfd, derived, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_dev == cur->st_dev && st.st_ino == cur->st_ino;
}

/* The set's name for a message: the start's real path, up times cut. */
static void setout_name(const char *start, unsigned up, char *out, size_t len)
{
	char real[PATH_MAX], parent[PATH_MAX];

	if (!realpath(start, real)) {
		snprintf(out, len, "%u level%s above '%.*s'", up, up == 1 ? "" : "s", 1000, start);
		return;
	}
	for (unsigned i = 0; i < up && fsutil_parent(real, parent, sizeof(parent)) == 0; i++)
		snprintf(real, sizeof(real), "%s", parent);
	snprintf(out, len, "%s", real);
}

int resultset_output_check(const char *path, const char *derived, char *err,
			   size_t errlen)
{
	char start[PATH_MAX], below[NAME_MAX + 1];
	unsigned missing;
	struct stat cur = { 0 }, prev = { 0 };

	if (setout_start(path, start, sizeof(start), below, sizeof(below), &missing) < 0)
		return 0;
	int fd = open(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (unsigned up = 0; fd >= 0 && up < SETOUT_MAX_UP; up++) {
		prev = cur;
		if (fstat(fd, &cur) < 0)
			break;
		if (up > 0 && cur.st_dev == prev.st_dev && cur.st_ino == prev.st_ino)
			break;   /* ".." of the root is the root */
		if (setout_is_set(fd)) {
			bool ok = setout_is_derived(fd, derived, up, missing, below, &prev);
			close(fd);
			if (ok)
				return 0;
			char set[PATH_MAX], a[512], b[512];
			setout_name(start, up, set, sizeof(set));
			snprintf(err, errlen, "'%s' is inside the set '%s', a result set, which holds only "
				 "what its run wrote (SHA256SUMS) and would then fail "
				 "verification; write it outside the set%s%s%s",
				 termesc(path, a, sizeof(a)), termesc(set, b, sizeof(b)),
				 derived ? " (or into the set's own " : "", derived ? derived : "",
				 derived ? "/)" : "");
			return -EINVAL;
		}
		int pfd = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = pfd;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}
