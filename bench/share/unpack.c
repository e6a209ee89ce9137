/*
 * unpack.c - `iomatrix unpack`: a pack (pack.h) from someone else is
 * hostile until proven otherwise.  Every member is checked before anything
 * of it is written, the set is written below a temporary name, its
 * checksums verified, and only then renamed into place.
 */
#include "pack.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resultset/setout.h"
#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/testhook.h"
#include "packname.h"
#include "resultset/sums.h"
#include "resultset/tmpdir.h"

struct unpack {
	const char *what;       /* the pack's name, for messages */
	int destfd, tmpfd;
	char tmpname[64];       /* below destfd */
	char setname[256];
	size_t members;
	unsigned long long total;
	bool dry;               /* first pass: check every header, write nothing */
	/* the pack, read twice: a file (fd) or memory */
	int fd;
	const void *data;
	size_t len;
	/* the decompressed tar stream (stream_read below): every byte that
	 * libarchive decompresses passes through stream_read and is counted
	 * against what the headers seen so far allow */
	struct archive *outer;
	unsigned long long stream, allowed;
	bool over;
	char buf[65536];
	const volatile sig_atomic_t *stop; /* set by a signal: give up */
	char *err;
	size_t errlen;
};

/* A member refused: the message names the member (made inert for a
 * terminal: it comes from the pack) and the rule. */
static int bad(struct unpack *u, const char *member, const char *why)
{
	char m[256];

	snprintf(u->err, u->errlen, "%s: member '%s': %s; a pack holds one set "
		 "directory of plain files (iomatrix pack)", u->what,
		 termesc(member ? member : "?", m, sizeof(m)), why);
	return -EINVAL;
}

static bool stopped(const struct unpack *u)
{
	return u->stop && *u->stop;
}

static int interrupted(struct unpack *u)
{
	snprintf(u->err, u->errlen, "%s: interrupted; nothing was unpacked", u->what);
	return -EINTR;
}

static int read_failed(struct unpack *u, struct archive *a, const char *member);

/* Check a member's path; *rest gets the part below the set directory
 * ("" for the directory itself). */
static int check_path(struct unpack *u, const char *path, bool isdir,
		      const char **rest)
{
	size_t len = strlen(path);

	if (len == 0 || len > PACK_MAX_PATH)
		return bad(u, path, len ? "path too long" : "empty path");
	if (path[0] == '/')
		return bad(u, path, "absolute path");
	if (isdir && path[len - 1] == '/')
		len--;
	size_t first = 0, depth = 0;
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && path[i + n] != '/')
			n++;
		if ((n == 2 && !strncmp(path + i, "..", 2)))
			return bad(u, path, "'..' in the path");
		/* a temp name is outside every checksum list: nothing unverified */
		if (n >= sizeof(FSUTIL_TMP_PREFIX) - 1 &&
		    !strncmp(path + i, FSUTIL_TMP_PREFIX, sizeof(FSUTIL_TMP_PREFIX) - 1))
			return bad(u, path, "an iomatrix temporary name");
		if (!packname_component_ok(path + i, n))
			return bad(u, path, "a path component outside [A-Za-z0-9._+-] "
				   "(or empty, or '.')");
		if (i == 0)
			first = n;
		if (i == 0 && !packname_set_ok(path, n))
			return bad(u, path, "the set's directory must be a set's name (not "
				   "beginning with '.')");
		if (++depth > PACK_MAX_DEPTH)
			return bad(u, path, "deeper than a set can be");
		i += n + 1;
	}
	if (!u->setname[0]) {
		memcpy(u->setname, path, first);
		u->setname[first] = '\0';
		if (u->destfd >= 0 &&
		    faccessat(u->destfd, u->setname, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
			snprintf(u->err, u->errlen, "%s: a set named '%s' exists already; "
				 "remove it or unpack with -o DIR elsewhere", u->what,
				 u->setname);   /* a pack name: [A-Za-z0-9._+-] */
			return -EEXIST;
		}
	} else if (strlen(u->setname) != first || strncmp(path, u->setname, first)) {
		return bad(u, path, "outside the set's directory (a pack holds one set)");
	}
	*rest = path[first] ? path + first + 1 : "";
	return 0;
}


/* Copy the member's data into rest (below tmpfd), at most size bytes. */
static int extract_file(struct unpack *u, struct archive *a, const char *path,
			const char *rest, long long size)
{
	const char *slash = strrchr(rest, '/');
	int dfd = u->tmpfd, fd, r = 0;
	char buf[65536];
	long long got = 0;

	if (slash) {
		char dir[PACK_MAX_PATH + 1];
		memcpy(dir, rest, (size_t)(slash - rest));
		dir[slash - rest] = '\0';
		if ((dfd = fsutil_open_dir_at(u->tmpfd, dir, true, NULL)) < 0)
			return dfd == -ENOTDIR || dfd == -ELOOP || dfd == -EEXIST ?
				bad(u, path, "its directory is a file") : dfd;
	}
	fd = openat(dfd, slash ? slash + 1 : rest,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = errno == EEXIST || errno == EISDIR ? bad(u, path, "listed twice") : -errno;
		goto out;
	}
	for (;;) {
		la_ssize_t n = archive_read_data(a, buf, sizeof(buf));
		if (n == 0)
			break;
		if (n < 0) {
			r = read_failed(u, a, path);
			break;
		}
		got += n;
		if (got > size || got > (long long)PACK_MAX_FILE_BYTES) {
			r = bad(u, path, "more data than its header declares");
			break;
		}
		if ((r = fsutil_write_all(fd, buf, (size_t)n)) < 0)
			break;
	}
	close(fd);
	if (r == 0)
		testhook_point("unpack_file");
	if (r == 0 && stopped(u))
		r = interrupted(u);
out:
	if (dfd != u->tmpfd)
		close(dfd);
	return r;
}

static int one_member(struct unpack *u, struct archive *a, struct archive_entry *e)
{
	const char *path = archive_entry_pathname(e), *rest;
	mode_t type = archive_entry_filetype(e);
	char why[128];
	int r;

	if (++u->members > PACK_MAX_MEMBERS) {
		snprintf(why, sizeof(why), "more than %d members (the cap)", PACK_MAX_MEMBERS);
		return bad(u, path, why);
	}
	if (!path)
		return bad(u, path, "no path");
	if (archive_entry_hardlink(e))
		return bad(u, path, "a hard link");
	if (type == AE_IFLNK || archive_entry_symlink(e))
		return bad(u, path, "a symbolic link");
	if (type == AE_IFCHR || type == AE_IFBLK)
		return bad(u, path, "a device node");
	if (type == AE_IFIFO)
		return bad(u, path, "a FIFO");
	if (type != AE_IFREG && type != AE_IFDIR)
		return bad(u, path, "not a regular file or directory");
	/* what libarchive maps to a file or a directory but carries more
	 * than one: GNU's dumpdir ('D', a directory with data) and sparse
	 * files, refused before any of their data is read */
	if (type == AE_IFDIR && archive_entry_size_is_set(e) && archive_entry_size(e) != 0)
		return bad(u, path, "a directory that carries data (GNU dumpdir)");
	if (archive_entry_sparse_count(e) > 0)
		return bad(u, path, "a sparse file");
	if ((r = check_path(u, path, type == AE_IFDIR, &rest)) < 0)
		return r;
	u->allowed += PACK_HEADER_ALLOWANCE;
	if (u->dry)
		testhook_point("unpack_check");
	if (type == AE_IFDIR) {
		if (!*rest || u->dry)
			return 0;
		char dir[PACK_MAX_PATH + 1];
		snprintf(dir, sizeof(dir), "%s", rest);
		size_t n = strlen(dir);
		if (n && dir[n - 1] == '/')
			dir[n - 1] = '\0';
		int fd = fsutil_open_dir_at(u->tmpfd, dir, true, NULL);
		if (fd < 0)
			return fd == -ENOTDIR || fd == -ELOOP ? bad(u, path, "a file of that name came first") : fd;
		close(fd);
		return 0;
	}
	if (!*rest)
		return bad(u, path, "the set's directory is a file");
	long long size = archive_entry_size_is_set(e) ? (long long)archive_entry_size(e) : -1;
	if (size < 0)
		return bad(u, path, "no size");
	if ((unsigned long long)size > PACK_MAX_FILE_BYTES) {
		snprintf(why, sizeof(why), "declares %lld bytes, over the %llu-byte cap of a file",
			 size, (unsigned long long)PACK_MAX_FILE_BYTES);
		return bad(u, path, why);
	}
	u->total += (unsigned long long)size;
	u->allowed += ((unsigned long long)size + 511) / 512 * 512;
	if (u->total > PACK_MAX_TOTAL_BYTES) {
		snprintf(why, sizeof(why), "the files exceed the %llu-byte cap of a pack",
			 (unsigned long long)PACK_MAX_TOTAL_BYTES);
		return bad(u, path, why);
	}
	return u->dry ? 0 : extract_file(u, a, path, rest, size);
}

/* After the last member: a set whose checksums hold, renamed into place. */
static int unpack_finish(struct unpack *u, bool *warn)
{
	struct sums_check c;
	struct stat st;
	int r;

	if (!u->setname[0]) {
		snprintf(u->err, u->errlen, "%s: empty pack; nothing to unpack", u->what);
		return -EINVAL;
	}
	if (fstatat(u->tmpfd, "manifest.json", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode)) {
		snprintf(u->err, u->errlen, "%s: '%s' is not a result set (no manifest.json)",
			 u->what, u->setname);
		return -EINVAL;
	}
	if ((r = sums_verify_stop_at(u->tmpfd, SUMS_SET, u->stop, &c)) < 0) {
		if (r == -EINTR)
			return interrupted(u);
		snprintf(u->err, u->errlen, "%s: cannot verify: %s", u->what, strerror(-r));
		return r;
	}
	if (sums_check_failed(&c)) {
		int k = snprintf(u->err, u->errlen, "%s: set '%s' fails its checksums:",
				 u->what, u->setname);
		const char *p;
		for (size_t i = 0; (p = sums_check_problem(&c, i)) && k > 0 &&
		     (size_t)k < u->errlen; i++) {
			char pe[256];
			k += snprintf(u->err + k, u->errlen - (size_t)k, "%s %s",
				      i ? "," : "", termesc(p, pe, sizeof(pe)));
		}
		sums_check_release(&c);
		return -EINVAL;
	}
	*warn = c.state == SUMS_NONE;
	sums_check_release(&c);
	if (stopped(u))   /* the last moment a signal still undoes it all */
		return interrupted(u);
	if ((r = fsutil_syncfs(u->tmpfd)) < 0) {
		snprintf(u->err, u->errlen, "cannot sync the unpacked set: %s", strerror(-r));
		return r;
	}
	if (renameat2(u->destfd, u->tmpname, u->destfd, u->setname, RENAME_NOREPLACE) < 0) {
		r = -errno;
		if (r == -EEXIST)
			snprintf(u->err, u->errlen, "%s: a set named '%s' exists already; "
				 "remove it or unpack with -o DIR elsewhere", u->what,
				 u->setname);
		else
			snprintf(u->err, u->errlen, "cannot rename the unpacked set to '%s': %s",
				 u->setname, strerror(-r));
		return r;
	}
	fsutil_fsync_dir_at(u->destfd, ".");
	return 0;
}

/* ---- the decompressed stream ----
 * Two readers: the outer one only decompresses (format "raw"), the inner
 * one reads tar from the outer one's output through stream_read.  So every
 * byte that is decompressed, the data libarchive skips or consumes itself
 * (pax headers, a skipped member) as much as what is written, is counted
 * here, and the reading stops as soon as the stream holds more than the
 * headers seen so far declare (PACK_HEADER_ALLOWANCE each, their files'
 * sizes, PACK_STREAM_SLACK) or a signal came. */

static la_ssize_t stream_read(struct archive *inner, void *arg, const void **buf)
{
	struct unpack *u = arg;

	if (stopped(u)) {
		archive_set_error(inner, EINTR, "interrupted");
		return -1;
	}
	la_ssize_t n = archive_read_data(u->outer, u->buf, sizeof(u->buf));
	if (n < 0) {
		archive_set_error(inner, EIO, "%s",
				  archive_error_string(u->outer) ?
				  archive_error_string(u->outer) : "corrupt compressed data");
		return -1;
	}
	u->stream += (unsigned long long)n;
	if (u->stream > u->allowed + PACK_STREAM_SLACK) {
		u->over = true;
		archive_set_error(inner, EFBIG, "more data than its headers declare");
		return -1;
	}
	*buf = u->buf;
	return n;
}

/* Why reading failed, in u->err: a signal, the stream's bound, or the
 * pack's own error (member names the member being read, or NULL). */
static int read_failed(struct unpack *u, struct archive *a, const char *member)
{
	char why[256];

	if (stopped(u))
		return interrupted(u);
	if (u->over) {
		snprintf(u->err, u->errlen, "%s: more data than its headers declare (%llu "
			 "bytes decompressed, %llu declared); refused before the %llu-byte "
			 "cap of a pack", u->what, u->stream, u->allowed,
			 (unsigned long long)PACK_MAX_TOTAL_BYTES);
		return -EINVAL;
	}
	termesc(archive_error_string(a) ? archive_error_string(a) : "corrupt", why,
		sizeof(why));
	if (member)
		return bad(u, member, why);
	snprintf(u->err, u->errlen, "%s: not a readable pack: %s", u->what, why);
	return -EINVAL;
}

static void reader_close(struct unpack *u, struct archive *inner)
{
	if (inner)
		archive_read_free(inner);
	if (u->outer)
		archive_read_free(u->outer);
	u->outer = NULL;
}

/* The inner (tar) reader over the pack from its start, or NULL with the
 * message in u->err. */
static struct archive *reader_open(struct unpack *u)
{
	struct archive *inner = archive_read_new();
	struct archive_entry *e;
	int r;

	u->stream = 0;
	u->allowed = 0;
	u->over = false;
	u->outer = archive_read_new();
	if (!u->outer || !inner) {
		snprintf(u->err, u->errlen, "out of memory");
		reader_close(u, inner);
		return NULL;
	}
	archive_read_support_filter_gzip(u->outer);
	archive_read_support_filter_zstd(u->outer);
	archive_read_support_filter_none(u->outer);
	archive_read_support_format_raw(u->outer);
	if (u->data)
		r = archive_read_open_memory(u->outer, u->data, u->len);
	else
		r = lseek(u->fd, 0, SEEK_SET) == 0 ?
			archive_read_open_fd(u->outer, u->fd, 65536) : ARCHIVE_FATAL;
	if (r == ARCHIVE_OK)
		r = archive_read_next_header(u->outer, &e);
	if (r == ARCHIVE_OK) {
		archive_read_support_format_tar(inner);
		r = archive_read_open(inner, u, NULL, stream_read, NULL);
	}
	if (r != ARCHIVE_OK) {
		read_failed(u, u->outer, NULL);
		reader_close(u, inner);
		return NULL;
	}
	return inner;
}

/* One pass over every member; dry: check only. */
static int unpack_pass(struct unpack *u, bool dry)
{
	struct archive *a = reader_open(u);
	struct archive_entry *e;
	int r = 0, h;

	if (!a)
		return stopped(u) ? -EINTR : -EINVAL;
	u->dry = dry;
	u->members = 0;
	u->total = 0;
	while (r == 0 && (h = archive_read_next_header(a, &e)) != ARCHIVE_EOF) {
		if (h != ARCHIVE_OK && h != ARCHIVE_WARN) {
			r = read_failed(u, a, NULL);
			break;
		}
		r = one_member(u, a, e);
	}
	reader_close(u, a);
	return r;
}

/* Make the temporary set directory below destfd, after removing the stale
 * ones of earlier unpacks. */
static int make_tmp(struct unpack *u, const char *dest_root)
{
	resultset_tmp_sweep(u->destfd);
	for (int tries = 0; tries < 100; tries++) {
		snprintf(u->tmpname, sizeof(u->tmpname), "%s%d.%d", RESULTSET_TMP_UNPACK,
			 (int)getpid(), tries);
		if (mkdirat(u->destfd, u->tmpname, 0755) == 0 || errno != EEXIST)
			break;
	}
	u->tmpfd = openat(u->destfd, u->tmpname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (u->tmpfd >= 0)
		resultset_tmp_hold(u->tmpfd); /* ours while tmpfd is open */
	if (u->tmpfd < 0) {
		int r = -errno;
		snprintf(u->err, u->errlen, "cannot make a directory in '%s': %s", dest_root,
			 strerror(-r));
		return r;
	}
	return 0;
}

/* Make dest_root when missing; *made gets how much of it existed
 * (fsutil_mkdir_p_made) so that a refusal removes what this run made. */
static int open_dest(struct unpack *u, const char *dest_root, size_t *made)
{
	int r;

	*made = 0;
	if ((u->destfd = open(dest_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
		return 0;
	if ((r = fsutil_mkdir_p_made(dest_root, made)) == 0 &&
	    (u->destfd = open(dest_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		r = -errno;
	if (r < 0)
		snprintf(u->err, u->errlen, "cannot use '%s': %s", dest_root, strerror(-r));
	return r;
}

/* Check every header first, so that a hostile pack costs no write at all
 * (not even DIR), then extract below a temporary name, then finish.  On
 * any failure (a signal included) the temporary tree goes, and so does
 * every directory of dest_root that this call made. */
static int unpack_run(struct unpack *u, const char *dest_root, char *set_dir,
		      size_t set_dir_len, bool *warn)
{
	size_t made = 0;
	int r;

	u->tmpfd = -1;
	/* the new set goes below dest_root: never inside a set (setout.h) */
	if ((r = resultset_output_check(dest_root, NULL, u->err, u->errlen)) < 0)
		return r;
	u->destfd = open(dest_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if ((r = unpack_pass(u, true)) < 0)
		goto out;
	if (u->destfd < 0 && (r = open_dest(u, dest_root, &made)) < 0)
		goto out;
	if ((r = make_tmp(u, dest_root)) < 0)
		goto out;
	r = unpack_pass(u, false);
	if (r == 0 && stopped(u))
		r = interrupted(u);
	if (r == 0)
		r = unpack_finish(u, warn);
	close(u->tmpfd);
	if (r < 0)
		fsutil_remove_tree_at(u->destfd, u->tmpname);
	else
		snprintf(set_dir, set_dir_len, "%s/%s", dest_root, u->setname);
out:
	if (u->destfd >= 0)
		close(u->destfd);
	if (r < 0 && made)
		fsutil_rmdir_made(dest_root, made);
	return r;
}

int resultset_unpack(const char *file, const char *dest_root, char *set_dir,
		     size_t set_dir_len, bool *warn, const volatile sig_atomic_t *stop,
		     char *err, size_t errlen)
{
	struct unpack u = { .what = file, .err = err, .errlen = errlen, .stop = stop };
	struct stat st;
	int r;

	*warn = false;
	/* open it ourselves: never a FIFO or a device that blocks */
	u.fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (u.fd < 0 || fstat(u.fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot read '%s': %s", file,
			 u.fd < 0 ? strerror(errno) : "not a regular file");
		if (u.fd >= 0)
			close(u.fd);
		return -EINVAL;
	}
	r = unpack_run(&u, dest_root, set_dir, set_dir_len, warn);
	close(u.fd);
	return r;
}

int resultset_unpack_mem(const void *data, size_t len, const char *dest_root,
			 char *set_dir, size_t set_dir_len, bool *warn,
			 char *err, size_t errlen)
{
	struct unpack u = { .what = "(memory)", .err = err, .errlen = errlen,
			    .fd = -1, .data = data ? data : "", .len = len };

	*warn = false;
	return unpack_run(&u, dest_root, set_dir, set_dir_len, warn);
}
