/*
 * runner.c - runner.h: resolve a cell's path into a file set and lay it out
 * (never sparse, incompressible, reused when the size matches), then run one
 * repetition: start the job threads behind a start gate, watch time, stop
 * requests and progress from this thread, and merge the per-job numbers.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "common/fsutil.h"
#include "engines/engine.h"
#include "common/prng.h"
#include "host/safety.h"
#include "host/scratch.h"
#include "placement.h"
#include "worker.h"

#define LAYOUT_CHUNK (1u << 20)
#define PROGRESS_NS 250000000ull
#define STOP_POLL_NS 100000000ull
#define WORKER_STACK (256u * 1024)

static void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static bool stop_requested(const struct run_ctl *ctl)
{
	return ctl && ctl->stop && *ctl->stop;
}

static int direct_msg(const char *path, char *err, size_t errlen)
{
	seterr(err, errlen, "O_DIRECT is not supported by the filesystem of '%s'; "
	       "set direct: false or use another path", path);
	return -EINVAL;
}

int runner_check_direct(const char *path, char *err, size_t errlen)
{
	char probe[PATH_MAX + 64], dir[PATH_MAX];
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		return 0;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		/* O_NONBLOCK: a FIFO swapped in since stat() must not hang us */
		fd = open(path, O_RDONLY | O_DIRECT | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return errno == EINVAL ? direct_msg(path, err, errlen) : 0;
		close(fd);
		return 0;
	}
	if (stat(path, &st) == 0)
		snprintf(dir, sizeof(dir), "%s", path);
	else /* a file to be made: its directory */
		fsutil_parent(path, dir, sizeof(dir));
	snprintf(probe, sizeof(probe), "%s/.iomatrix-probe.%ld", dir, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EINVAL ? direct_msg(path, err, errlen) : 0;
	close(fd);
	unlink(probe);
	return 0;
}

/* bs must be a multiple of the logical block size for O_DIRECT: say so
 * before any IO (layout included). */
static int check_bs(const struct cell *c, unsigned lbs, char *err, size_t errlen)
{
	if (!c->direct || !lbs || c->bs % lbs == 0)
		return 0;
	seterr(err, errlen, "bs %" PRIu64 " is %s the logical block size of '%s' "
	       "(%u bytes); use a multiple of %u or direct: false", c->bs,
	       c->bs < lbs ? "below" : "not a multiple of", c->path, lbs, lbs);
	return -EINVAL;
}

/* ---- target resolution ---- */

static void own_files_remove(struct target *t);
static bool same_file(const char *path, const struct target_id *id);

void target_release(struct target *t)
{
	if (!t)
		return;
	for (unsigned i = 0; t->paths && i < t->nfiles; i++)
		free(t->paths[i]);
	free(t->paths);
	free(t->ids);
	memset(t, 0, sizeof(*t));
}

void runner_cleanup(struct target *t, bool keep_files)
{
	if (!t || !t->created || keep_files || t->is_blockdev || t->foreign)
		return;
	own_files_remove(t);
	t->created = false;
}

/* O_DIRECT alignment of the filesystem holding st_dev: statx when the kernel
 * reports it, else the logical block size of the backing block device. */
static unsigned logical_block_of(const char *path, const struct stat *st)
{
#ifdef STATX_DIOALIGN
	struct statx sx;
	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &sx) == 0 &&
	    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align)
		return sx.stx_dio_offset_align;
#else
	(void)path;
#endif
	char p[128];
	unsigned maj = major(st->st_dev), min = minor(st->st_dev);
	if (maj == 0)
		return 0;
	const char *fmts[] = { "/sys/dev/block/%u:%u/queue/logical_block_size",
			       "/sys/dev/block/%u:%u/../queue/logical_block_size" };
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), fmts[i], maj, min);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		unsigned v = 0;
		int ok = fscanf(f, "%u", &v);
		fclose(f);
		if (ok == 1 && v)
			return v;
	}
	return 0;
}

static uint64_t pct_of(uint64_t total, double pct, uint64_t align)
{
	uint64_t v = (uint64_t)((double)total * pct / 100.0);
	if (align)
		v -= v % align;
	return v;
}

static int resolve_blockdev(const struct cell *c, struct target *t, char *err, size_t errlen)
{
	int fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		seterr(err, errlen, "cannot open '%s': %s", c->path, strerror(e));
		return -e;
	}
	uint64_t devsize = 0;
	int lbs = 0;
	if (ioctl(fd, BLKGETSIZE64, &devsize) < 0) {
		int e = errno;
		close(fd);
		seterr(err, errlen, "cannot read the size of '%s': %s", c->path, strerror(e));
		return -e;
	}
	if (ioctl(fd, BLKSSZGET, &lbs) < 0)
		lbs = 512;
	close(fd);
	t->is_blockdev = true;
	t->logical_block = (unsigned)lbs;
	t->offset = c->offset_pct > 0 ? pct_of(devsize, c->offset_pct, c->bs) : c->offset;
	uint64_t size = c->size_pct > 0 ? pct_of(devsize, c->size_pct, c->bs) : c->size;
	if (t->offset >= devsize) {
		seterr(err, errlen, "offset %" PRIu64 " is past the end of '%s' "
		       "(%" PRIu64 " bytes); lower offset", t->offset, c->path, devsize);
		return -EINVAL;
	}
	if (size == 0 || size > devsize - t->offset)
		size = devsize - t->offset;
	t->file_size = size;
	if (pattern_writes(c->pattern) && !c->destructive) {
		seterr(err, errlen, "cannot write to block device '%s' without 'destructive: "
		       "true' on the device and --yes-destroy-data", c->path);
		return -EPERM;
	}
	return 0;
}

/* Layout plan of one file. */
struct lay {
	uint64_t from, to; /* bytes to write */
	bool existed;      /* was there before this prepare */
	bool made;         /* created by this prepare (O_EXCL) */
	int fd;            /* open O_RDWR on the verified file, -1 none */
};

static void lays_close(struct lay *lays, unsigned n)
{
	for (unsigned i = 0; lays && i < n; i++)
		if (lays[i].fd >= 0) {
			close(lays[i].fd);
			lays[i].fd = -1;
		}
}

/* Does `path` still name the file recorded as id?  Not followed. */
static bool same_file(const char *path, const struct target_id *id)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       st.st_dev == id->dev && st.st_ino == id->ino;
}

static int layout_write(const struct cell *c, const char *path, unsigned idx,
			const struct lay *l, bool can_direct, struct run_ctl *ctl,
			uint64_t *done, uint64_t total, uint64_t *next_prog,
			char *err, size_t errlen)
{
	int fd = l->fd, dfd = -1, ret = 0;
	void *buf = NULL;
	struct prng rng;
	struct stat st;
	prng_seed(&rng, c->seed ^ 0x6c61796f7574ull ^ ((uint64_t)idx << 40));
	/* direct writes keep the page cache clean for the reads that follow;
	 * the second descriptor must reach the very same file */
	if (can_direct) {
		struct stat ds;
		dfd = open(path, O_WRONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
		if (dfd >= 0 && (fstat(dfd, &ds) < 0 || fstat(fd, &st) < 0 ||
				 ds.st_dev != st.st_dev || ds.st_ino != st.st_ino)) {
			close(dfd);
			dfd = -1;
		}
	}
	/* the file is ours (made now, or marked by an earlier layout): it may
	 * be cut; the marker says "layout" until the data is complete */
	if (l->from == 0 && l->existed && ftruncate(fd, 0) < 0) {
		ret = -errno;
		seterr(err, errlen, "cannot truncate '%s': %s", path, strerror(-ret));
		goto err;
	}
	if ((ret = scratch_mark_write(fd, l->to, SCRATCH_LAYOUT)) < 0) {
		seterr(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
		goto err;
	}
	if (posix_memalign(&buf, 4096, LAYOUT_CHUNK)) {
		ret = -ENOMEM;
		seterr(err, errlen, "out of memory");
		goto err;
	}
	uint64_t off = l->from;
	while (off < l->to) {
		if (stop_requested(ctl)) {
			ret = -EINTR;
			seterr(err, errlen, "interrupted while laying out '%s'", path);
			goto err;
		}
		uint64_t n = l->to - off < LAYOUT_CHUNK ? l->to - off : LAYOUT_CHUNK;
		prng_fill(&rng, buf, n);
		int wfd = (dfd >= 0 && n % 4096 == 0 && off % 4096 == 0) ? dfd : fd;
		ssize_t w = pwrite(wfd, buf, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && wfd == dfd && errno == EINVAL) {
			close(dfd); /* odd alignment rule: finish buffered */
			dfd = -1;
			continue;
		}
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			seterr(err, errlen, "cannot lay out '%s' at offset %" PRIu64 ": %s",
			       path, off, strerror(-ret));
			goto err;
		}
		off += (uint64_t)w;
		*done += (uint64_t)w;
		if (ctl && ctl->progress) {
			uint64_t now = worker_now_ns();
			if (now >= *next_prog) {
				struct progress p = { .in_layout = true,
					.layout_frac = total ? (double)*done / (double)total : 1 };
				ctl->progress(ctl->arg, &p);
				*next_prog = now + PROGRESS_NS;
			}
		}
	}
	if (fsync(fd) < 0 || (ret = scratch_mark_write(fd, l->to, SCRATCH_READY)) < 0 ||
	    fsync(fd) < 0) {
		ret = ret < 0 ? ret : -errno;
		seterr(err, errlen, "cannot fsync '%s': %s", path, strerror(-ret));
		goto err;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
err:
	free(buf);
	if (dfd >= 0)
		close(dfd);
	return ret;
}

/*
 * Open file i of an own file set (scratch files in a directory, or a file
 * path iomatrix makes or made).  A missing file is created with
 * O_CREAT|O_EXCL|O_NOFOLLOW; an existing one must be a regular file with
 * one link and iomatrix's scratch marker, else it is someone else's and is
 * left alone.  Scratch names in a directory are never followed as links.
 */
static int own_file_open(const struct cell *c, const char *path, bool nofollow,
			 uint64_t len, struct lay *l, struct target_id *id,
			 char *err, size_t errlen)
{
	int nf = nofollow ? O_NOFOLLOW : 0;
	struct stat st;
	uint64_t have = 0;

	/* look before opening: opening a planted device node or FIFO for
	 * writing can itself have effects */
	if ((nofollow ? lstat(path, &st) : stat(path, &st)) == 0 &&
	    !S_ISREG(st.st_mode)) {
		seterr(err, errlen, "'%s' exists and is not a regular file%s; remove it "
		       "or use another %s", path, S_ISLNK(st.st_mode) ?
		       " (a symbolic link: iomatrix never follows links for its scratch files)" : "",
		       nofollow ? "directory" : "path");
		return -EEXIST;
	}
	l->fd = open(path, O_RDWR | O_NONBLOCK | nf | O_CLOEXEC);
	if (l->fd < 0 && errno == ENOENT) {
		l->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		l->made = l->fd >= 0;
	}
	if (l->fd < 0) {
		int e = errno;
		if (e == ELOOP || e == EEXIST)
			seterr(err, errlen, "'%s' is a symbolic link; iomatrix never follows "
			       "links for its scratch files: remove it or use another directory",
			       path);
		else
			seterr(err, errlen, "cannot create '%s': %s", path, strerror(e));
		return e == ELOOP ? -EEXIST : -e;
	}
	if (fstat(l->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		seterr(err, errlen, "'%s' exists and is not a regular file; remove it "
		       "or use another path", path);
		return -EEXIST;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	l->existed = !l->made;
	l->to = len;
	if (l->made) {
		l->from = 0;
		return 0;
	}
	enum scratch_state s = scratch_mark_read(l->fd, &st, &have);
	if (s == SCRATCH_FOREIGN) {
		seterr(err, errlen, "'%s' exists and was not made by iomatrix (no scratch "
		       "marker%s); it is left alone: move it away or use another %s",
		       path, st.st_nlink > 1 ? ", and more than one hard link" : "",
		       nofollow ? "directory" : "path");
		return -EEXIST;
	}
	/* ours and complete at exactly this size: reuse; else lay out anew */
	l->from = s == SCRATCH_READY && have == len ? len : 0;
	(void)c;
	return 0;
}

/*
 * An existing regular file the user named that iomatrix did not make: it is
 * measured in place and never truncated, extended or rewritten by the
 * layout.  Reads need it to be long enough; writes need the device's
 * `destructive: true` (and --yes-destroy-data, checked by the command).
 */
static int foreign_file_open(const struct cell *c, uint64_t len, struct target *t,
			     char *err, size_t errlen)
{
	struct stat st;
	int fd = open(c->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;
		seterr(err, errlen, "cannot open '%s': %s", c->path, strerror(e));
		return -e;
	}
	int ok = fstat(fd, &st);
	close(fd);
	if (ok < 0 || !S_ISREG(st.st_mode)) {
		seterr(err, errlen, "cannot use '%s': not a directory, regular file or "
		       "block device", c->path);
		return -EINVAL;
	}
	t->ids[0].dev = st.st_dev;
	t->ids[0].ino = st.st_ino;
	if ((uint64_t)st.st_size < len) {
		seterr(err, errlen, "'%s' is an existing file of %" PRIu64 " bytes that iomatrix "
		       "did not make; this cell needs %" PRIu64 " bytes (offset + size) and "
		       "iomatrix never extends or rewrites a file it did not make: lower size, "
		       "or point the device at a directory", c->path, (uint64_t)st.st_size, len);
		return -EINVAL;
	}
	if (pattern_writes(c->pattern) && !c->destructive) {
		seterr(err, errlen, "'%s' is an existing file that iomatrix did not make; "
		       "writing to it needs 'destructive: true' on the device and "
		       "--yes-destroy-data", c->path);
		return -EPERM;
	}
	t->foreign = true;
	t->logical_block = logical_block_of(c->path, &st);
	return 0;
}

/* Has cell c a foreign file as its path?  (Exists, regular, no marker.) */
static bool path_is_foreign(const char *path, const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return false;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return true; /* cannot prove it ours */
	struct stat fs;
	bool foreign = fstat(fd, &fs) < 0 || scratch_mark_read(fd, &fs, NULL) == SCRATCH_FOREIGN;
	close(fd);
	return foreign;
}

/* Remove the files of t that are still the ones recorded (never a link, or
 * a file that took the name since). */
static void own_files_remove(struct target *t)
{
	for (unsigned i = 0; t->paths && t->ids && i < t->nfiles; i++)
		if (t->paths[i] && t->ids[i].ino && same_file(t->paths[i], &t->ids[i]))
			unlink(t->paths[i]);
}

/* Resolve a directory or file path (not a block device) into t. */
static int resolve_files(const struct cell *c, bool no_io, struct target *t,
			 bool *scratch, char *dir, size_t dirlen,
			 char *err, size_t errlen)
{
	struct stat st;
	bool exists = stat(c->path, &st) == 0;

	*scratch = false;
	if (exists && S_ISDIR(st.st_mode)) {
		*scratch = true;
		t->nfiles = c->files ? c->files : 1;
		snprintf(dir, dirlen, "%s", c->path);
	} else if (exists && !S_ISREG(st.st_mode) && !no_io) {
		seterr(err, errlen, "cannot use '%s': not a directory, regular file or block device%s",
		       c->path, S_ISCHR(st.st_mode) ? " (a character device: only engine "
		       "null accepts one)" : "");
		return -EINVAL;
	} else {
		if (c->files > 1) {
			/* one file is all a file path gives: say so rather than
			 * record files: N for a run on one file */
			seterr(err, errlen, "'%s' is a file, but files: %u needs a directory "
			       "to make the files in; give a directory or set files: 1",
			       c->path, c->files);
			return -EINVAL;
		}
		t->nfiles = 1;
		fsutil_parent(c->path, dir, dirlen);
		struct stat ds;
		if (!exists && (stat(dir, &ds) < 0 || !S_ISDIR(ds.st_mode))) {
			seterr(err, errlen, "no such directory '%s'; create it or fix the "
			       "device path", dir);
			return -ENOENT;
		}
	}
	t->paths = calloc(t->nfiles, sizeof(*t->paths));
	t->ids = calloc(t->nfiles, sizeof(*t->ids));
	if (!t->paths || !t->ids)
		return -ENOMEM;
	for (unsigned i = 0; i < t->nfiles; i++) {
		if (*scratch) {
			char fn[CELL_NAME_MAX + 32];
			snprintf(fn, sizeof(fn), CELL_FILE_FMT, c->device, i);
			if (asprintf(&t->paths[i], "%s/%s", c->path, fn) < 0)
				t->paths[i] = NULL;
		} else {
			t->paths[i] = strdup(c->path);
		}
		if (!t->paths[i])
			return -ENOMEM;
	}
	t->nofollow = *scratch;
	if (exists && !*scratch && path_is_foreign(c->path, &st))
		t->foreign = true;
	return 0;
}

/* Free space for what must be written (data + marker), when the
 * filesystem keeps a count (ramfs does not: f_blocks == 0). */
static int check_space(const char *dir, const struct lay *lays, unsigned n,
		       char *err, size_t errlen)
{
	uint64_t need = 0, freed = 0;
	struct statvfs vfs;
	struct stat st;

	for (unsigned i = 0; i < n; i++) {
		if (lays[i].from >= lays[i].to)
			continue;
		need += lays[i].to - lays[i].from + SCRATCH_MARK_BYTES;
		if (lays[i].existed && lays[i].from == 0 && fstat(lays[i].fd, &st) == 0)
			freed += (uint64_t)st.st_size; /* truncated first */
	}
	need = need > freed ? need - freed : 0;
	if (need && statvfs(dir, &vfs) == 0 && vfs.f_blocks) {
		uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
		if (need > avail) {
			seterr(err, errlen, "not enough free space in '%s' for the file set (need "
			       "%" PRIu64 " MiB, %" PRIu64 " MiB free); lower size or files, or "
			       "use another path", dir, need >> 20, avail >> 20);
			return -ENOSPC;
		}
	}
	return 0;
}

int runner_prepare(const struct cell *c, struct target *t,
		   struct run_ctl *ctl, char *err, size_t errlen)
{
	struct stat st;
	struct lay *lays = NULL;
	bool scratch = false;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (c->bs == 0) {
		seterr(err, errlen, "bs must be positive");
		return -EINVAL;
	}
	const struct engine *eng = engine_find(c->engine);
	bool no_io = eng && (eng->flags & ENGINE_NO_IO);
	bool align = eng && (eng->flags & ENGINE_NEEDS_ALIGN);
	const char *pseudo = no_io ? NULL : safety_pseudo_fs(c->path);
	if (pseudo) {
		seterr(err, errlen, "'%s' is on %s, a kernel pseudo filesystem, not storage; "
		       "point the device at a directory, file or block device", c->path, pseudo);
		return -EINVAL;
	}

	if (stat(c->path, &st) == 0 && S_ISBLK(st.st_mode)) {
		t->paths = calloc(1, sizeof(*t->paths));
		if (!t->paths || !(t->paths[0] = strdup(c->path)))
			goto oom;
		t->nfiles = 1;
		ret = resolve_blockdev(c, t, err, errlen);
		if (ret < 0 || (align && (ret = check_bs(c, t->logical_block, err, errlen)) < 0))
			goto err;
		if (c->direct && !no_io) {
			int fd = open(c->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
			if (fd < 0 && errno == EINVAL) {
				ret = direct_msg(c->path, err, errlen);
				goto err;
			}
			if (fd >= 0)
				close(fd);
		}
		return 0;
	}

	/* a directory (scratch files inside) or a regular file (made if absent) */
	char dir[PATH_MAX];
	ret = resolve_files(c, no_io, t, &scratch, dir, sizeof(dir), err, errlen);
	if (ret == -ENOMEM)
		goto oom;
	if (ret < 0)
		goto err;
	if (c->size_pct > 0) {
		seterr(err, errlen, "cannot take a percentage size of '%s': not a block device; "
		       "give size in bytes", c->path);
		ret = -EINVAL;
		goto err;
	}
	uint64_t len; /* bytes each file must have */
	if (c->offset_pct > 0) {
		len = c->size;
		t->offset = pct_of(c->size, c->offset_pct, c->bs);
		t->file_size = len - t->offset;
	} else {
		t->offset = c->offset;
		t->file_size = c->size;
		len = c->offset + c->size;
	}
	if (no_io) {
		/* the null engine touches no file: nothing to lay out */
		t->logical_block = 0;
		t->foreign = false;
		return 0;
	}
	if (t->foreign) {
		ret = foreign_file_open(c, len, t, err, errlen);
		if (ret < 0)
			goto err;
		goto geometry;
	}

	lays = calloc(t->nfiles, sizeof(*lays));
	if (!lays)
		goto oom;
	for (unsigned i = 0; i < t->nfiles; i++)
		lays[i].fd = -1;
	for (unsigned i = 0; i < t->nfiles; i++) {
		ret = own_file_open(c, t->paths[i], t->nofollow, len, &lays[i], &t->ids[i],
				    err, errlen);
		if (ret < 0)
			goto err;
	}
	t->created = true;
	if ((ret = check_space(dir, lays, t->nfiles, err, errlen)) < 0)
		goto err;

	/* probe O_DIRECT before writing anything */
	bool can_direct = true;
	if (fstat(lays[0].fd, &st) == 0)
		t->logical_block = logical_block_of(t->paths[0], &st);
	int dfd = open(t->paths[0], O_RDONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 && errno == EINVAL) {
		can_direct = false;
		if (c->direct) {
			ret = direct_msg(c->path, err, errlen);
			goto err;
		}
	}
	if (dfd >= 0)
		close(dfd);
geometry:
	ret = check_bs(c, t->logical_block, err, errlen);
	if (ret < 0)
		goto err;
	if (c->direct && t->offset % (t->logical_block ? t->logical_block : 512)) {
		seterr(err, errlen, "offset %" PRIu64 " is not a multiple of the logical block "
		       "size of '%s' (%u bytes); fix offset or set direct: false",
		       t->offset, c->path, t->logical_block ? t->logical_block : 512);
		ret = -EINVAL;
		goto err;
	}
	if (!lays)
		return 0;

	uint64_t done = 0, next_prog = 0, need = 0;
	for (unsigned i = 0; i < t->nfiles; i++)
		need += lays[i].to - lays[i].from;
	for (unsigned i = 0; i < t->nfiles; i++) {
		if (lays[i].from >= lays[i].to)
			continue;
		ret = layout_write(c, t->paths[i], i, &lays[i], can_direct, ctl, &done,
				   need, &next_prog, err, errlen);
		if (ret < 0)
			goto err;
	}
	lays_close(lays, t->nfiles);
	free(lays);
	return 0;
oom:
	ret = -ENOMEM;
	seterr(err, errlen, "out of memory");
err:
	/* files made or marked by iomatrix are ours: do not leave half-laid-out
	 * ones; anything else is never removed */
	if (lays && t->created)
		own_files_remove(t);
	else if (lays)
		for (unsigned i = 0; i < t->nfiles; i++)
			if (lays[i].made && same_file(t->paths[i], &t->ids[i]))
				unlink(t->paths[i]);
	lays_close(lays, t->nfiles);
	free(lays);
	target_release(t);
	return ret;
}

/* ---- one repetition ---- */

static void drop_caches(struct rep_result *out)
{
	if (geteuid() != 0) {
		snprintf(out->warning, sizeof(out->warning), "drop_caches skipped: not root");
		return;
	}
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		snprintf(out->warning, sizeof(out->warning), "drop_caches failed: %s",
			 strerror(errno));
	if (fd >= 0)
		close(fd);
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

static void fill_buffer(const struct cell *c, struct prng *rng, char *buf, uint64_t len)
{
	if (c->data == DATA_ZERO) {
		memset(buf, 0, len);
	} else if (c->data == DATA_COMPRESSIBLE) {
		/* per 4 KiB: the first compress_pct % zero, the rest random */
		for (uint64_t k = 0; k < len; k += 4096) {
			uint64_t seg = len - k < 4096 ? len - k : 4096;
			uint64_t z = seg * c->compress_pct / 100;
			memset(buf + k, 0, z);
			prng_fill(rng, buf + k + z, seg - z);
		}
	} else {
		prng_fill(rng, buf, len);
	}
}

static void jobs_free(struct job *jobs, unsigned n, unsigned nfiles)
{
	if (!jobs)
		return;
	for (unsigned i = 0; i < n; i++) {
		struct job *j = &jobs[i];
		for (unsigned f = 0; j->fds && f < nfiles; f++)
			if (j->fds[f] >= 0)
				close(j->fds[f]);
		free(j->fds);
		free(j->bufs);
		free(j->wcount);
		free(j->fsync_due);
		free(j->trace_buf);
		for (int d = 0; d < DIR__COUNT; d++) {
			free(j->hist[d]);
			series_release(&j->series[d]);
		}
	}
	free(jobs);
}

/* Open file f of the target for a job: never through a link planted in
 * place of a scratch file, and only the very file runner_prepare checked. */
static int open_file(const struct cell *c, const struct target *t, unsigned f,
		     int flags, char *err, size_t errlen)
{
	const char *path = t->paths[f];
	int fd = open(path, flags | (t->nofollow ? O_NOFOLLOW : 0) | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == EINVAL && (flags & O_DIRECT))
			return direct_msg(c->path, err, errlen);
		seterr(err, errlen, "cannot open '%s': %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	if (t->ids && t->ids[f].ino && !t->is_blockdev &&
	    (fstat(fd, &st) < 0 || st.st_dev != t->ids[f].dev || st.st_ino != t->ids[f].ino)) {
		close(fd);
		seterr(err, errlen, "'%s' was replaced by another file after it was laid out; "
		       "not touching it: check who else writes that directory", path);
		return -ESTALE;
	}
	return fd;
}

/* cpu.ns_per_io: the job threads' usr+sys over the IOs they did, both
 * from the start gate to the end (the ramp is in both, so it cancels).
 * Under SQPOLL the kernel's SQ thread submits and the job thread may do no
 * syscall at all (0 ns per IO, seen under ASan in engine_uring_options): the
 * number would not mean what it says, so it is null with the reason. */
static void rep_cpu_per_io(const struct cell *c, const struct job *jobs, unsigned n,
			   struct rep_result *out)
{
	uint64_t ns = 0, ios = 0;
	if (c->sqthread_poll) {
		out->have_cpu_per_io = false;
		out->cpu_per_io_why = "sqthread_poll: the kernel's SQ thread submits the IOs; "
				      "its CPU time is not the job threads'";
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		ns += jobs[i].cpu_ns;
		ios += jobs[i].all_ios;
	}
	out->have_cpu_per_io = ios > 0;
	out->cpu_ns_per_io = ios ? (double)ns / (double)ios : 0;
}

/* The shared state of a repetition from the cell and the target: depth,
 * directions, block geometry, the request budget.  0, or -EINVAL with err
 * filled in. */
static int shared_init(struct rep_shared *sh, const struct cell *c,
		       const struct target *t, const struct engine *eng,
		       char *err, size_t errlen)
{
	uint64_t bs = c->bs;

	if (bs == 0 || t->nfiles == 0) {
		seterr(err, errlen, "bs and the file set must not be empty");
		return -EINVAL;
	}
	if ((eng->flags & ENGINE_NEEDS_ALIGN) &&
	    check_bs(c, t->logical_block, err, errlen) < 0)
		return -EINVAL;
	/* active_range (SNIA PTS-C: 75 %): only the first share of each file
	 * or of the device is addressed, the rest was laid out and left */
	uint64_t bpf = (uint64_t)((double)t->file_size * c->active_range_pct /
				  100.0) / bs;
	if (c->active_range_pct >= 100 || c->active_range_pct <= 0)
		bpf = t->file_size / bs;
	if (bpf == 0) {
		seterr(err, errlen, "size %" PRIu64 " of '%s' is smaller than bs %" PRIu64
		       "; raise size or lower bs", t->file_size, c->path, bs);
		return -EINVAL;
	}
	sh->c = c;
	sh->t = t;
	sh->eng = eng;
	sh->depth = (eng->flags & ENGINE_ASYNC) && c->iodepth ? c->iodepth : 1;
	sh->reads = pattern_reads(c->pattern);
	sh->writes = pattern_writes(c->pattern);
	sh->mixed = pattern_is_mixed(c->pattern);
	sh->random = pattern_is_random(c->pattern);
	sh->bs = bs;
	sh->blocks_per_file = bpf;
	sh->nblocks = bpf * t->nfiles;
	if (c->requests)
		sh->budget = c->requests;
	uint64_t io_size = c->io_size;
	if (c->io_size_mult > 0) /* "1.5x": of the whole file set or device */
		io_size = (uint64_t)(c->io_size_mult * (double)t->file_size *
				     (double)t->nfiles);
	if (io_size) {
		uint64_t n = io_size / bs ? io_size / bs : 1;
		if (!sh->budget || n < sh->budget)
			sh->budget = n;
	}
	return 0;
}

/* Job i's files, buffers, histograms, PRNG and slice.  0, -ENOMEM, or the
 * -errno of an open with err filled in. */
static int job_setup(struct rep_shared *sh, struct job *j, unsigned i,
		     unsigned njobs, bool one_pass, size_t expect,
		     const struct placement *pl, char *err, size_t errlen)
{
	const struct cell *c = sh->c;
	const struct target *t = sh->t;
	bool no_io = sh->eng->flags & ENGINE_NO_IO;
	int oflags = (sh->writes ? O_RDWR : O_RDONLY) | (c->direct ? O_DIRECT : 0);

	j->sh = sh;
	j->idx = i;
	j->fds = malloc(t->nfiles * sizeof(*j->fds));
	j->wcount = calloc(t->nfiles, sizeof(*j->wcount));
	j->fsync_due = calloc(t->nfiles, sizeof(*j->fsync_due));
	if (!j->fds || !j->wcount || !j->fsync_due)
		return -ENOMEM;
	for (unsigned f = 0; f < t->nfiles; f++)
		j->fds[f] = -1;
	for (unsigned f = 0; f < t->nfiles && !no_io; f++) {
		j->fds[f] = open_file(c, t, f, oflags, err, errlen);
		if (j->fds[f] < 0)
			return j->fds[f];
	}
	uint64_t blen = (uint64_t)sh->depth * sh->bs;
	/* O_DIRECT wants page-aligned buffers; an engine that does no IO
	 * only wants them cache-line aligned */
	if (posix_memalign(&j->bufs, (sh->eng->flags & ENGINE_NEEDS_ALIGN) ?
			   4096 : 64, blen))
		return -ENOMEM;
	placement_bind_memory(pl, j->bufs, blen);
	if (sh->writes) {
		struct prng r;
		prng_seed(&r, c->seed ^ 0x64617461ull ^ ((uint64_t)i << 32));
		fill_buffer(c, &r, j->bufs, blen);
	}
	for (int d = 0; d < DIR__COUNT; d++) {
		welford_init(&j->lat[d]);
		series_init(&j->series[d], cell_interval_ns(c));
		if (!(d == DIR_READ ? sh->reads : sh->writes))
			continue;
		j->hist[d] = calloc(1, sizeof(*j->hist[d]));
		if (!j->hist[d] || series_reserve(&j->series[d], expect) < 0)
			return -ENOMEM;
	}
	if (sh->trace_fd >= 0 && !(j->trace_buf = malloc(64 * 1024)))
		return -ENOMEM;
	prng_seed(&j->rng, c->seed ^ ((uint64_t)(i + 1) * 0xd1b54a32d192ed03ull));
	/* sequential jobs each own a contiguous slice of the file set */
	uint64_t lo = (uint64_t)((unsigned __int128)sh->nblocks * i / njobs);
	uint64_t hi = (uint64_t)((unsigned __int128)sh->nblocks * (i + 1) / njobs);
	if (lo == hi) {
		lo = i % sh->nblocks;
		hi = lo + 1;
	}
	j->slice_lo = j->cursor = lo;
	j->slice_hi = hi;
	j->quota = one_pass ? hi - lo : UINT64_MAX;
	return 0;
}

/* Progress of the running jobs to ctl, from their live counters. */
struct watch {
	uint64_t next_prog, last_t, last_ios, last_bytes;
};

static void watch_progress(struct rep_shared *sh, struct job *jobs, unsigned created,
			   struct run_ctl *ctl, struct watch *w, uint64_t now)
{
	const struct cell *c = sh->c;
	uint64_t ios = 0, bytes = 0;

	for (unsigned i = 0; i < created; i++) {
		ios += atomic_load_explicit(&jobs[i].live_ios, memory_order_relaxed);
		bytes += atomic_load_explicit(&jobs[i].live_bytes, memory_order_relaxed);
	}
	double dt = (double)(now - w->last_t) / 1e9;
	if (ctl && ctl->progress && dt > 0) {
		struct progress p = {
			.elapsed_s = (double)(now - sh->t_start) / 1e9,
			.total_s = c->runtime_ns ?
				(double)(c->ramp_ns + c->runtime_ns) / 1e9 : 0,
			.iops = (double)(ios - w->last_ios) / dt,
			.bw_bytes_s = (double)(bytes - w->last_bytes) / dt,
			.in_ramp = now < sh->t0,
		};
		ctl->progress(ctl->arg, &p);
	}
	w->last_t = now;
	w->last_ios = ios;
	w->last_bytes = bytes;
	w->next_prog = now + PROGRESS_NS;
}

/* Open the start gate, then watch the jobs until all finished: stop them
 * on a signal, sample getrusage at the end of the ramp, report progress.
 * Returns whether a stop was requested; *ru0 holds the usage at the start
 * of measurement. */
static bool rep_watch(struct rep_shared *sh, struct job *jobs, unsigned created,
		      struct run_ctl *ctl, struct rusage *ru0)
{
	const struct cell *c = sh->c;
	bool sampled = false, interrupted = false;

	pthread_mutex_lock(&sh->lock);
	while (sh->nready < created)
		pthread_cond_wait(&sh->cond, &sh->lock);
	sh->t_start = worker_now_ns();
	sh->t0 = sh->t_start + c->ramp_ns;
	sh->t_end = c->runtime_ns ? sh->t0 + c->runtime_ns : 0;
	if (!c->ramp_ns) {
		getrusage(RUSAGE_SELF, ru0);
		sampled = true;
	}
	sh->go = true;
	pthread_cond_broadcast(&sh->go_cond);

	struct watch w = { sh->t_start + PROGRESS_NS, sh->t_start, 0, 0 };
	while (sh->nfinished < created) {
		uint64_t now = worker_now_ns();
		uint64_t wake = now + STOP_POLL_NS;
		if (w.next_prog < wake)
			wake = w.next_prog;
		if (!sampled && sh->t0 < wake)
			wake = sh->t0;
		struct timespec ts = { .tv_sec = (time_t)(wake / 1000000000ull),
				       .tv_nsec = (long)(wake % 1000000000ull) };
		pthread_cond_timedwait(&sh->cond, &sh->lock, &ts);
		if (sh->nfinished >= created)
			break;
		pthread_mutex_unlock(&sh->lock);
		now = worker_now_ns();
		if (stop_requested(ctl) && !interrupted) {
			interrupted = true;
			atomic_store(&sh->stop, 1);
		}
		if (!sampled && now >= sh->t0) {
			getrusage(RUSAGE_SELF, ru0);
			sampled = true;
		}
		if (now >= w.next_prog)
			watch_progress(sh, jobs, created, ctl, &w, now);
		pthread_mutex_lock(&sh->lock);
	}
	pthread_mutex_unlock(&sh->lock);
	if (!sampled)
		ru0->ru_utime.tv_sec = -1; /* no ramp end reached: use the end */
	return interrupted;
}

/* Merge the jobs' numbers into out: the first job error (*job_err, err
 * filled in), the runtime (ramp excluded; a time-limited run lasts at
 * least its runtime), per direction counts, moments, histogram and
 * series, CPU usage.  0, or -ENOMEM when merging ran out of memory. */
static int rep_merge(struct rep_shared *sh, struct job *jobs, unsigned created,
		     const struct rusage *ru0, const struct rusage *ru1,
		     struct rep_result *out, int *job_err, char *err, size_t errlen)
{
	*job_err = 0;
	for (unsigned i = 0; i < created && !*job_err; i++) {
		if (jobs[i].err) {
			*job_err = jobs[i].err;
			seterr(err, errlen, "%s", jobs[i].errmsg);
		}
	}
	/* a time-limited run lasts at least its runtime, even if the last
	 * completion came a hair before the deadline */
	uint64_t end = 0;
	for (unsigned i = 0; i < created; i++) {
		if (jobs[i].end_ns > end)
			end = jobs[i].end_ns;
		if (jobs[i].timed_out && sh->t_end > end)
			end = sh->t_end;
	}
	out->runtime_ns = end > sh->t0 ? end - sh->t0 : 0;
	for (int d = 0; d < DIR__COUNT; d++) {
		struct dir_result *dr = &out->dir[d];
		if (!(d == DIR_READ ? sh->reads : sh->writes))
			continue;
		if (!(dr->hist = calloc(1, sizeof(*dr->hist))))
			return -ENOMEM;
		for (unsigned i = 0; i < created; i++) {
			struct job *j = &jobs[i];
			dr->ios += j->ios[d];
			dr->bytes += j->bytes[d];
			welford_merge(&dr->lat, &j->lat[d]);
			if (j->hist[d])
				hist_merge(dr->hist, j->hist[d]);
			if (series_merge(&dr->series, &j->series[d]) < 0)
				return -ENOMEM;
		}
		if (dr->ios && !out->runtime_ns)
			out->runtime_ns = 1;
	}
	/* every direction the pattern has is measured, IO or not */
	for (int d = 0; d < DIR__COUNT; d++) {
		struct dir_result *dr = &out->dir[d];
		double rt = out->runtime_ns ? (double)out->runtime_ns / 1e9 : 0;
		dr->present = dr->hist || dr->ios;
		dr->known = REP_EXACT | REP_LAT | REP_LAT_RANGE | REP_LAT_SD;
		dr->iops = rt > 0 ? (double)dr->ios / rt : 0;
		dr->bw_bytes_s = rt > 0 ? (double)dr->bytes / rt : 0;
	}
	out->have_cpu = out->have_ctx = true;
	if (out->runtime_ns) {
		double rt = (double)out->runtime_ns;
		out->cpu_usr_pct = (double)(tv_ns(ru1->ru_utime) - tv_ns(ru0->ru_utime)) / rt * 100;
		out->cpu_sys_pct = (double)(tv_ns(ru1->ru_stime) - tv_ns(ru0->ru_stime)) / rt * 100;
	}
	rep_cpu_per_io(sh->c, jobs, created, out);
	out->ctx_voluntary = (uint64_t)(ru1->ru_nvcsw - ru0->ru_nvcsw);
	out->ctx_involuntary = (uint64_t)(ru1->ru_nivcsw - ru0->ru_nivcsw);
	return 0;
}

/* Release threads that may be waiting at the gate or running, after a
 * failure in the middle of a repetition. */
static void jobs_abort(struct rep_shared *sh, pthread_t *tids, unsigned created)
{
	atomic_store(&sh->stop, 1);
	pthread_mutex_lock(&sh->lock);
	sh->go = true;
	pthread_cond_broadcast(&sh->go_cond);
	pthread_mutex_unlock(&sh->lock);
	for (unsigned i = 0; i < created; i++)
		pthread_join(tids[i], NULL);
}

/* The mutex and both condition variables (the runner waits on cond with
 * CLOCK_MONOTONIC deadlines).  0 or -ENOMEM. */
static int shared_sync_init(struct rep_shared *sh)
{
	pthread_condattr_t ca;

	if (pthread_mutex_init(&sh->lock, NULL) || pthread_cond_init(&sh->go_cond, NULL))
		return -ENOMEM;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sh->cond, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
}

int runner_run_rep(const struct cell *c, const struct target *t,
		   struct run_ctl *ctl, struct rep_result *out,
		   char *err, size_t errlen)
{
	struct rep_shared sh;
	struct job *jobs = NULL;
	pthread_t *tids = NULL;
	unsigned njobs = c->jobs ? c->jobs : 1, created = 0;
	int ret = 0;
	bool sync_init = false, interrupted = false;

	memset(out, 0, sizeof(*out));
	memset(&sh, 0, sizeof(sh));
	sh.trace_fd = -1;
	for (int d = 0; d < DIR__COUNT; d++) {
		welford_init(&out->dir[d].lat);
		series_init(&out->dir[d].series, cell_interval_ns(c));
	}

	const struct engine *eng = engine_find(c->engine);
	if (!eng) {
		if (engine_known(c->engine))
			seterr(err, errlen, "engine '%s' is not built in", c->engine);
		else
			seterr(err, errlen, "unknown engine '%s'", c->engine);
		return -EINVAL;
	}
	if ((ret = shared_init(&sh, c, t, eng, err, errlen)) < 0)
		return ret;
	struct placement pl;
	if (placement_resolve(c->cpus_allowed, c->numa_node, &pl, err, errlen) < 0)
		return -EINVAL;
	bool one_pass = !c->runtime_ns && !sh.budget;

	if (c->drop_caches)
		drop_caches(out);
	if (shared_sync_init(&sh) < 0) {
		seterr(err, errlen, "cannot create a mutex");
		return -ENOMEM;
	}
	sync_init = true;

	const char *trace = getenv("IOMATRIX_TRACE");
	if (trace && *trace) {
		sh.trace_fd = open(trace, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (sh.trace_fd < 0) {
			ret = -errno;
			seterr(err, errlen, "cannot open IOMATRIX_TRACE '%s': %s", trace,
			       strerror(-ret));
			goto out;
		}
	}

	jobs = aligned_alloc(64, ((sizeof(*jobs) * njobs + 63) / 64) * 64);
	tids = calloc(njobs, sizeof(*tids));
	if (!jobs || !tids)
		goto oom;
	memset(jobs, 0, sizeof(*jobs) * njobs);
	size_t expect = c->runtime_ns ? (size_t)((c->runtime_ns + c->ramp_ns) /
				       cell_interval_ns(c)) + 2 : 16;
	if (expect > 1u << 20)
		expect = 1u << 20;
	for (unsigned i = 0; i < njobs; i++) {
		ret = job_setup(&sh, &jobs[i], i, njobs, one_pass, expect, &pl, err, errlen);
		if (ret == -ENOMEM)
			goto oom;
		if (ret < 0)
			goto out;
	}

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	if ((ret = placement_apply_attr(&pl, &attr)) < 0) {
		pthread_attr_destroy(&attr);
		seterr(err, errlen, "cpus_allowed '%s': cannot bind the job threads: %s",
		       pl.cpus, strerror(-ret));
		goto out;
	}
	for (; created < njobs; created++) {
		if (pthread_create(&tids[created], &attr, worker_main, &jobs[created])) {
			seterr(err, errlen, "cannot start job thread %u", created);
			ret = -EAGAIN;
			atomic_store(&sh.stop, 1);
			break;
		}
	}
	pthread_attr_destroy(&attr);

	struct rusage ru0, ru1;
	interrupted = rep_watch(&sh, jobs, created, ctl, &ru0);
	for (unsigned i = 0; i < created; i++)
		pthread_join(tids[i], NULL);
	unsigned started = created;
	created = 0; /* joined: nothing left for jobs_abort */
	getrusage(RUSAGE_SELF, &ru1);
	if (ru0.ru_utime.tv_sec == -1)
		ru0 = ru1;
	if (stop_requested(ctl))
		interrupted = true;
	int job_err;
	/* a thread that did not start (ret set) keeps its own message */
	if (rep_merge(&sh, jobs, started, &ru0, &ru1, out, &job_err,
		      ret ? NULL : err, errlen) < 0)
		goto oom;
	if (!ret)
		ret = job_err;
	if (interrupted && (!ret || ret == -EINTR)) {
		ret = -EINTR;
		seterr(err, errlen, "interrupted");
	}
	goto out;
oom:
	ret = -ENOMEM;
	seterr(err, errlen, "out of memory");
	if (created)
		jobs_abort(&sh, tids, created);
out:
	if (sh.trace_fd >= 0)
		close(sh.trace_fd);
	jobs_free(jobs, jobs ? njobs : 0, t->nfiles);
	free(tids);
	if (sync_init) {
		pthread_mutex_destroy(&sh.lock);
		pthread_cond_destroy(&sh.cond);
		pthread_cond_destroy(&sh.go_cond);
	}
	return ret;
}
