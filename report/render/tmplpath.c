/*
 * tmplpath.c - locate templates/ for the report (tmplpath.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "resultset/rset.h"
#include "util/sbuf.h"
#include "tmplpath.h"

static bool try_dir(const char *dir, const char *name, char **out)
{
	char path[2 * PATH_MAX + 2];

	if (!dir || !*dir || strlen(dir) >= PATH_MAX || strlen(name) >= PATH_MAX)
		return false;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, R_OK) != 0)
		return false;
	*out = strdup(path);
	return *out != NULL;
}

char *tmplpath_find(const char *name, const char *user_dir, char **argv,
		    struct errlist *errs)
{
	char *found = NULL;
	char exe[PATH_MAX];
	ssize_t n;

	(void)argv;
	if (try_dir(user_dir, name, &found) ||
	    try_dir(getenv("IOMATRIX_TEMPLATES"), name, &found))
		return found;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *d = dirname(exe);
		static const char *const rel[] = { "templates", "../templates",
						   "../../templates", "../share/iomatrix/templates" };
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			char p[PATH_MAX + 64];
			snprintf(p, sizeof(p), "%s/%s", d, rel[i]);
			if (try_dir(p, name, &found))
				return found;
		}
	}
	if (try_dir("templates", name, &found) ||
	    try_dir(IOMATRIX_TEMPLATE_DIR, name, &found))
		return found;
	errlist_add(errs, name, 0, 0, "template not found (looked in --template, "
		    "$IOMATRIX_TEMPLATES, next to the binary, ./templates and %s); "
		    "pass --template DIR", IOMATRIX_TEMPLATE_DIR);
	return NULL;
}

struct tmpl *tmplpath_load(const char *name, const char *user_dir, char **argv,
			   struct errlist *errs)
{
	char *path = tmplpath_find(name, user_dir, argv, errs);
	if (!path)
		return NULL;
	struct tmpl *t = tmpl_load(path, errs);
	free(path);
	return t;
}

char *tmplpath_read(const char *name, const char *user_dir, char **argv,
		    struct errlist *errs)
{
	char *path = tmplpath_find(name, user_dir, argv, errs);
	if (!path)
		return NULL;
	char *buf = fsutil_read(path, 4u << 20, NULL);
	if (!buf)
		errlist_add(errs, path, 0, 0, "cannot read: %s", fsutil_strerror(errno));
	free(path);
	return buf;
}
