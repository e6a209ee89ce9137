/*
 * archdb_stamp.c - archdb.h's stamps: when a row of the index may stand
 * for a set (arc_stamp), and which machine and archive an index was made
 * for (archdb_made_for).
 *
 * Why the files' device, inode and ctime and not only the SHA256SUMS
 * digest: the digest says what a set should hold, not what it holds; a
 * cell changed in place after the index read it keeps the digest and
 * fails verification, and history must then say so as it does without
 * an index.  ctime cannot be set back (touch -r sets mtime only), and an
 * archive unpacked or copied from elsewhere gets new inodes and ctimes,
 * so no row of a received index is ever current here.  Hashing every
 * file would be verification itself; this walk costs a stat per entry
 * (a 10,000-set archive: archive_bench.sh's stamp row).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archdb_schema.h"
#include "archdb_stamp.h"
#include "resultset/sums.h"
#include "util/fsdir.h"
#include "util/fsutil.h"
#include "util/sha256.h"

/* Bumped whenever what a record or a row holds changes meaning: every
 * row is then read again (the record's format, archive.c, is in it). */
#define ARCHDB_STAMP_FORMAT 2

/* v as %llx prints it, at o; past its last digit.  Hand-made with
 * bytes_hex below: 18 snprintf calls a set were 2 % of a history's CPU. */
static char *hex_u64(char *o, unsigned long long v)
{
	char t[16];
	int n = 0;
	do
		t[n++] = "0123456789abcdef"[v & 15];
	while ((v >>= 4));
	while (n)
		*o++ = t[--n];
	return o;
}

/* n bytes as lower-case hex (%02x each) and a NUL, at o. */
static void bytes_hex(char *o, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		*o++ = "0123456789abcdef"[b[i] >> 4];
		*o++ = "0123456789abcdef"[b[i] & 15];
	}
	*o = 0;
}

/* One entry's line: its name and what stat says of it, as bytes (a
 * printf per entry was 6 % of history's time on 10,000 sets). */
static void stat_line(struct sha256 *h, const char *name, size_t len, const struct stat *st)
{
	uint64_t f[9] = { st->st_mode, st->st_dev, st->st_ino, (uint64_t)st->st_size,
			  (uint64_t)st->st_mtim.tv_sec, (uint64_t)st->st_mtim.tv_nsec,
			  (uint64_t)st->st_ctim.tv_sec, (uint64_t)st->st_ctim.tv_nsec, len };
	sha256_update(h, f, sizeof(f));
	sha256_update(h, name, len);
}

/* Every entry below fd, in readdir order (a directory that does not
 * change lists its entries in the same order; one that changes changes
 * its own times too), never through a link; the derived directories only
 * by report/report.html.  *budget bounds the entries (SUMS_MAX_FILES):
 * past it, -E2BIG. */
static int walk(struct sha256 *h, int fd, int depth, size_t *budget)
{
	DIR *d = fsdir_open_fd(fd);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -errno;
	while (rc == 0 && (e = readdir(d))) {
		const char *n = e->d_name;
		struct stat st;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		size_t len = strlen(n);
		if (!(*budget)--) {
			rc = -E2BIG;
		} else if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			stat_line(h, n, len, &(struct stat){ 0 });  /* gone meanwhile */
		} else if (!S_ISDIR(st.st_mode) || depth >= SUMS_MAX_DEPTH) {
			stat_line(h, n, len, &st);
		} else if (depth == 0 && (!strcmp(n, SUMS_REPORT_DIR) || !strcmp(n, SUMS_COMPARE_DIR))) {
			/* derived output: only whether the set has a report */
			struct stat rs;
			if (!strcmp(n, SUMS_REPORT_DIR) &&
			    fstatat(dirfd(d), SUMS_REPORT_DIR "/report.html", &rs,
				    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(rs.st_mode))
				sha256_update(h, "report.html\n", 12);
		} else {
			stat_line(h, n, len, &st);
			int sfd = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = sfd < 0 ? -errno : walk(h, sfd, depth + 1, budget);
			sha256_update(h, "..", 2);   /* back up: the tree's shape counts */
		}
	}
	closedir(d);
	return rc;
}

int arc_stamp(const char *setdir, char digest[65], char stamp[65])
{
	struct sha256 h;
	struct stat st;
	unsigned char out[32];
	size_t len, budget = SUMS_MAX_FILES;
	int fd = open(setdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	digest[0] = stamp[0] = 0;
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	char *sums = fsutil_read_at(fd, SUMS_FILE, SUMS_MAX_LIST_BYTES, 0, &len);
	if (sums)
		sha256_hex(sums, len, digest);
	free(sums);
	sha256_init(&h);
	char head[96];
	int n = snprintf(head, sizeof(head), "iomatrix-archdb-stamp %d %d\n%s\n",
			 ARCHDB_STAMP_FORMAT, ARCHDB_SCHEMA_VERSION, digest);
	sha256_update(&h, head, (size_t)n);
	stat_line(&h, ".", 1, &st);
	int rc = walk(&h, fd, 0, &budget);   /* takes fd */
	sha256_final(&h, out);
	bytes_hex(stamp, out, 32);
	return rc < 0 ? -1 : 0;
}

/* One directory's line of arc_dirs_stamp from its stat ("-" when it is
 * none: NULL, or no directory): device, inode, size, mtime and ctime as
 * "%llx:%llx:%llx:%llx.%lx:%llx.%lx;", at out (DIRS_LINE_MAX bytes);
 * its length. */
#define DIRS_LINE_MAX (7 * 16 + 7 + 1)
static int dirs_line(const struct stat *st, char *out)
{
	if (!st || !S_ISDIR(st->st_mode))
		return (int)(stpcpy(out, "-;") - out);
	const unsigned long long f[7] = {
		(unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		(unsigned long long)st->st_size, (unsigned long long)st->st_mtim.tv_sec,
		(unsigned long)st->st_mtim.tv_nsec, (unsigned long long)st->st_ctim.tv_sec,
		(unsigned long)st->st_ctim.tv_nsec };
	static const char sep[7] = { ':', ':', ':', '.', ':', '.', ';' };
	char *o = out;
	for (int i = 0; i < 7; i++) {
		o = hex_u64(o, f[i]);
		*o++ = sep[i];
	}
	*o = 0;
	return (int)(o - out);
}

/* The files directly in fd (no directory, not through a link), in
 * readdir order, into h: a file rewritten in place under its own name
 * keeps its directory's times but not its own mtime and ctime.  At most
 * SUMS_MAX_FILES of them; 0, or -1 (fd closed either way).  getdents64
 * straight into a buffer on the stack, not fdopendir: the stream's fstat,
 * two fcntl and 32 KiB allocation were 3 of the 15 system calls of each
 * directory of a history over 10,000 sets. */
static int files_hash(struct sha256 *h, int fd)
{
	_Alignas(struct dirent64) char buf[8192];
	size_t budget = SUMS_MAX_FILES;
	ssize_t got;
	int rc = 0;
	while (rc == 0 && (got = getdents64(fd, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; rc == 0 && off < got;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + off);
			const char *n = e->d_name;
			struct stat st;
			off += e->d_reclen;
			if (e->d_type == DT_DIR || !strcmp(n, ".") || !strcmp(n, ".."))
				continue;
			if (!budget--)
				rc = -1;
			else if (fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW) < 0)
				stat_line(h, n, strlen(n), &(struct stat){ 0 });
			else if (!S_ISDIR(st.st_mode))
				stat_line(h, n, strlen(n), &st);
		}
	if (got < 0)
		rc = -1;
	close(fd);
	return rc;
}

int arc_dirs_stamp_at(int at, const char *setdir, char out[ARC_DIRS_STAMP_MAX])
{
	struct stat st, cs;
	out[0] = 0;
	/* the directories first (a change while the files are stamped
	 * changes them), each stat'ed through the descriptor its files are
	 * listed by: no path is looked up twice */
	int fd = openat(at, setdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	char line[2 * DIRS_LINE_MAX + 32];
	int n = dirs_line(&st, line);
	int cfd = openat(fd, "cells", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* cells/ that cannot be opened is stamped as it stats, without files */
	bool cok = cfd >= 0 ? fstat(cfd, &cs) == 0 : fstatat(fd, "cells", &cs, AT_SYMLINK_NOFOLLOW) == 0;
	int m = dirs_line(cok ? &cs : NULL, line + n);
	/* and every file of the set's directory and of cells/ */
	struct sha256 h;
	unsigned char dg[32];
	sha256_init(&h);
	int rc = files_hash(&h, fd);                          /* takes fd */
	sha256_update(&h, "cells/", 6);
	if (cfd >= 0 && files_hash(&h, cfd) < 0)               /* takes cfd */
		rc = -1;
	sha256_final(&h, dg);
	if (rc < 0 || n + m + 33 > ARC_DIRS_STAMP_MAX)
		return -1;
	bytes_hex(line + n + m, dg, 16);
	memcpy(out, line, (size_t)(n + m + 33));
	return 0;
}

int arc_dirs_stamp(const char *setdir, char out[ARC_DIRS_STAMP_MAX])
{
	return arc_dirs_stamp_at(AT_FDCWD, setdir, out);
}

int archdb_made_for(const char *archive, char hex[65])
{
	static const char *const ids[] = { "/etc/machine-id", "/proc/sys/kernel/random/boot_id" };
	char real[PATH_MAX];
	struct stat st;
	struct sha256 h;
	unsigned char out[32];

	hex[0] = 0;
	if (!realpath(archive, real) || stat(real, &st) < 0)
		return -1;
	sha256_init(&h);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		size_t len;
		char *id = fsutil_read_at(AT_FDCWD, ids[i], 4096, FSUTIL_FOLLOW, &len);
		if (id && len) {
			sha256_update(&h, id, len);
			free(id);
			break;
		}
		free(id);
	}
	char line[PATH_MAX + 64];
	int n = snprintf(line, sizeof(line), "\n%llu:%llu:%s", (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino, real);
	sha256_update(&h, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	sha256_final(&h, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
	return 0;
}
