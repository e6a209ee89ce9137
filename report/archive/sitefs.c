/*
 * sitefs.c - the files of a static site (sitefs.h): one descriptor of
 * SITE/, directories below it walked without following links, writes
 * through unique temp names, and a record of name and sha256 of every file
 * written, so that a rebuild removes only what it wrote and nobody changed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resultset/setout.h"
#include "util/array.h"
#include "util/fsdir.h"
#include "util/fsutil.h"
#include "util/sha256.h"
#include "resultset/site_manifest.h"
#include "sitefs.h"

/* "a/b/c" -> dir "a/b" (or "" for a top-level name), base "c". */
static void split(const char *rel, char *dir, size_t dlen, const char **base)
{
	const char *slash = strrchr(rel, '/');
	size_t n = slash ? (size_t)(slash - rel) : 0;

	if (n >= dlen)
		n = dlen - 1;
	memcpy(dir, rel, n);
	dir[n] = '\0';
	*base = slash ? slash + 1 : rel;
}

/* The message for a directory that is a link or not a directory; marks
 * the run as refused (exit 2). */
static void refuse(struct sitefs *f, const char *rel, size_t len, int e, struct errlist *errs)
{
	f->refused = true;
	errlist_add(errs, NULL, 0, 0, "%s/%.*s: %s; iomatrix site never writes or deletes "
		    "through a link inside the site (it could point anywhere): remove it, "
		    "or write the site elsewhere with -o", f->path, (int)len, rel,
		    e == ELOOP ? "is a symbolic link" : "is not a directory");
}

int sitefs_dir(struct sitefs *f, const char *rel, bool create, struct errlist *errs)
{
	size_t bad = strlen(rel);
	int fd = fsutil_open_dir_at(f->root, rel, create, &bad);

	if (fd >= 0)
		return fd;
	if (fd == -ELOOP || fd == -ENOTDIR)
		refuse(f, rel, bad, -fd, errs);
	else
		errlist_add(errs, NULL, 0, 0, "%s/%s: cannot open directory: %s", f->path, rel,
			    strerror(-fd));
	return -1;
}

/* Links to directories among the entries of folder rel (and with deep,
 * of its folders' entries): refused, nothing is touched.  Those are what
 * the site would write or clean through; a link to a file is harmless
 * (pages are renamed over it, a hash is never read through it, gnuplot's
 * names are claimed first) and may stay. */
static int scan_links(struct sitefs *f, const char *rel, bool deep, struct errlist *errs)
{
	int fd = fsutil_open_dir_at(f->root, rel, false, NULL), bad = 0;
	if (fd == -ENOENT)
		return 0;
	if (fd < 0) {
		if (fd == -ELOOP || fd == -ENOTDIR)
			refuse(f, rel, strlen(rel), -fd, errs);
		else
			errlist_add(errs, NULL, 0, 0, "%s/%s: cannot read: %s", f->path, rel,
				    strerror(-fd));
		return -1;
	}
	DIR *d = fsdir_open_fd(fd);
	struct dirent *de;
	if (!d)
		return -1;
	while ((de = readdir(d)) && !bad) {
		struct stat st;
		char sub[PATH_MAX];
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (fsutil_join(sub, sizeof(sub), rel, de->d_name) < 0)
			continue;
		struct stat target;
		if (S_ISLNK(st.st_mode) && fstatat(dirfd(d), de->d_name, &target, 0) == 0 &&
		    S_ISDIR(target.st_mode)) {
			refuse(f, sub, strlen(sub), ELOOP, errs);
			bad = -1;
		} else if (deep && S_ISDIR(st.st_mode)) {
			bad = scan_links(f, sub, false, errs);
		}
	}
	closedir(d);
	return bad;
}

int sitefs_open(struct sitefs *f, const char *path, struct errlist *errs)
{
	static const char *const top[] = { ".cache", "devices", "suites", "sets" };

	memset(f, 0, sizeof(*f));
	f->root = -1;
	if (!(f->path = strdup(path)))
		return -2;
	char why[1024];
	if (resultset_output_check(path, NULL, why, sizeof(why)) < 0) {  /* setout.h */
		errlist_add(errs, NULL, 0, 0, "%s", why);
		return -1;
	}
	int e = fsutil_mkdir_p(path);
	if (e < 0) {
		errlist_add(errs, path, 0, 0, "cannot create directory: %s", strerror(-e));
		return e == -ENOTDIR || e == -EACCES || e == -EROFS || e == -EPERM ? -1 : -2;
	}
	/* the directory the user named: links in its path are theirs */
	f->root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f->root < 0) {
		errlist_add(errs, path, 0, 0, "cannot open directory: %s", strerror(errno));
		return -2;
	}
	/* the site's folders: look before writing anything */
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		size_t bad = strlen(top[i]);
		int fd = fsutil_open_dir_at(f->root, top[i], false, &bad);
		if (fd == -ELOOP || fd == -ENOTDIR) {
			refuse(f, top[i], bad, -fd, errs);
			return -1;
		}
		if (fd >= 0)
			close(fd);
	}
	if (scan_links(f, ".cache", false, errs) < 0 || scan_links(f, "devices", true, errs) < 0 ||
	    scan_links(f, "sets", true, errs) < 0)
		return f->refused ? -1 : -2;
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		int fd = sitefs_dir(f, top[i], true, errs);
		if (fd < 0)
			return f->refused ? -1 : -2;
		close(fd);
	}
	return 0;
}

/* Index of rel in the sorted old list, or of the first entry after it. */
static size_t old_lower(const struct sitefs *f, const char *rel)
{
	size_t lo = 0, hi = f->nold;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(f->old[mid].rel, rel) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct sitefs_file *old_find(const struct sitefs *f, const char *rel)
{
	size_t i = old_lower(f, rel);
	return i < f->nold && !strcmp(f->old[i].rel, rel) ? &f->old[i] : NULL;
}

void sitefs_load(struct sitefs *f, const struct site_manifest_map *files)
{
	if (!files || !files->n || !(f->old = calloc(files->n, sizeof(*f->old))))
		return;
	/* checked and sorted by the manifest's reader */
	for (size_t i = 0; i < files->n; i++) {
		if (!(f->old[f->nold].rel = strdup(files->v[i].name)))
			break;
		memcpy(f->old[f->nold].hex, files->v[i].hex, sizeof(f->old[f->nold].hex));
		f->nold++;
	}
}

static int now_add(struct sitefs *f, const char *rel, const char *hex)
{
	struct sitefs_file *p = array_grow(f->now, &f->alloc, f->nnow, sizeof(*p), 256);
	if (!p)
		return -1;
	f->now = p;
	if (!(f->now[f->nnow].rel = strdup(rel)))
		return -1;
	snprintf(f->now[f->nnow].hex, 65, "%s", hex);
	f->now[f->nnow].seen = false;
	f->now[f->nnow].order = f->nnow;
	f->nnow++;
	return 0;
}

int sitefs_put(struct sitefs *f, const char *rel, const void *data, size_t len,
	       struct errlist *errs)
{
	char dir[PATH_MAX], hex[65];
	const char *base;

	if (!site_manifest_rel_ok(rel)) {
		errlist_add(errs, NULL, 0, 0, "%s/%s: refusing to write an odd name", f->path, rel);
		return -1;
	}
	split(rel, dir, sizeof(dir), &base);
	int fd = sitefs_dir(f, dir, true, errs);
	if (fd < 0)
		return -1;
	int r = fsutil_write_replace_at(fd, base, data, len, false);
	close(fd);
	if (r < 0) {
		errlist_add(errs, NULL, 0, 0, "%s/%s: cannot write: %s", f->path, rel,
			    fsutil_strerror(-r));
		return -1;
	}
	sha256_hex(data, len, hex);
	return now_add(f, rel, hex) < 0 ? -1 : 0;
}

/* Run fn on rel's directory (opened without following links) and base
 * name.  fn's result, or -1 when the directory cannot be opened. */
static int at_rel(struct sitefs *f, const char *rel, int (*fn)(int, const char *, void *),
		  void *arg)
{
	char dir[PATH_MAX];
	const char *base;

	if (!site_manifest_rel_ok(rel))
		return -1;
	split(rel, dir, sizeof(dir), &base);
	int fd = fsutil_open_dir_at(f->root, dir, false, NULL);
	if (fd < 0)
		return -1;
	int r = fn(fd, base, arg);
	close(fd);
	return r;
}

static int hash_fn(int fd, const char *base, void *arg)
{
	return fsutil_sha256_at(fd, base, arg) < 0 ? -1 : 0;
}

int sitefs_record(struct sitefs *f, const char *rel)
{
	char hex[65];
	if (at_rel(f, rel, hash_fn, hex) < 0)
		return -1;
	return now_add(f, rel, hex);
}

void sitefs_keep(struct sitefs *f, const char *rel)
{
	size_t n = strlen(rel);
	if (n && rel[n - 1] == '/') {
		for (size_t i = old_lower(f, rel); i < f->nold &&
		     !strncmp(f->old[i].rel, rel, n); i++)
			f->old[i].seen = true;
		return;
	}
	struct sitefs_file *o = old_find(f, rel);
	if (o)
		o->seen = true;
}

/* Remove base from fd when it is a regular file with sha256 arg. */
static int unlink_ours_fn(int fd, const char *base, void *arg)
{
	char now[65];
	if (fsutil_sha256_at(fd, base, now) < 0 || strcmp(now, arg))
		return 0;
	return unlinkat(fd, base, 0) == 0;
}

static int claim_fn(int fd, const char *base, void *arg)
{
	struct stat st;
	if (fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))  /* a link, a FIFO */
		return unlinkat(fd, base, 0) == 0;
	return arg ? unlink_ours_fn(fd, base, arg) : 0;
}

void sitefs_claim(struct sitefs *f, const char *rel)
{
	const struct sitefs_file *o = old_find(f, rel);
	at_rel(f, rel, claim_fn, o ? (void *)o->hex : NULL);
}

static int exists_fn(int fd, const char *base, void *arg)
{
	struct stat st;
	(void)arg;
	return fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

bool sitefs_exists(struct sitefs *f, const char *rel)
{
	return at_rel(f, rel, exists_fn, NULL) == 1;
}

char *sitefs_read(struct sitefs *f, const char *rel, size_t max, size_t *len)
{
	char dir[PATH_MAX];
	const char *base;

	if (!site_manifest_rel_ok(rel)) {
		errno = EINVAL;
		return NULL;
	}
	split(rel, dir, sizeof(dir), &base);
	int fd = fsutil_open_dir_at(f->root, dir, false, NULL);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	char *buf = fsutil_read_at(fd, base, max, 0, len);
	int e = errno;
	close(fd);
	errno = e;
	return buf;
}

/* An emptied devices/<x>/ folder goes with its last chart. */
static void rmdir_if_empty(struct sitefs *f, const char *rel)
{
	char dir[PATH_MAX];
	const char *base;

	split(rel, dir, sizeof(dir), &base);
	const char *slash = strchr(dir, '/');
	if (strncmp(dir, "devices/", 8) || !slash || strchr(slash + 1, '/'))
		return;
	int fd = fsutil_open_dir_at(f->root, "devices", false, NULL);
	if (fd >= 0) {
		unlinkat(fd, slash + 1, AT_REMOVEDIR);  /* fails unless empty */
		close(fd);
	}
}

/* By name, then the latest write first. */
static int cmp_now(const void *a, const void *b)
{
	const struct sitefs_file *x = a, *y = b;
	int c = strcmp(x->rel, y->rel);
	return c ? c : x->order < y->order ? 1 : -1;
}

int sitefs_finish(struct sitefs *f, struct site_manifest_map *files)
{
	size_t i = 0, k = 0;
	int rc = 0;

	if (f->nnow)
		qsort(f->now, f->nnow, sizeof(*f->now), cmp_now);
	/* both lists sorted: one merge, the manifest in name order */
	while (i < f->nold || k < f->nnow) {
		int c = i == f->nold ? 1 : k == f->nnow ? -1 : strcmp(f->old[i].rel, f->now[k].rel);
		if (c >= 0) {
			const char *rel = f->now[k].rel;
			rc |= site_manifest_add(files, rel, f->now[k].hex);
			while (k < f->nnow && !strcmp(f->now[k].rel, rel))
				k++;
			if (c == 0)
				i++;   /* written again: not stale */
			continue;
		}
		struct sitefs_file *o = &f->old[i++];
		if (o->seen) {
			if (sitefs_exists(f, o->rel))
				rc |= site_manifest_add(files, o->rel, o->hex);
		} else if (at_rel(f, o->rel, unlink_ours_fn, o->hex) == 1) {
			rmdir_if_empty(f, o->rel);
		}
	}
	return rc;
}

void sitefs_close(struct sitefs *f)
{
	if (f->root >= 0)
		close(f->root);
	for (size_t i = 0; i < f->nold; i++)
		free(f->old[i].rel);
	for (size_t i = 0; i < f->nnow; i++)
		free(f->now[i].rel);
	free(f->old);
	free(f->now);
	free(f->path);
	memset(f, 0, sizeof(*f));
	f->root = -1;
}
