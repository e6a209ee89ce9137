/*
 * outdir.c - output directories of report and compare (outdir.h): opened
 * with openat + O_NOFOLLOW|O_DIRECTORY below the directory the user named,
 * flock'ed, written through unique temp names, cleaned from a list of
 * names and hashes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resultset/setout.h"
#include "util/array.h"
#include "util/fsdir.h"
#include "util/fsutil.h"
#include "util/sbuf.h"
#include "util/sha256.h"
#include "outdir.h"

#define LIST_MAX_BYTES (1u << 20)

/* A name iomatrix may write or remove in its output directory: one path
 * component, not hidden (so never "..", a temp name or the list). */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > 255 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || (unsigned char)s[i] < 0x20)
			return false;
	return true;
}

/* Add name (with its hash, "" when not known yet) to a list, or update
 * its hash when it is there already.  0, -1 out of memory. */
static int files_add(struct outdir_file **v, size_t *n, size_t *alloc,
		     const char *name, const char *hex)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name)) {
			snprintf((*v)[i].hex, sizeof((*v)[i].hex), "%s", hex);
			return 0;
		}
	struct outdir_file *p = array_grow(*v, alloc, *n, sizeof(*p), 32);
	if (!p)
		return -1;
	*v = p;
	if (!((*v)[*n].name = strdup(name)))
		return -1;
	snprintf((*v)[*n].hex, sizeof((*v)[*n].hex), "%s", hex);
	(*n)++;
	return 0;
}

static void files_free(struct outdir_file *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static bool is_hex64(const char *s)
{
	size_t i = 0;
	for (; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* Temp files of a writer that was killed: ours by their prefix, and only
 * regular files (a planted link of that name is removed too: unlinkat
 * never follows).  Called with the lock held, so no live writer owns one. */
static void remove_stale_temps(int fd)
{
	DIR *d = fsdir_open_dup(fd);
	struct dirent *de;
	struct stat st;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (fsutil_is_temp_name(de->d_name) &&
		    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			unlinkat(fd, de->d_name, 0);
	closedir(d);
}

/* What the previous run listed in directory fd: "HEX  NAME" lines; a line
 * without a hash (an older version's list) or with an odd name is
 * skipped, so its file is never removed. */
static void list_load_fd(int fd, struct outdir_file **v, size_t *n, size_t *alloc)
{
	size_t len = 0;
	/* not followed, never a FIFO: the list may be planted too */
	char *buf = fsutil_read_at(fd, OUTDIR_LIST, LIST_MAX_BYTES, 0, &len);

	if (!buf)
		return;
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strlen(line) < 67 || !is_hex64(line) || line[64] != ' ' || line[65] != ' ')
			continue;
		line[64] = '\0';
		if (name_ok(line + 66) && files_add(v, n, alloc, line + 66, line) < 0)
			break;
	}
	free(buf);
}

static void list_load(struct outdir *o)
{
	list_load_fd(o->fd, &o->old, &o->nold, &o->oldalloc);
}

/* Remove name from directory fd when it is a regular file whose sha256 is
 * hex: a file this program wrote and nobody changed since.  1 removed, 0
 * not. */
static int remove_if_ours(int fd, const char *name, const char *hex)
{
	char now[65];

	if (!hex[0] || fsutil_sha256_at(fd, name, now) < 0 || strcmp(now, hex))
		return 0;
	return unlinkat(fd, name, 0) == 0;
}

/* Errors that mean "not there for you to write" (a read-only or foreign
 * set): bad input, exit 2, rather than an IO failure. */
static bool input_errno(int e)
{
	return e == EACCES || e == EPERM || e == EROFS;
}

static int open_below(struct outdir *o, int parentfd, const char *shown,
		      const char *name, struct errlist *errs)
{
	if (mkdirat(parentfd, name, 0755) < 0 && errno != EEXIST) {
		int e = errno;
		errlist_add(errs, shown, 0, 0, "cannot create directory: %s%s", strerror(e),
			    input_errno(e) ? "; write elsewhere with -o DIR" : "");
		return input_errno(e) ? -1 : -2;
	}
	o->fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (o->fd < 0) {
		int e = errno;
		struct stat st;
		if (e == ELOOP || e == ENOTDIR) {
			bool link = fstatat(parentfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISLNK(st.st_mode);
			errlist_add(errs, shown, 0, 0, "is %s; iomatrix writes output only into a "
				    "real directory (a set from elsewhere may hold planted links): "
				    "remove it, or write elsewhere with -o DIR",
				    link || e == ELOOP ? "a symbolic link" : "not a directory");
			return -1;
		}
		errlist_add(errs, shown, 0, 0, "cannot open directory: %s", strerror(e));
		return -2;
	}
	return 0;
}

/* Can we create a file in o?  A read-only set (a mount, chattr +i, a set
 * of someone else's) is found here, before anything is drawn or written,
 * as one message, instead of one "Permission denied" per file after a
 * summary that looked like success.  Root ignores mode bits but not EROFS
 * or EPERM, so the probe is a real create, not access(2). */
static int probe_writable(struct outdir *o, struct errlist *errs)
{
	char name[64];

	snprintf(name, sizeof(name), "%sprobe.%ld", FSUTIL_TMP_PREFIX, (long)getpid());
	int fd = openat(o->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		unlinkat(o->fd, name, 0);
		return 0;
	}
	int e = errno;
	if (input_errno(e)) {
		errlist_add(errs, o->path, 0, 0, "cannot write here: %s (a read-only set or "
			    "directory); nothing was written: write elsewhere with -o DIR",
			    strerror(e));
		return -1;
	}
	errlist_add(errs, o->path, 0, 0, "cannot write here: %s", strerror(e));
	return -2;
}

/* The lock (waiting for another writer), a killed writer's temp files,
 * the previous list, and the probe that the directory can be written. */
static int lock_and_load(struct outdir *o, const char *cmd, struct errlist *errs)
{
	/* A second writer waits for the first rather than failing: two
	 * reports into one directory (a Makefile with -j, a cron job and a
	 * user) should both succeed, one after the other, the last one's
	 * files complete. */
	int r = flock(o->fd, LOCK_EX | LOCK_NB);
	if (r < 0 && errno == EWOULDBLOCK) {
		fprintf(stderr, "iomatrix: %s: another iomatrix %s is writing into this "
			"directory; waiting for it to finish\n", o->path, cmd);
		while ((r = flock(o->fd, LOCK_EX)) < 0 && errno == EINTR)
			;
	}
	/* A filesystem without flock goes on unlocked, and then a temp file
	 * may be a live writer's: removing it would fail that writer's
	 * rename ("No such file").  Only a lock holder cleans up. */
	o->locked = r == 0;
	if (o->locked)
		remove_stale_temps(o->fd);
	list_load(o);
	return probe_writable(o, errs);
}

static int set_path(struct outdir *o, const char *a, const char *b, struct errlist *errs)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	size_t n = strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
	if (!(o->path = malloc(n))) {
		errlist_add(errs, a, 0, 0, "out of memory");
		return -2;
	}
	snprintf(o->path, n, "%s%s%s", a, b ? "/" : "", b ? b : "");
	return 0;
}

int outdir_open(struct outdir *o, const char *user_path, const char *sub,
		const char *cmd, struct errlist *errs)
{
	if (set_path(o, user_path, sub, errs) < 0)
		return -2;
	char why[1024];
	/* -o DIR: never inside a set, but as that set's own report/ or
	 * compare/ (resultset/setout.h) */
	if (!sub && resultset_output_check(user_path, cmd, why, sizeof(why)) < 0) {
		errlist_add(errs, NULL, 0, 0, "%s", why);
		return -1;
	}
	if (!sub) {
		int e = fsutil_mkdir_p(user_path);
		if (e < 0) {
			errlist_add(errs, user_path, 0, 0, "cannot create directory: %s", strerror(-e));
			return e == -ENOTDIR || e == -EEXIST || input_errno(-e) ? -1 : -2;
		}
	}
	/* the directory the user named: links in its path are theirs */
	int top = open(user_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0) {
		int e = errno;
		errlist_add(errs, user_path, 0, 0, "cannot open directory: %s", strerror(e));
		return e == ENOTDIR || e == ENOENT ? -1 : -2;
	}
	if (sub) {
		int r = open_below(o, top, o->path, sub, errs);
		close(top);
		if (r < 0)
			return r;
	} else {
		o->fd = top;
	}
	return lock_and_load(o, cmd, errs);
}

int outdir_open_at(struct outdir *o, int parentfd, const char *parent_path,
		   const char *name, const char *cmd, struct errlist *errs)
{
	if (set_path(o, parent_path, name, errs) < 0)
		return -2;
	int r = open_below(o, parentfd, o->path, name, errs);
	return r < 0 ? r : lock_and_load(o, cmd, errs);
}

int outdir_open_child(struct outdir *o, struct outdir *parent, const char *name,
		      struct errlist *errs)
{
	if (set_path(o, parent->path, name, errs) < 0)
		return -2;
	o->nosync = parent->nosync;
	int r = open_below(o, parent->fd, o->path, name, errs);
	if (r < 0)
		return r;
	o->locked = parent->locked;   /* the parent's lock covers it */
	if (o->locked)
		remove_stale_temps(o->fd);
	list_load(o);
	return probe_writable(o, errs);
}

int outdir_write(struct outdir *o, const char *name, const void *data,
		 size_t len, struct errlist *errs)
{
	char hex[65];

	if (!name_ok(name) && strcmp(name, OUTDIR_LIST)) {
		errlist_add(errs, o->path, 0, 0, "refusing to write odd file name '%s'", name);
		return -1;
	}
	/* unique O_EXCL|O_NOFOLLOW temp, mode per the umask, renameat */
	int r = fsutil_write_atomic_flags_at(o->fd, name, data, len,
					     o->nosync ? FSUTIL_NOSYNC : 0);
	sha256_hex(data, len, hex);
	if (r == 0 && strcmp(name, OUTDIR_LIST) &&
	    files_add(&o->written, &o->nwritten, &o->alloc, name, hex) < 0)
		r = -ENOMEM;
	if (r < 0) {
		errlist_add(errs, o->path, 0, 0, "cannot write '%s': %s", name,
			    fsutil_strerror(-r));
		return -1;
	}
	return 0;
}

void outdir_claim(struct outdir *o, const char *name)
{
	struct stat st;

	if (!name_ok(name))
		return;
	/* a planted link, FIFO or device would be followed or hang the
	 * writer: removed (unlinkat never follows).  A regular file goes only
	 * when it is the one an earlier run listed; any other is overwritten
	 * by name, as every output file is. */
	if (fstatat(o->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode)) {
		if (!S_ISREG(st.st_mode))
			unlinkat(o->fd, name, 0);
		else
			for (size_t i = 0; i < o->nold; i++)
				if (!strcmp(o->old[i].name, name))
					remove_if_ours(o->fd, name, o->old[i].hex);
	}
	files_add(&o->written, &o->nwritten, &o->alloc, name, "");
}

int outdir_finish(struct outdir *o, struct errlist *errs)
{
	struct sbuf list = SBUF_INIT;

	for (size_t i = 0; i < o->nold; i++) {
		bool again = false;
		for (size_t k = 0; k < o->nwritten && !again; k++)
			again = !strcmp(o->old[i].name, o->written[k].name);
		if (!again)
			remove_if_ours(o->fd, o->old[i].name, o->old[i].hex);
	}
	for (size_t k = 0; k < o->nwritten; k++) {
		struct outdir_file *f = &o->written[k];
		/* what gnuplot drew: hashed now that it is there; a name it did
		 * not draw is not listed */
		if (!f->hex[0] && fsutil_sha256_at(o->fd, f->name, f->hex) < 0)
			continue;
		sbuf_addf(&list, "%s  %s\n", f->hex, f->name);
	}
	int r = outdir_write(o, OUTDIR_LIST, sbuf_str(&list), list.len, errs);
	sbuf_release(&list);
	return r;
}

void outdir_close(struct outdir *o)
{
	if (o->fd >= 0)
		close(o->fd);
	files_free(o->old, o->nold);
	files_free(o->written, o->nwritten);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}

int outdir_remove(int parentfd, const char *name)
{
	struct outdir_file *v = NULL;
	size_t n = 0, alloc = 0;
	int removed = 0;
	struct stat st;

	if (!name_ok(name))
		return 0;
	int fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* a writer busy there now: leave it to a later run */
	int lk = flock(fd, LOCK_EX | LOCK_NB);
	if (lk < 0 && errno == EWOULDBLOCK) {
		close(fd);
		return 0;
	}
	list_load_fd(fd, &v, &n, &alloc);
	for (size_t i = 0; i < n; i++)
		removed += remove_if_ours(fd, v[i].name, v[i].hex);
	files_free(v, n);
	if (lk == 0)
		remove_stale_temps(fd);
	if (fstatat(fd, OUTDIR_LIST, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		unlinkat(fd, OUTDIR_LIST, 0);
	close(fd);
	unlinkat(parentfd, name, AT_REMOVEDIR);  /* only when now empty */
	return removed;
}
