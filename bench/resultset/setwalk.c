/*
 * setwalk.c - setwalk.h: the set test and the walker of a directory of
 * sets.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "setwalk.h"

/* resultset_is_set of name in directory fd (AT_FDCWD: of the path
 * name). */
static bool is_set_at(int fd, const char *name)
{
	char p[PATH_MAX + 16];
	struct stat st;

	/* a path too long for PATH_MAX is no set we could read anyway */
	if (snprintf(p, sizeof(p), "%s/manifest.json", name) >= PATH_MAX)
		return false;
	if (fstatat(fd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && resultset_is_set_modes(st.st_mode, 0))
		return true;
	snprintf(p, sizeof(p), "%s/cells", name);
	return fstatat(fd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && resultset_is_set_modes(0, st.st_mode);
}

bool resultset_is_set_modes(mode_t manifest, mode_t cells)
{
	return S_ISREG(manifest) || S_ISDIR(cells);
}

bool resultset_is_set(const char *dir)
{
	return is_set_at(AT_FDCWD, dir);
}

/* Entry de of dir (open as d), the walk's way: its path in p and the
 * path's length when it is a directory the walk looks at (no dot name,
 * not through a link, its path within PATH_MAX), else -1.  One whose
 * type readdir gives as a directory is not stat'ed: two lookups of the
 * full path per set were a tenth of a history's system calls over 10,000
 * sets. */
static int walk_entry(DIR *d, const struct dirent *de, const char *dir, char p[PATH_MAX])
{
	struct stat st;
	int n;
	if (de->d_name[0] == '.' ||
	    (n = snprintf(p, PATH_MAX, "%s/%s", dir, de->d_name)) >= PATH_MAX ||
	    (de->d_type != DT_DIR &&
	     (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))))
		return -1;
	return n;
}

/* dir's sets, then (depth > 0) its other directories'.  An unreadable
 * dir is -errno at the top and skipped below it.  Each entry is looked
 * at relative to dir's descriptor. */
static int walk(const char *dir, size_t root_len, int depth, bool top,
		int (*fn)(const char *, const char *, void *), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 0;

	if (!d)
		return top ? -errno : 0;
	while (r >= 0 && (de = readdir(d))) {
		char p[PATH_MAX];
		int n = walk_entry(d, de, dir, p);
		if (n < 0)
			continue;
		/* the set's manifest path must fit PATH_MAX, as resultset_is_set(p) */
		if (n + 14 < PATH_MAX && is_set_at(dirfd(d), de->d_name))
			r = fn(p, p + root_len + 1, arg);
		else if (depth > 0)
			r = walk(p, root_len, depth - 1, false, fn, arg);
	}
	closedir(d);
	return r < 0 ? r : 0;
}

int resultset_walk_dirs(const char *root, int (*fn)(const char *dir, const char *rel, void *arg),
			void *arg)
{
	DIR *d = opendir(root);
	struct dirent *de;
	size_t rl = strlen(root);
	int r = 0;

	if (!d)
		return -errno;
	while (r >= 0 && (de = readdir(d))) {
		char p[PATH_MAX];
		int n = walk_entry(d, de, root, p);
		if (n >= 0 && n + 14 < PATH_MAX)   /* room for a set's manifest path */
			r = fn(p, p + rl + 1, arg);
	}
	closedir(d);
	return r < 0 ? r : 0;
}

int resultset_walk(const char *root, int depth,
		   int (*fn)(const char *set, const char *rel, void *arg), void *arg)
{
	return walk(root, strlen(root), depth, true, fn, arg);
}

bool resultset_repo_own(const char *rel)
{
	size_t first = strcspn(rel, "/");
	return rel[first] == '/' && ((first == 8 && !strncmp(rel, "examples", 8)) ||
				     (first == 9 && !strncmp(rel, "reference", 9)));
}
