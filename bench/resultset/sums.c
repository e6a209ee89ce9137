/*
 * sums.c - write and check a directory's SHA256SUMS (sums.h): the walk that
 * finds what a set holds, the list in coreutils' format, and the checker
 * that names each changed, missing or extra file.
 */
#include "sums.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fsdir.h"
#include "util/fsutil.h"
#include "util/sbuf.h"

struct went {
	char *path;
	bool regular;           /* false: a link, FIFO, device ... */
};

struct walk {
	struct went *v;
	size_t n, cap;
};

static int walk_add(struct walk *w, const char *prefix, const char *name,
		    bool regular)
{
	if (w->n >= SUMS_MAX_FILES)
		return -E2BIG;
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct went *v = realloc(w->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		w->v = v;
		w->cap = cap;
	}
	size_t len = strlen(prefix) + strlen(name) + 1;
	char *s = malloc(len);
	if (!s)
		return -ENOMEM;
	snprintf(s, len, "%s%s", prefix, name);
	w->v[w->n++] = (struct went){ s, regular };
	return 0;
}

static void walk_release(struct walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].path);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* A name sha256sum would escape ("\\" prefix): never one iomatrix writes,
 * so it is not listed (and the checker calls it extra). */
static bool plain_name(const char *name)
{
	return !strpbrk(name, "\\\n\r");
}

const char *const sums_derived_dirs[SUMS_NDERIVED] = {
	SUMS_REPORT_DIR, SUMS_COMPARE_DIR,
};

static bool is_derived(const char *name)
{
	for (size_t i = 0; i < SUMS_NDERIVED; i++)
		if (!strcmp(name, sums_derived_dirs[i]))
			return true;
	return false;
}

static int walk_dir(int dfd, const char *prefix, int depth, unsigned flags,
		    bool include_sums, struct walk *w)
{
	DIR *d = fsdir_open_dup(dfd);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (errno = 0, e = readdir(d))) {
		const char *nm = e->d_name;
		struct stat st;

		if (!strcmp(nm, ".") || !strcmp(nm, "..") || fsutil_is_temp_name(nm))
			continue;
		if (!*prefix && !include_sums && !strcmp(nm, SUMS_FILE))
			continue;
		if (fstatat(dfd, nm, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			ret = errno == ENOENT ? 0 : -errno;
			continue;
		}
		if (S_ISDIR(st.st_mode) && plain_name(nm)) {
			if (!*prefix && (flags & SUMS_SET) && is_derived(nm))
				continue;
			if (depth >= SUMS_MAX_DEPTH) {
				ret = walk_add(w, prefix, nm, false);
				continue;
			}
			int sub = openat(dfd, nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				ret = -errno;
				continue;
			}
			size_t plen = strlen(prefix) + strlen(nm) + 2;
			char *p = malloc(plen);
			if (!p) {
				close(sub);
				ret = -ENOMEM;
				continue;
			}
			snprintf(p, plen, "%s%s/", prefix, nm);
			ret = walk_dir(sub, p, depth + 1, flags, include_sums, w);
			free(p);
			close(sub);
			continue;
		}
		ret = walk_add(w, prefix, nm, S_ISREG(st.st_mode) && plain_name(nm));
	}
	if (!ret && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

static int cmp_went(const void *a, const void *b)
{
	return strcmp(((const struct went *)a)->path, ((const struct went *)b)->path);
}

static int walk_sorted(int dirfd, unsigned flags, bool include_sums, struct walk *w)
{
	memset(w, 0, sizeof(*w));
	int r = walk_dir(dirfd, "", 0, flags, include_sums, w);
	if (r < 0) {
		walk_release(w);
		return r;
	}
	if (w->n)
		qsort(w->v, w->n, sizeof(*w->v), cmp_went);
	return 0;
}

/* Hash relative path rel below dirfd without following a link anywhere. */
static int hash_rel(int dirfd, const char *rel, char hex[65])
{
	const char *slash = strrchr(rel, '/');
	if (!slash)
		return fsutil_sha256_at(dirfd, rel, hex);
	char dir[4096];
	size_t n = (size_t)(slash - rel);
	if (n >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, rel, n);
	dir[n] = '\0';
	int fd = fsutil_open_dir_at(dirfd, dir, false, NULL);
	if (fd < 0)
		return fd;
	int r = fsutil_sha256_at(fd, slash + 1, hex);
	close(fd);
	return r;
}

int sums_list_at(int dirfd, unsigned flags, bool include_sums, char ***paths,
		 size_t *n)
{
	struct walk w;
	int r = walk_sorted(dirfd, flags, include_sums, &w);
	if (r < 0)
		return r;
	char **out = malloc((w.n ? w.n : 1) * sizeof(*out));
	if (!out) {
		walk_release(&w);
		return -ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < w.n; i++) {
		if (w.v[i].regular)
			out[k++] = w.v[i].path;
		else
			free(w.v[i].path);
	}
	free(w.v);
	*paths = out;
	*n = k;
	return 0;
}

void sums_free_list(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

int sums_write_at(int dirfd, unsigned flags)
{
	char **paths, hex[65];
	size_t n;
	struct sbuf b = SBUF_INIT;
	int r = sums_list_at(dirfd, flags, false, &paths, &n);

	if (r < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		r = hash_rel(dirfd, paths[i], hex);
		if (r == 0)
			sbuf_addf(&b, "%s  %s\n", hex, paths[i]);
	}
	if (r == 0 && b.oom)
		r = -ENOMEM;
	if (r == 0)
		r = fsutil_write_atomic_at(dirfd, SUMS_FILE, sbuf_str(&b), b.len);
	sbuf_release(&b);
	sums_free_list(paths, n);
	return r;
}

/* ---- checking ---- */

static int add_problem(struct sums_check *c, const char *prefix, const char *what,
		       const char *path)
{
	char **p = c->problems;
	/* grow at powers of two: a hostile set may hold 10^5 extra files */
	if (!(c->nproblems & (c->nproblems - 1))) {
		p = realloc(c->problems, (c->nproblems ? 2 * c->nproblems : 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->problems = p;
	}
	size_t len = strlen(prefix) + strlen(what) + strlen(path) + 3;
	if (!(p[c->nproblems] = malloc(len)))
		return -ENOMEM;
	snprintf(p[c->nproblems++], len, "%s %s%s", what, prefix, path);
	c->state = SUMS_FAILED;
	return 0;
}

/* The path of a list's line as sha256sum -c opens it, made the one name
 * this reader compares (in place): "./cells/x", "cells//x" and
 * "cells/./x" all name cells/x.  NULL for a path sha256sum would open
 * outside the set or that names no file: absolute, with a ".."
 * component, empty, or ending in '/'. */
static char *sums_path_norm(char *p)
{
	char *w = p;

	if (*p == '/')
		return NULL;
	for (char *s = p; *s;) {
		size_t n = strcspn(s, "/");
		bool last = !s[n];
		if (n == 2 && s[0] == '.' && s[1] == '.')
			return NULL;
		if (n && !(n == 1 && s[0] == '.')) {
			if (w != p)
				*w++ = '/';
			memmove(w, s, n);
			w += n;
		} else if (last && n == 0) {
			return NULL;   /* "cells/": a directory */
		}
		s += n + !last;
	}
	*w = '\0';
	return *p ? p : NULL;
}

/* GNU's escaped name (a line that starts with '\\'): \\, \n and \r;
 * any other escape is malformed.  In place; false when malformed. */
static bool sums_unescape(char *p)
{
	char *w = p;

	for (; *p; p++) {
		if (*p != '\\') {
			*w++ = *p;
			continue;
		}
		p++;
		if (*p == '\\' || *p == 'n' || *p == 'r')
			*w++ = *p == 'n' ? '\n' : *p == 'r' ? '\r' : '\\';
		else
			return false;
	}
	*w = '\0';
	return true;
}

/*
 * One line of a SHA256SUMS, read as GNU sha256sum -c reads it: leading
 * blanks; an optional '\\' (the name is escaped); then either the tagged
 * form "SHA256 (NAME) = HEX" or "HEX", one blank, an optional ' ' or '*'
 * (text or binary mode) and NAME.  *hex gets the 64 digits, *path the
 * name as sums_path_norm gives it.  NULL when the line is none of that
 * (*why "malformed line"), or when it names a file outside the set (*why
 * says so: sha256sum -c would open it, iomatrix reads only the set).
 */
static char *sums_line(char *line, const char **hex, const char **why)
{
	bool esc;
	char *name;

	*why = "malformed line";
	line += strspn(line, " \t");
	if ((esc = *line == '\\'))
		line++;
	if (!strncmp(line, "SHA256 (", 8)) {
		char *close = strrchr(line, ')'), *h;
		if (!close)
			return NULL;
		*close = '\0';
		name = line + 8;
		h = close + 1 + strspn(close + 1, " \t");
		if (*h != '=')
			return NULL;
		h += 1 + strspn(h + 1, " \t");
		if (strspn(h, "0123456789abcdefABCDEF") != 64 || h[64])
			return NULL;
		*hex = h;
	} else {
		if (strspn(line, "0123456789abcdefABCDEF") != 64 ||
		    (line[64] != ' ' && line[64] != '\t'))
			return NULL;
		*hex = line;
		line[64] = '\0';
		name = line + 65;
		if (*name == ' ' || *name == '*')
			name++;
	}
	if (esc && !sums_unescape(name))
		return NULL;
	char *p = sums_path_norm(name);
	if (!p && *name)
		*why = "a name outside the set ('/' first, '..') or a directory ('/' last)";
	return p;
}

struct listed {
	char *path;          /* into the list's text */
	char hex[65];
};

static int cmp_listed(const void *a, const void *b)
{
	return strcmp(((const struct listed *)a)->path, ((const struct listed *)b)->path);
}

/* Parse the text of a SHA256SUMS in place into *out (sorted by path).
 * Malformed lines become problems.  0 or -ENOMEM. */
static int parse_list(char *text, size_t len, const char *prefix,
		      struct sums_check *c, struct listed **out, size_t *nout)
{
	struct listed *v = NULL;
	size_t n = 0, lineno = 0;
	char *s = text, *end = text + len;
	int r = 0;
	char where[64];

	while (s < end && r == 0) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		*nl = '\0';
		lineno++;
		char *line = s;
		s = nl + 1;
		/* a CRLF list (made on Windows, or mailed): sha256sum -c drops
		 * the CR before the end of a line, and so does this */
		if (nl > line && nl[-1] == '\r')
			nl[-1] = '\0';
		if (!*line || *line == '#')   /* sha256sum -c skips comments too */
			continue;
		const char *hex = NULL, *why;
		char *path = sums_line(line, &hex, &why);
		if (!path || n >= SUMS_MAX_FILES) {
			char what[160];
			snprintf(where, sizeof(where), "%s:%zu:", SUMS_FILE, lineno);
			snprintf(what, sizeof(what), "%s at", path ? "more files than a set holds" : why);
			r = add_problem(c, prefix, what, where);
			continue;
		}
		if (!(n & (n - 1))) {   /* powers of two */
			struct listed *nv = realloc(v, (n ? 2 * n : 1) * sizeof(*nv));
			if (!nv) {
				r = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[n].path = path;
		for (int i = 0; i < 64; i++)
			v[n].hex[i] = (char)(hex[i] | 0x20); /* lower case */
		v[n++].hex[64] = '\0';
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_listed);
	for (size_t i = 1; i < n && r == 0; i++)
		if (!strcmp(v[i].path, v[i - 1].path))
			r = add_problem(c, prefix, "listed twice", v[i].path);
	*out = v;
	*nout = n;
	return r;
}

static int check_listed(int dirfd, const char *prefix, const struct listed *v,
			size_t n, struct sums_check *c)
{
	char hex[65];
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++) {
		if (c->stop && *c->stop)
			return -EINTR;
		int h = hash_rel(dirfd, v[i].path, hex);
		if (h == -ENOENT || h == -ENOTDIR)
			r = add_problem(c, prefix, "missing", v[i].path);
		else if (h < 0)
			r = add_problem(c, prefix, "changed", v[i].path);
		else if (strcmp(hex, v[i].hex))
			r = add_problem(c, prefix, "changed", v[i].path);
	}
	return r;
}

static int check_extra(int dirfd, unsigned flags, const char *prefix,
		       const struct listed *v, size_t n, struct sums_check *c)
{
	struct walk w;
	int r = walk_sorted(dirfd, flags, false, &w);

	for (size_t i = 0; r == 0 && i < w.n; i++) {
		struct listed key = { .path = w.v[i].path };
		if (!n || !bsearch(&key, v, n, sizeof(*v), cmp_listed))
			r = add_problem(c, prefix, "extra", w.v[i].path);
	}
	walk_release(&w);
	if (r == -E2BIG)
		r = add_problem(c, prefix, "too many files below", prefix[0] ? prefix : ".");
	return r;
}

static int verify_dir(int dirfd, unsigned flags, const char *prefix,
		      struct sums_check *c)
{
	size_t len, n = 0;
	struct listed *v = NULL;
	char *text = fsutil_read_at(dirfd, SUMS_FILE, SUMS_MAX_LIST_BYTES, 0, &len);
	int r;

	if (!text) {
		if (errno == ENOENT)
			return 1;   /* no list */
		return add_problem(c, prefix, "unreadable", SUMS_FILE);
	}
	r = parse_list(text, len, prefix, c, &v, &n);
	c->nfiles += n;
	if (r == 0)
		r = check_listed(dirfd, prefix, v, n, c);
	if (r == 0)
		r = check_extra(dirfd, flags, prefix, v, n, c);
	free(v);
	free(text);
	return r;
}

/* Derived directory i of the set at dirfd into c->derived[i]. */
static int verify_derived(int dirfd, size_t i, struct sums_check *c)
{
	struct sums_derived *d = &c->derived[i];
	struct sums_check t = { .state = SUMS_INTACT, .stop = c->stop };
	char prefix[32];
	int fd = openat(dirfd, sums_derived_dirs[i], O_RDONLY | O_DIRECTORY |
			O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	snprintf(prefix, sizeof(prefix), "%s/", sums_derived_dirs[i]);
	int r = verify_dir(fd, 0, prefix, &t);
	close(fd);
	d->present = true;
	d->state = r == 1 ? SUMS_NONE : t.state;
	d->nfiles = t.nfiles;
	d->problems = t.problems;
	d->nproblems = t.nproblems;
	return r == 1 ? 0 : r;
}

int sums_verify_at(int dirfd, unsigned flags, struct sums_check *c)
{
	return sums_verify_stop_at(dirfd, flags, NULL, c);
}

int sums_verify_stop_at(int dirfd, unsigned flags, const volatile sig_atomic_t *stop,
			struct sums_check *c)
{
	int r;

	memset(c, 0, sizeof(*c));
	c->stop = stop;
	c->state = SUMS_INTACT;
	r = verify_dir(dirfd, flags, "", c);
	if (r == 1) {
		c->state = SUMS_NONE;
		r = 0;
	}
	for (size_t i = 0; r == 0 && (flags & SUMS_SET) && i < SUMS_NDERIVED; i++)
		r = verify_derived(dirfd, i, c);
	if (r < 0) {
		sums_check_release(c);
		return r;
	}
	return 0;
}

static void free_problems(char **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
}

void sums_check_release(struct sums_check *c)
{
	free_problems(c->problems, c->nproblems);
	c->problems = NULL;
	c->nproblems = 0;
	for (size_t i = 0; i < SUMS_NDERIVED; i++) {
		free_problems(c->derived[i].problems, c->derived[i].nproblems);
		c->derived[i].problems = NULL;
		c->derived[i].nproblems = 0;
	}
}

const char *sums_check_problem(const struct sums_check *c, size_t k)
{
	if (k < c->nproblems)
		return c->problems[k];
	k -= c->nproblems;
	for (size_t i = 0; i < SUMS_NDERIVED; i++) {
		if (k < c->derived[i].nproblems)
			return c->derived[i].problems[k];
		k -= c->derived[i].nproblems;
	}
	return NULL;
}

bool sums_check_failed(const struct sums_check *c)
{
	bool failed = c->state == SUMS_FAILED;
	for (size_t i = 0; i < SUMS_NDERIVED; i++)
		failed |= c->derived[i].state == SUMS_FAILED;
	return failed;
}

const char *sums_state_name(enum sums_state s)
{
	switch (s) {
	case SUMS_INTACT: return "intact";
	case SUMS_NONE: return "no checksums";
	case SUMS_FAILED: break;
	}
	return "FAILED";
}

int sums_verify_dir(const char *dir, unsigned flags, char **why)
{
	struct sums_check c;
	struct sbuf b = SBUF_INIT;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	*why = NULL;
	if (fd < 0 || sums_verify_at(fd, flags, &c) < 0) {
		if (fd >= 0)
			close(fd);
		*why = strdup("cannot be read");
		return *why ? SUMS_FAILED : -ENOMEM;
	}
	close(fd);
	enum sums_state st = c.state;
	if (st == SUMS_FAILED) {
		for (size_t i = 0; i < c.nproblems && i < 3; i++)
			sbuf_addf(&b, "%s%s", i ? ", " : "", c.problems[i]);
		if (c.nproblems > 3)
			sbuf_addf(&b, " and %zu more", c.nproblems - 3);
		if (!c.nproblems)
			sbuf_adds(&b, "SHA256SUMS does not match");
		*why = sbuf_detach(&b);
	}
	sums_check_release(&c);
	if (st == SUMS_FAILED && !*why)
		return -ENOMEM;
	return (int)st;
}
