/*
 * setwalk.c - setwalk.h: the set test and the walker of a directory of
 * sets.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "setwalk.h"

bool resultset_is_set(const char *dir)
{
	char p[PATH_MAX + 16];
	struct stat st;

	/* a path too long for PATH_MAX is no set we could read anyway */
	if (snprintf(p, sizeof(p), "%s/manifest.json", dir) >= PATH_MAX)
		return false;
	if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
		return true;
	snprintf(p, sizeof(p), "%s/cells", dir);
	return lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir's sets, then (depth > 0) its other directories'.  An unreadable
 * dir is -errno at the top and skipped below it. */
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
		struct stat st;
		if (de->d_name[0] == '.' ||
		    snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >= (int)sizeof(p) ||
		    lstat(p, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (resultset_is_set(p))
			r = fn(p, p + root_len + 1, arg);
		else if (depth > 0)
			r = walk(p, root_len, depth - 1, false, fn, arg);
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
