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
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		r[0] = ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^
		       (uint64_t)__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) *
			       0x9e3779b97f4a7c15ull;
		r[1] = (uint64_t)ts.tv_sec * 0xbf58476d1ce4e5b9ull ^ r[0];
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

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fsutil_write_atomic_at(int dirfd, const char *name, const void *data,
			   size_t len)
{
	return fsutil_write_replace_at(dirfd, name, data, len, true);
}

int fsutil_write_replace_at(int dirfd, const char *name, const void *data,
			    size_t len, bool durable)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 32], sfx[13];
	const char *slash = strrchr(name, '/');
	int fd = -1, ret;

	/* the temp file lives in the target's own directory: rename is
	 * atomic only within one filesystem */
	if (slash) {
		if (fsutil_parent(name, dir, sizeof(dir)) < 0)
			return -ENAMETOOLONG;
	} else {
		snprintf(dir, sizeof(dir), ".");
	}
	for (int tries = 0; tries < 100; tries++) {
		temp_suffix(sfx);
		if (snprintf(tmp, sizeof(tmp), "%s/%s%s", dir, FSUTIL_TMP_PREFIX,
			     sfx) >= (int)sizeof(tmp))
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return -errno;
	/* 0644 whatever the umask: result files are meant to be shared */
	if (fchmod(fd, 0644) < 0) {
		ret = -errno;
		goto err;
	}
	if ((ret = write_all(fd, data, len)) < 0)
		goto err;
	if (durable && fsync(fd) < 0) {
		ret = -errno;
		goto err;
	}
	ret = close(fd);
	fd = -1;
	if (ret < 0 || renameat(dirfd, tmp, dirfd, name) < 0) {
		ret = -errno;
		goto err;
	}
	return durable ? fsutil_fsync_dir_at(dirfd, dir) : 0;
err:
	if (fd >= 0)
		close(fd);
	unlinkat(dirfd, tmp, 0);
	return ret;
}

int fsutil_write_atomic(const char *path, const void *data, size_t len)
{
	return fsutil_write_atomic_at(AT_FDCWD, path, data, len);
}

int fsutil_write_new_at(int dirfd, const char *name, const void *data,
			size_t len)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0644), ret;

	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0644) < 0)
		ret = -errno;
	else
		ret = write_all(fd, data, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (ret < 0)
		unlinkat(dirfd, name, 0);
	return ret;
}

int fsutil_mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n == 0)
		return 0;
	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0) {
		struct stat st;
		if (errno != EEXIST)
			return -errno;
		if (stat(buf, &st) < 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	return 0;
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
