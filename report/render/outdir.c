/*
 * outdir.c - output directories of report and compare (outdir.h): opened
 * with openat + O_NOFOLLOW|O_DIRECTORY below the directory the user named,
 * flock'ed, written through unique temp names, cleaned from a list.
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

#include "common/fsutil.h"
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

static int names_add(char ***v, size_t *n, size_t *alloc, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	if (*n == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 32;
		char **p = realloc(*v, na * sizeof(*p));
		if (!p)
			return -1;
		*v = p;
		*alloc = na;
	}
	if (!((*v)[*n] = strdup(s)))
		return -1;
	(*n)++;
	return 0;
}

/* Temp files of a writer that was killed: ours by their prefix, and only
 * regular files (a planted link of that name is removed too: unlinkat
 * never follows).  Called with the lock held, so no live writer owns one. */
static void remove_stale_temps(int fd)
{
	int fd2 = dup(fd);
	DIR *d = fd2 >= 0 ? fdopendir(fd2) : NULL;
	struct dirent *de;
	struct stat st;

	if (!d) {
		if (fd2 >= 0)
			close(fd2);
		return;
	}
	while ((de = readdir(d)))
		if (fsutil_is_temp_name(de->d_name) &&
		    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			unlinkat(fd, de->d_name, 0);
	closedir(d);
}

/* What the previous run listed (names only; anything odd is skipped). */
static void list_load(struct outdir *o)
{
	size_t len = 0, alloc = 0;
	/* not followed, never a FIFO: the list may be planted too */
	char *buf = fsutil_read_at(o->fd, OUTDIR_LIST, LIST_MAX_BYTES, 0, &len);

	if (!buf)
		return;
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (name_ok(line) && names_add(&o->old, &o->nold, &alloc, line) < 0)
			break;
	}
	free(buf);
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

int outdir_open(struct outdir *o, const char *user_path, const char *sub,
		const char *cmd, struct errlist *errs)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	size_t n = strlen(user_path) + (sub ? strlen(sub) + 1 : 0) + 1;
	if (!(o->path = malloc(n))) {
		errlist_add(errs, user_path, 0, 0, "out of memory");
		return -2;
	}
	snprintf(o->path, n, "%s%s%s", user_path, sub ? "/" : "", sub ? sub : "");
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
	/* A second writer waits for the first rather than failing: two
	 * reports into one directory (a Makefile with -j, a cron job and a
	 * user) should both succeed, one after the other, the last one's
	 * files complete.  (A filesystem without flock goes on unlocked.) */
	if (flock(o->fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		fprintf(stderr, "iomatrix: %s: another iomatrix %s is writing into this "
			"directory; waiting for it to finish\n", o->path, cmd);
		while (flock(o->fd, LOCK_EX) < 0 && errno == EINTR)
			;
	}
	remove_stale_temps(o->fd);
	list_load(o);
	return probe_writable(o, errs);
}

int outdir_open_child(struct outdir *o, struct outdir *parent, const char *name,
		      struct errlist *errs)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	size_t n = strlen(parent->path) + strlen(name) + 2;
	if (!(o->path = malloc(n))) {
		errlist_add(errs, parent->path, 0, 0, "out of memory");
		return -2;
	}
	snprintf(o->path, n, "%s/%s", parent->path, name);
	int r = open_below(o, parent->fd, o->path, name, errs);
	if (r < 0)
		return r;
	remove_stale_temps(o->fd);
	list_load(o);
	return probe_writable(o, errs);
}

int outdir_write(struct outdir *o, const char *name, const void *data,
		 size_t len, struct errlist *errs)
{
	if (!name_ok(name) && strcmp(name, OUTDIR_LIST)) {
		errlist_add(errs, o->path, 0, 0, "refusing to write odd file name '%s'", name);
		return -1;
	}
	/* unique O_EXCL|O_NOFOLLOW temp, mode per the umask, renameat */
	int r = fsutil_write_atomic_at(o->fd, name, data, len);
	if (r == 0 && strcmp(name, OUTDIR_LIST) &&
	    names_add(&o->written, &o->nwritten, &o->alloc, name) < 0)
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
	if (!name_ok(name))
		return;
	unlinkat(o->fd, name, 0); /* a file or planted link, never followed */
	names_add(&o->written, &o->nwritten, &o->alloc, name);
}

int outdir_finish(struct outdir *o, struct errlist *errs)
{
	struct stat st;
	size_t len = 0;

	for (size_t i = 0; i < o->nold; i++) {
		bool again = false;
		for (size_t k = 0; k < o->nwritten && !again; k++)
			again = !strcmp(o->old[i], o->written[k]);
		if (!again && fstatat(o->fd, o->old[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			unlinkat(o->fd, o->old[i], 0);
	}
	for (size_t k = 0; k < o->nwritten; k++)
		len += strlen(o->written[k]) + 1;
	char *buf = malloc(len + 1), *p = buf;
	if (!buf) {
		errlist_add(errs, o->path, 0, 0, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < o->nwritten; k++)
		p += sprintf(p, "%s\n", o->written[k]);
	int r = outdir_write(o, OUTDIR_LIST, buf, len, errs);
	free(buf);
	return r;
}

void outdir_close(struct outdir *o)
{
	if (o->fd >= 0)
		close(o->fd);
	for (size_t i = 0; i < o->nold; i++)
		free(o->old[i]);
	for (size_t i = 0; i < o->nwritten; i++)
		free(o->written[i]);
	free(o->old);
	free(o->written);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}
