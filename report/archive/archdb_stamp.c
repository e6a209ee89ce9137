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
#include <sys/sysmacros.h>
#include <unistd.h>
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "archdb_schema.h"
#include "archdb_stamp.h"
#include "resultset/setwalk.h"
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

/* ---- the stat of every file of several sets at once ---- */

/* A file a batch stats: its name at names + name, in directory fd, by
 * fstatat's flags (AT_EMPTY_PATH and "": fd itself). */
struct q_ent {
	size_t name;
	int fd;
	int flags;
	int ok;            /* 1: its stat is in st; 0: none (gone); -1: not yet */
};

struct arc_statq {
	char *names;       /* every entry's name, each NUL-ended */
	size_t nlen, nalloc;
	struct q_ent *ent;
	struct stat *st;   /* ent's stats, as fstatat gives them */
	size_t nent, entalloc;
#ifdef HAVE_LIBURING
	struct io_uring ring;
	struct statx *sx;  /* io_uring's answers, one per ent */
	bool ring_made;
	bool ring_ok;      /* it answers; else each file by fstatat */
#endif
};

/* Entries a ring takes at once: a batch of ARC_STAMP_BATCH sets of this
 * archive is some 120 files. */
#define STATQ_DEPTH 128
/* A close's user data: no entry's index */
#define STATQ_CLOSE UINT64_MAX

struct arc_statq *arc_statq_new(void)
{
	struct arc_statq *q = calloc(1, sizeof(*q));
#ifdef HAVE_LIBURING
	/* no ring (no liburing, a kernel without it, or io_uring_disabled),
	 * or no IORING_OP_STATX: the same stats by fstatat */
	if (q && io_uring_queue_init(STATQ_DEPTH, &q->ring, 0) == 0) {
		struct io_uring_probe *p = io_uring_get_probe_ring(&q->ring);
		q->ring_made = true;
		q->ring_ok = p && io_uring_opcode_supported(p, IORING_OP_STATX);
		io_uring_free_probe(p);
	}
#endif
	return q;
}

/* q's buffers freed (q itself and its ring stay) */
static void statq_release(struct arc_statq *q)
{
#ifdef HAVE_LIBURING
	free(q->sx);
#endif
	free(q->names);
	free(q->ent);
	free(q->st);
}

void arc_statq_free(struct arc_statq *q)
{
	if (!q)
		return;
#ifdef HAVE_LIBURING
	if (q->ring_made)
		io_uring_queue_exit(&q->ring);
#endif
	statq_release(q);
	free(q);
}

/* Room for one more entry; -1 on OOM. */
static int statq_grow(struct arc_statq *q, size_t namelen)
{
	if (q->nlen + namelen + 1 > q->nalloc) {
		size_t a = q->nalloc ? q->nalloc : 4096;
		while (a < q->nlen + namelen + 1)
			a *= 2;
		char *p = realloc(q->names, a);
		if (!p)
			return -1;
		q->names = p;
		q->nalloc = a;
	}
	if (q->nent < q->entalloc)
		return 0;
	size_t a = q->entalloc ? 2 * q->entalloc : 256;
	struct q_ent *e = realloc(q->ent, a * sizeof(*e));
	if (e)
		q->ent = e;
	struct stat *st = e ? realloc(q->st, a * sizeof(*st)) : NULL;
	if (st)
		q->st = st;
#ifdef HAVE_LIBURING
	struct statx *sx = st && q->ring_ok ? realloc(q->sx, a * sizeof(*sx)) : NULL;
	if (sx)
		q->sx = sx;
	if (q->ring_ok && !sx)
		return -1;
#endif
	if (!e || !st)
		return -1;
	q->entalloc = a;
	return 0;
}

/* Entry name (len bytes) of fd onto q, to be stat'ed with flags: its
 * index, or -1 on OOM. */
static long statq_add(struct arc_statq *q, int fd, const char *name, size_t len, int flags)
{
	if (statq_grow(q, len) < 0)
		return -1;
	q->ent[q->nent] = (struct q_ent){ q->nlen, fd, flags, -1 };
	memcpy(q->names + q->nlen, name, len);
	q->names[q->nlen + len] = 0;
	q->nlen += len + 1;
	return (long)q->nent++;
}

/* The files directly in fd (no directory, not through a link), in
 * readdir order, onto q's entries: a file rewritten in place under its
 * own name keeps its directory's times but not its own mtime and ctime.
 * At most *budget of them; 0, or -1.  getdents64 straight into a buffer
 * on the stack, not fdopendir: the stream's fstat, two fcntl and 32 KiB
 * allocation were 3 of the 15 system calls of each directory of a
 * history over 10,000 sets.  A read whose last entry's offset is
 * INT64_MAX reached the end: ext4 (a directory of one block or more,
 * with dir_index, its default) and btrfs end every listing at that
 * offset and give it to no entry (ext4 moves a hash off it), so the
 * empty read that says so elsewhere is not made: 20,000 of a history's
 * 40,000 getdents64 calls over 10,000 sets.  Any other offset: read on. */
static int statq_list(struct arc_statq *q, int fd, size_t *budget)
{
	_Alignas(struct dirent64) char buf[8192];
	ssize_t got;
	while ((got = getdents64(fd, buf, sizeof(buf))) > 0) {
		int64_t last = 0;
		for (ssize_t off = 0; off < got;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + off);
			const char *n = e->d_name;
			off += e->d_reclen;
			last = e->d_off;
			if (e->d_type == DT_DIR || !strcmp(n, ".") || !strcmp(n, ".."))
				continue;
			if (!(*budget)-- || statq_add(q, fd, n, strlen(n), AT_SYMLINK_NOFOLLOW) < 0)
				return -1;
		}
		if (last == INT64_MAX)
			return 0;
	}
	return got < 0 ? -1 : 0;
}

#ifdef HAVE_LIBURING
/* ent[i]'s stat from io_uring's answer res (statx's fields as fstatat
 * gives them: st_dev is glibc's makedev of the kernel's major and minor,
 * as the kernel encodes it for stat). */
static void statq_take(struct arc_statq *q, size_t i, int res)
{
	const struct statx *x = &q->sx[i];
	struct stat *st = &q->st[i];
	if (res < 0) {   /* gone meanwhile: 0; any other failure: ask again */
		q->ent[i].ok = res == -ENOENT ? 0 :
			       fstatat(q->ent[i].fd, q->names + q->ent[i].name, st,
				       q->ent[i].flags) == 0;
		return;
	}
	memset(st, 0, sizeof(*st));
	st->st_mode = x->stx_mode;
	st->st_dev = makedev(x->stx_dev_major, x->stx_dev_minor);
	st->st_ino = x->stx_ino;
	st->st_size = (off_t)x->stx_size;
	st->st_mtim = (struct timespec){ x->stx_mtime.tv_sec, x->stx_mtime.tv_nsec };
	st->st_ctim = (struct timespec){ x->stx_ctime.tv_sec, x->stx_ctime.tv_nsec };
	q->ent[i].ok = 1;
}

/* Entries [from, to) of q by the ring, up to STATQ_DEPTH a system call.
 * Every request the kernel took is waited for before this returns (it
 * writes into q->sx); one it did not take stays unanswered (ok -1), and
 * the ring is then no longer used. */
static void statq_ring(struct arc_statq *q, size_t from, size_t to)
{
	while (q->ring_ok && from < to) {
		unsigned n = 0;
		struct io_uring_sqe *e;
		for (; from + n < to && n < STATQ_DEPTH && (e = io_uring_get_sqe(&q->ring)); n++) {
			size_t i = from + n;
			io_uring_prep_statx(e, q->ent[i].fd, q->names + q->ent[i].name,
					    q->ent[i].flags, STATX_BASIC_STATS, &q->sx[i]);
			io_uring_sqe_set_data64(e, i);
		}
		io_uring_submit_and_wait(&q->ring, n);
		/* what the kernel took, whatever the calls said (a signal) */
		for (int tries = 0; io_uring_sq_ready(&q->ring) && tries < 100; tries++)
			io_uring_submit(&q->ring);
		unsigned taken = n - io_uring_sq_ready(&q->ring);
		if (taken < n)
			q->ring_ok = false;
		for (unsigned got = 0; got < taken;) {
			struct io_uring_cqe *c;
			int r = io_uring_wait_cqe(&q->ring, &c);
			if (r == -EINTR || r == -EAGAIN)
				continue;   /* the answers still come */
			if (r < 0) {        /* never seen: leave sx to the kernel */
				q->sx = NULL;
				q->ring_ok = false;
				return;
			}
			uint64_t i = io_uring_cqe_get_data64(c);
			if (i != STATQ_CLOSE) {   /* a close statq_close asked for */
				statq_take(q, (size_t)i, c->res);
				got++;
			}
			io_uring_cqe_seen(&q->ring, c);
		}
		from += n;
	}
}
#endif

/* The n descriptors fds closed (-1: none), by the ring in one system
 * call where it answers (its answers are passed over by statq_ring's
 * wait), else one close each. */
static void statq_close(struct arc_statq *q, const int *fds, size_t n)
{
	size_t i = 0;
#ifdef HAVE_LIBURING
	if (q->ring_ok) {
		unsigned m = 0;
		struct io_uring_sqe *e;
		for (size_t k = 0; k < n; k++)
			if (fds[k] >= 0 && (e = io_uring_get_sqe(&q->ring))) {
				io_uring_prep_close(e, fds[k]);
				io_uring_sqe_set_data64(e, STATQ_CLOSE);
				m++;
			}
		io_uring_submit(&q->ring);
		for (int tries = 0; io_uring_sq_ready(&q->ring) && tries < 100; tries++)
			io_uring_submit(&q->ring);
		/* the ring takes them in order: those it did not take, by hand */
		unsigned taken = m - io_uring_sq_ready(&q->ring);
		if (taken < m)
			q->ring_ok = false;
		for (; i < n && taken; i++)
			if (fds[i] >= 0)
				taken--;
		/* their answers, there already (a close is made in the call):
		 * a batch of no statx would else leave them to fill the queue */
		struct io_uring_cqe *c;
		while (io_uring_peek_cqe(&q->ring, &c) == 0)
			io_uring_cqe_seen(&q->ring, c);
	}
#endif
	for (; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Every entry of q stat'ed: io_uring's IORING_OP_STATX, a batch of sets
 * in one system call, where it can (10,000 sets, 140,000 files: 0.39 s
 * of CPU against 0.51-0.72 s by fstatat, each a system call this VM
 * makes dear), else (and any the ring did not answer) fstatat. */
static void statq_stat(struct arc_statq *q)
{
#ifdef HAVE_LIBURING
	statq_ring(q, 0, q->nent);
#endif
	for (size_t i = 0; i < q->nent; i++)
		if (q->ent[i].ok < 0)
			q->ent[i].ok = fstatat(q->ent[i].fd, q->names + q->ent[i].name, &q->st[i],
					       q->ent[i].flags) == 0;
}

/* Entries [from, to) of q into h, as files_hash did: a file gone
 * meanwhile as all zeros, a directory (found by stat) not at all. */
static void statq_hash(const struct arc_statq *q, size_t from, size_t to, struct sha256 *h)
{
	for (size_t i = from; i < to; i++) {
		const char *n = q->names + q->ent[i].name;
		if (!q->ent[i].ok)
			stat_line(h, n, strlen(n), &(struct stat){ 0 });
		else if (!S_ISDIR(q->st[i].st_mode))
			stat_line(h, n, strlen(n), &q->st[i]);
	}
}

/* One set of a batch, between its listing and its hash. */
struct q_set {
	int fd, cfd;
	long ds, dc;             /* its own entry and cells/'s, or -1 */
	size_t e0, e1, e2;       /* its files: [e0, e1) of the set, [e1, e2) of cells/ */
	int rc;
	bool cells_dir;          /* cells/ is a directory (not a link) */
};

/* Open setdir (relative to at) and its cells/, and put the two
 * directories and their files onto q.  The directories are stat'ed in
 * the same batch as their files, after the listing: an entry added or
 * removed before the stat changes the directory's times the stat sees,
 * and one the listing saw changes the files' hash, so a stamp that
 * matches the index's is of the sets as they were when it was made
 * (their 20,000 fstat calls were a fifth of the scan's system calls). */
static void set_open(struct arc_statq *q, int at, const char *setdir, struct q_set *s)
{
	*s = (struct q_set){ .fd = -1, .cfd = -1, .ds = -1, .dc = -1, .rc = -1 };
	s->e0 = s->e1 = s->e2 = q->nent;
	s->fd = openat(at, setdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->fd < 0 || (s->ds = statq_add(q, s->fd, "", 0, AT_EMPTY_PATH)) < 0)
		return;
	s->cfd = openat(s->fd, "cells", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* cells/ that cannot be opened is stamped as it stats, without files */
	s->dc = s->cfd >= 0 ? statq_add(q, s->cfd, "", 0, AT_EMPTY_PATH) :
		statq_add(q, s->fd, "cells", 5, AT_SYMLINK_NOFOLLOW);
	if (s->dc < 0)
		return;
	/* and every file of the set's directory and of cells/, each at most
	 * SUMS_MAX_FILES */
	size_t budget = SUMS_MAX_FILES;
	s->e0 = q->nent;
	s->rc = statq_list(q, s->fd, &budget);
	s->e1 = q->nent;
	budget = SUMS_MAX_FILES;
	if (s->cfd >= 0 && statq_list(q, s->cfd, &budget) < 0)
		s->rc = -1;
	s->e2 = q->nent;
}

/* Whether s is a set (resultset_is_set_modes), from what its stamp
 * stat'ed. */
static bool set_is_set(const struct arc_statq *q, const struct q_set *s)
{
	mode_t manifest = 0;
	for (size_t i = s->e0; !manifest && i < s->e1; i++)
		if (q->ent[i].ok == 1 && !strcmp(q->names + q->ent[i].name, "manifest.json"))
			manifest = q->st[i].st_mode;
	return resultset_is_set_modes(manifest, s->cells_dir ? S_IFDIR : 0);
}

int arc_dirs_stamp_many(struct arc_statq *q, int at, const char *const *setdirs, size_t n,
			char (*out)[ARC_DIRS_STAMP_MAX], bool *is_set)
{
	struct q_set s[ARC_STAMP_BATCH];
	struct arc_statq own = { 0 };
	int ret = 0;
	if (!q)
		q = &own;   /* one at a time by fstatat */
	for (size_t k = 0; k < n; k += ARC_STAMP_BATCH) {
		size_t m = n - k < ARC_STAMP_BATCH ? n - k : ARC_STAMP_BATCH;
		int fds[2 * ARC_STAMP_BATCH];
		q->nent = q->nlen = 0;
		for (size_t i = 0; i < m; i++)
			set_open(q, at, setdirs[k + i], &s[i]);
		statq_stat(q);
		for (size_t i = 0; i < m; i++) {
			struct sha256 h;
			unsigned char dg[32];
			char *o = out[k + i];
			const struct q_set *x = &s[i];
			bool cok = x->dc >= 0 && q->ent[x->dc].ok == 1;
			o[0] = 0;
			if (x->rc == 0 && q->ent[x->ds].ok == 1) {
				char line[2 * DIRS_LINE_MAX + 32];
				int len = dirs_line(&q->st[x->ds], line);
				len += dirs_line(cok ? &q->st[x->dc] : NULL, line + len);
				if (len + 33 > ARC_DIRS_STAMP_MAX) {
					ret = -1;
					goto next;
				}
				sha256_init(&h);
				statq_hash(q, x->e0, x->e1, &h);
				sha256_update(&h, "cells/", 6);
				statq_hash(q, x->e1, x->e2, &h);
				sha256_final(&h, dg);
				memcpy(o, line, (size_t)len);
				bytes_hex(o + len, dg, 16);
			} else {
				ret = -1;
			}
		next:
			s[i].cells_dir = cok && S_ISDIR(q->st[x->dc].st_mode);
			if (is_set)
				is_set[k + i] = x->fd >= 0 && set_is_set(q, &s[i]);
			fds[2 * i] = x->fd;
			fds[2 * i + 1] = x->cfd;
		}
		statq_close(q, fds, 2 * m);
	}
	if (q == &own)
		statq_release(&own);
	return ret;
}

int arc_dirs_stamp_at(int at, const char *setdir, char out[ARC_DIRS_STAMP_MAX])
{
	return arc_dirs_stamp_many(NULL, at, &setdir, 1, (char (*)[ARC_DIRS_STAMP_MAX])out, NULL);
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
