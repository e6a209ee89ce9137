/*
 * fsutil.c - bounded whole-file reads, atomic writes, mkdir -p and
 * parent-of (fsutil.h).  The reader checks the file type on the open
 * descriptor (no stat-then-open race); the writer makes its temp file with
 * O_EXCL|O_NOFOLLOW under an unpredictable name, like mkstemp, but relative
 * to a directory fd so callers can work inside an O_NOFOLLOW-opened set.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "fsdir.h"
#include "monotime.h"
#include "sha256.h"

char *fsutil_read_at(int dirfd, const char *name, size_t max, unsigned flags,
		     size_t *len)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_CLOEXEC |
		     ((flags & FSUTIL_FOLLOW) ? 0 : O_NOFOLLOW);
	int fd = openat(dirfd, name, oflags), e;
	struct stat st;
	char *buf = NULL;
	size_t n = 0, alloc;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto err;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto err;
	}
	if ((uint64_t)st.st_size > max) {
		errno = EFBIG;
		goto err;
	}
	/* st_size is a hint (the file may grow while we read): read to EOF,
	 * but never past max */
	alloc = (size_t)st.st_size + 1;
	buf = malloc(alloc + 1);
	if (!buf)
		goto err;
	for (;;) {
		if (n == alloc) {
			if (alloc > max) {
				errno = EFBIG;
				goto err;
			}
			size_t na = alloc * 2 > max + 1 ? max + 1 : alloc * 2;
			char *nb = realloc(buf, na + 1);
			if (!nb)
				goto err;
			buf = nb;
			alloc = na;
		}
		ssize_t r = read(fd, buf + n, alloc - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		errno = EFBIG;
		goto err;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
err:
	e = errno;
	free(buf);
	close(fd);
	errno = e;
	return NULL;
}

char *fsutil_read(const char *path, size_t max, size_t *len)
{
	return fsutil_read_at(AT_FDCWD, path, max, FSUTIL_FOLLOW, len);
}

int fsutil_parent(const char *path, char *out, size_t len)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;                          /* "a/b/" names a/b */
	while (n > 0 && path[n - 1] != '/')
		n--;                          /* drop the last component */
	while (n > 1 && path[n - 1] == '/')
		n--;                          /* and the slashes before it */
	const char *p = path;
	if (n == 0) {
		p = ".";
		n = 1;
	}
	if (n >= len) {
		if (len)
			out[0] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

int fsutil_fsync_dir_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	/* Some filesystems refuse fsync on a directory (EINVAL): not fatal. */
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = -errno;
	close(fd);
	return ret;
}

/* 12 characters from [A-Za-z0-9]: getrandom, else pid, time and a counter
 * mixed (unpredictable enough; O_EXCL makes it safe either way). */
static void temp_suffix(char *out)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long counter;
	uint64_t r[2] = { 0, 0 };

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		uint64_t ns = mono_ns();
		r[0] = ((uint64_t)getpid() << 32) ^ ns % 1000000000u ^
		       (uint64_t)__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) *
			       0x9e3779b97f4a7c15ull;
		r[1] = ns / 1000000000u * 0xbf58476d1ce4e5b9ull ^ r[0];
	}
	for (int i = 0; i < 12; i++) {
		uint64_t *w = &r[i / 6];
		out[i] = abc[*w % 62];
		*w /= 62;
	}
	out[12] = '\0';
}

int fsutil_dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

bool fsutil_is_temp_name(const char *name)
{
	return !strncmp(name, FSUTIL_TMP_PREFIX, sizeof(FSUTIL_TMP_PREFIX) - 1);
}

/* One loop for both directions: write(2) or read(2) until len bytes
 * moved. */
static int move_all(int fd, char *p, size_t len, bool out)
{
	while (len > 0) {
		ssize_t n = out ? write(fd, p, len) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return out ? -EIO : -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fsutil_write_all(int fd, const void *buf, size_t len)
{
	return move_all(fd, (char *)buf, len, true);
}

int fsutil_read_all(int fd, void *buf, size_t len)
{
	return move_all(fd, buf, len, false);
}

/* The temp file for name (relative to dirfd): made in name's directory,
 * O_EXCL|O_NOFOLLOW, mode 0666 less the umask (as open(2) and every other
 * tool would: under umask 077 a private set stays private).  The
 * descriptor, or -errno; dir and tmp are filled in. */
static int temp_open(int dirfd, const char *name, char *dir, size_t dirlen,
		     char *tmp, size_t tmplen)
{
	char sfx[13];
	int fd = -1;

	/* the temp file lives in the target's own directory: rename is
	 * atomic only within one filesystem */
	if (strchr(name, '/')) {
		if (fsutil_parent(name, dir, dirlen) < 0)
			return -ENAMETOOLONG;
	} else {
		snprintf(dir, dirlen, ".");
	}
	for (int tries = 0; tries < 100; tries++) {
		temp_suffix(sfx);
		if (snprintf(tmp, tmplen, "%s/%s%s", dir, FSUTIL_TMP_PREFIX, sfx) >=
		    (int)tmplen)
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	return fd < 0 ? -errno : fd;
}

/* fsync (unless nosync), close, rename over name, fsync the directory.
 * Closes fd in every case; removes tmp on failure.  0 or -errno. */
static int temp_commit(int fd, int dirfd, const char *tmp, const char *name,
		       const char *dir, bool nosync)
{
	int ret = 0;

	if (!nosync && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && renameat(dirfd, tmp, dirfd, name) < 0)
		ret = -errno;
	if (ret) {
		unlinkat(dirfd, tmp, 0);
		return ret;
	}
	return nosync ? 0 : fsutil_fsync_dir_at(dirfd, dir);
}

int fsutil_write_atomic_flags_at(int dirfd, const char *name, const void *data,
				 size_t len, unsigned flags)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 32];
	int fd = temp_open(dirfd, name, dir, sizeof(dir), tmp, sizeof(tmp)), ret;

	if (fd < 0)
		return fd;
	if ((ret = fsutil_write_all(fd, data, len)) < 0) {
		close(fd);
		unlinkat(dirfd, tmp, 0);
		return ret;
	}
	return temp_commit(fd, dirfd, tmp, name, dir, flags & FSUTIL_NOSYNC);
}

int fsutil_write_atomic_at(int dirfd, const char *name, const void *data,
			   size_t len)
{
	return fsutil_write_atomic_flags_at(dirfd, name, data, len, 0);
}

int fsutil_write_replace_at(int dirfd, const char *name, const void *data,
			    size_t len, bool durable)
{
	return fsutil_write_atomic_flags_at(dirfd, name, data, len,
					    durable ? 0 : FSUTIL_NOSYNC);
}

int fsutil_write_atomic(const char *path, const void *data, size_t len)
{
	return fsutil_write_atomic_flags_at(AT_FDCWD, path, data, len, 0);
}

int fsutil_atomic_begin_at(struct fsutil_atomic *a, int dirfd, const char *name)
{
	int fd;

	a->f = NULL;
	a->dirfd = dirfd;
	if (snprintf(a->name, sizeof(a->name), "%s", name) >= (int)sizeof(a->name))
		return -ENAMETOOLONG;
	fd = temp_open(dirfd, name, a->dir, sizeof(a->dir), a->tmp, sizeof(a->tmp));
	if (fd < 0)
		return fd;
	if (!(a->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlinkat(dirfd, a->tmp, 0);
		return -e;
	}
	return 0;
}

int fsutil_atomic_commit(struct fsutil_atomic *a)
{
	int ret = 0, fd;

	if (fflush(a->f) != 0 || ferror(a->f))
		ret = errno ? -errno : -EIO;
	fd = dup(fileno(a->f));
	fclose(a->f);
	a->f = NULL;
	if (fd < 0 || ret) {
		if (fd >= 0)
			close(fd);
		unlinkat(a->dirfd, a->tmp, 0);
		return ret ? ret : -EIO;
	}
	return temp_commit(fd, a->dirfd, a->tmp, a->name, a->dir, false);
}

void fsutil_atomic_abort(struct fsutil_atomic *a)
{
	if (a->f)
		fclose(a->f);
	a->f = NULL;
	unlinkat(a->dirfd, a->tmp, 0);
}

int fsutil_syncfs(int fd)
{
	return syncfs(fd) < 0 ? -errno : 0;
}

int fsutil_mkdir_p_made(const char *path, size_t *made)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	*made = 0;
	if (n == 0)
		return 0;
	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) == 0) {
			if (!*made)
				*made = (size_t)(p - buf);
		} else if (errno != EEXIST) {
			*p = '/';
			goto fail;
		}
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0) {
		struct stat st;
		if (errno != EEXIST)
			goto fail;
		if (stat(buf, &st) < 0)
			goto fail;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
	} else if (!*made) {
		*made = n;
	}
	return 0;
fail:;
	int e = errno;
	if (*made)
		fsutil_rmdir_made(path, *made);
	*made = 0;
	return -e;
}

int fsutil_mkdir_p(const char *path)
{
	size_t made;
	return fsutil_mkdir_p_made(path, &made);
}

void fsutil_rmdir_made(const char *path, size_t made)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (!made || n >= sizeof(buf))
		return;
	memcpy(buf, path, n + 1);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	while (n >= made) {
		buf[n] = '\0';
		if (rmdir(buf) < 0)
			return;
		while (n > 0 && buf[n - 1] != '/')  /* to the parent */
			n--;
		while (n > 1 && buf[n - 1] == '/')
			n--;
		if (n == 0 || buf[n - 1] == '/')
			return;
	}
}

const char *fsutil_strerror(int errnum)
{
	switch (errnum) {
	case EINVAL: return "not a regular file";
	case ELOOP: return "is a symbolic link";
	case EFBIG: return "file too large";
	default: return strerror(errnum);
	}
}

int fsutil_join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= len) {
		if (len)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

int fsutil_open_dir_at(int dirfd, const char *rel, bool create, size_t *bad)
{
	int fd = dup(dirfd), e = 0;
	const char *p = rel, *end = rel;

	if (fd < 0)
		return -errno;
	if (!strcmp(rel, ".") || !*rel)
		return fd;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		char comp[NAME_MAX + 1];
		end = p + n;
		if (n == 0 || n > NAME_MAX || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			e = EINVAL;
			goto err;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* made only when missing: most walks find every component */
		if (next < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, comp, 0777) < 0 && errno != EEXIST) {
				e = errno;
				goto err;
			}
			next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			struct stat st;
			e = errno;
			/* O_NOFOLLOW|O_DIRECTORY on a link may say ENOTDIR */
			if (e == ENOTDIR && fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				e = ELOOP;
			goto err;
		}
		close(fd);
		fd = next;
		p += n;
		if (*p == '/')
			p++;
	}
	return fd;
err:
	close(fd);
	if (bad)
		*bad = (size_t)(end - rel);
	return -e;
}

int fsutil_sha256_at(int dirfd, const char *name, char hex[65])
{
	int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC), e = 0;
	struct stat st;
	struct sha256 h;
	unsigned char buf[65536], out[32];

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		e = errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto out;
	}
	sha256_init(&h);
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			goto out;
		}
		if (r == 0)
			break;
		sha256_update(&h, buf, (size_t)r);
	}
	sha256_final(&h, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
out:
	close(fd);
	return -e;
}

int fsutil_append(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
		      O_NOCTTY | O_CLOEXEC, 0666), e = 0;
	struct stat st;

	if (fd < 0)  /* ENXIO: a FIFO no one reads, a device with none behind it */
		return errno == ENXIO ? -EINVAL : -errno;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	else
		e = -fsutil_write_all(fd, data, len);
	if (close(fd) < 0 && !e)
		e = errno;
	return -e;
}

size_t fsutil_last_component(const char *path, size_t *n)
{
	size_t end = strlen(path);
	while (end > 1 && path[end - 1] == '/')
		end--;
	size_t b = end;
	while (b > 0 && path[b - 1] != '/')
		b--;
	*n = end - b;
	return b;
}

/* Move directory `name` below sub up into fd under a fresh hidden name
 * (RENAME_NOREPLACE: never over an entry).  0, or -1. */
static int remove_tree_hoist(int sub, const char *name, int fd, unsigned *seq)
{
	char up[64];

	for (int tries = 0; tries < 1000; tries++) {
		snprintf(up, sizeof(up), ".iomatrix-rm.%u", (*seq)++);
		if (renameat2(sub, name, fd, up, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* One pass over directory fd: every entry that is not a directory is
 * unlinked, every directory emptied of its non-directories, its own
 * directories moved up into fd (remove_tree_hoist), and removed.  A tree
 * loses one level per pass, whatever its depth, with two directories open
 * at a time and no recursion.  1 when the pass changed something (another
 * is due), 0 when it could not (fd empty, or what is left cannot go). */
static int remove_tree_pass(int fd, unsigned *seq)
{
	int progress = 0;
	DIR *d = fsdir_open_dup(fd);
	struct dirent *e, *f;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(fd, e->d_name, 0) == 0) {
			progress = 1;
			continue;
		}
		if (errno != EISDIR && errno != EPERM)
			continue;
		int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *sd = fsdir_open_fd(sub);
		if (!sd)
			continue;   /* cannot be opened: it stays */
		while ((f = readdir(sd))) {
			if (!strcmp(f->d_name, ".") || !strcmp(f->d_name, ".."))
				continue;
			if (unlinkat(sub, f->d_name, 0) == 0 ||
			    ((errno == EISDIR || errno == EPERM) &&
			     remove_tree_hoist(sub, f->d_name, fd, seq) == 0))
				progress = 1;
		}
		closedir(sd);
		if (unlinkat(fd, e->d_name, AT_REMOVEDIR) == 0)
			progress = 1;
	}
	closedir(d);
	return progress;
}

void fsutil_remove_tree_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	unsigned seq = 0;

	if (fd < 0) {
		unlinkat(dirfd, name, 0);
		return;
	}
	while (remove_tree_pass(fd, &seq))
		;
	close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}
