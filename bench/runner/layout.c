/*
 * layout.c - runner.h's file set: resolve a cell's path (block device,
 * directory, file) into a target, check space and O_DIRECT, and lay the
 * files out (never sparse, incompressible, reused when the size matches);
 * only files iomatrix made are ever truncated or removed.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "util/testhook.h"
#include "util/monotime.h"
#include "engines/engine.h"
#include "stats/prng.h"
#include "host/safety.h"
#include "host/devpath.h"
#include "host/scratch.h"
#include "worker.h"
#include "runner_int.h"

#define LAYOUT_CHUNK (1u << 20)

/* runner_set_scratch_tag(): "" for none */
static char scratch_tag[65];

void runner_set_scratch_tag(const char *tag)
{
	size_t n = 0;

	for (; tag && tag[n] && n < sizeof(scratch_tag) - 1; n++) {
		char ch = tag[n];
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
		scratch_tag[n] = keep ? ch : '_';
	}
	scratch_tag[n] = '\0';
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
		runner_seterr(err, errlen, "cannot open '%s': %s", c->path, strerror(e));
		return -e;
	}
	uint64_t devsize = 0;
	int lbs = 0;
	if (ioctl(fd, BLKGETSIZE64, &devsize) < 0) {
		int e = errno;
		close(fd);
		runner_seterr(err, errlen, "cannot read the size of '%s': %s", c->path, strerror(e));
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
		runner_seterr(err, errlen, "offset %" PRIu64 " is past the end of '%s' "
		       "(%" PRIu64 " bytes); lower offset", t->offset, c->path, devsize);
		return -EINVAL;
	}
	if (size == 0 || size > devsize - t->offset)
		size = devsize - t->offset;
	t->file_size = size;
	if (pattern_writes(c->pattern) && !c->destructive) {
		runner_seterr(err, errlen, "cannot write to block device '%s' without 'destructive: "
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
		runner_seterr(err, errlen, "cannot truncate '%s': %s", path, strerror(-ret));
		goto err;
	}
	if ((ret = scratch_mark_write(fd, l->to, SCRATCH_LAYOUT)) < 0) {
		runner_seterr(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
		goto err;
	}
	if (posix_memalign(&buf, 4096, LAYOUT_CHUNK)) {
		ret = -ENOMEM;
		runner_seterr(err, errlen, "out of memory");
		goto err;
	}
	uint64_t off = l->from;
	while (off < l->to) {
		if (runner_stop_requested(ctl)) {
			ret = -EINTR;
			runner_seterr(err, errlen, "interrupted while laying out '%s'", path);
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
			runner_seterr(err, errlen, "cannot lay out '%s' at offset %" PRIu64 ": %s",
			       path, off, strerror(-ret));
			goto err;
		}
		off += (uint64_t)w;
		*done += (uint64_t)w;
		testhook_point("layout_chunk");
		if (ctl && ctl->progress) {
			uint64_t now = mono_ns();
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
		runner_seterr(err, errlen, "cannot fsync '%s': %s", path, strerror(-ret));
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
		runner_seterr(err, errlen, "'%s' exists and is not a regular file%s; remove it "
		       "or use another %s", path, S_ISLNK(st.st_mode) ?
		       " (a symbolic link: iomatrix never follows links for its scratch files)" : "",
		       nofollow ? "directory" : "path");
		return -EEXIST;
	}
	l->fd = open(path, O_RDWR | O_NONBLOCK | nf | O_CLOEXEC);
	if (l->fd < 0 && errno == ENOENT) {
		testhook_point("scratch_create");   /* a test makes the name here */
		l->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		l->made = l->fd >= 0;
	}
	if (l->fd < 0) {
		int e = errno;
		/* EEXIST: the name appeared between the look and O_EXCL; say
		 * what it is, not always "a link" (the hosts of an aggregate
		 * creating one shared file at once got that) */
		bool link = e == ELOOP || (e == EEXIST && lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
		if (link)
			runner_seterr(err, errlen, "'%s' is a symbolic link; iomatrix never follows "
			       "links for its scratch files: remove it or use another directory",
			       path);
		else if (e == EEXIST)
			runner_seterr(err, errlen, "'%s' appeared while iomatrix was creating it: another "
			       "process or host made it at the same moment (two runs on one file "
			       "at once?); run them one after the other, or give each its own path",
			       path);
		else
			runner_seterr(err, errlen, "cannot create '%s': %s", path, strerror(e));
		return e == ELOOP ? -EEXIST : -e;
	}
	if (fstat(l->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		runner_seterr(err, errlen, "'%s' exists and is not a regular file; remove it "
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
		runner_seterr(err, errlen, "'%s' exists and was not made by iomatrix (no scratch "
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
		runner_seterr(err, errlen, "cannot open '%s': %s", c->path, strerror(e));
		return -e;
	}
	int ok = fstat(fd, &st);
	close(fd);
	if (ok < 0 || !S_ISREG(st.st_mode)) {
		runner_seterr(err, errlen, "cannot use '%s': not a directory, regular file or "
		       "block device", c->path);
		return -EINVAL;
	}
	t->ids[0].dev = st.st_dev;
	t->ids[0].ino = st.st_ino;
	if ((uint64_t)st.st_size < len) {
		runner_seterr(err, errlen, "'%s' is an existing file of %" PRIu64 " bytes that iomatrix "
		       "did not make; this cell needs %" PRIu64 " bytes (offset + size) and "
		       "iomatrix never extends or rewrites a file it did not make: lower size, "
		       "or point the device at a directory", c->path, (uint64_t)st.st_size, len);
		return -EINVAL;
	}
	if (pattern_writes(c->pattern) && !c->destructive) {
		runner_seterr(err, errlen, "'%s' is an existing file that iomatrix did not make; "
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
		runner_seterr(err, errlen, "cannot use '%s': not a directory, regular file or block device%s",
		       c->path, S_ISCHR(st.st_mode) ? " (a character device: only engine "
		       "null accepts one)" : "");
		return -EINVAL;
	} else {
		if (c->files > 1) {
			/* one file is all a file path gives: say so rather than
			 * record files: N for a run on one file */
			runner_seterr(err, errlen, "'%s' is a file, but files: %u needs a directory "
			       "to make the files in; give a directory or set files: 1",
			       c->path, c->files);
			return -EINVAL;
		}
		t->nfiles = 1;
		fsutil_parent(c->path, dir, dirlen);
		struct stat ds;
		if (!exists && (stat(dir, &ds) < 0 || !S_ISDIR(ds.st_mode))) {
			runner_seterr(err, errlen, "no such directory '%s'; create it or fix the "
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
			char fn[CELL_NAME_MAX + sizeof(scratch_tag) + 32];
			if (scratch_tag[0])
				snprintf(fn, sizeof(fn), SCRATCH_PREFIX "%s.%s.%u",
					 scratch_tag, c->device, i);
			else
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
			runner_seterr(err, errlen, "not enough free space in '%s' for the file set (need "
			       "%" PRIu64 " MiB, %" PRIu64 " MiB free); lower size or files, or "
			       "use another path", dir, need >> 20, avail >> 20);
			return -ENOSPC;
		}
	}
	return 0;
}

/* Refuse a target that is not storage: a kernel pseudo filesystem, or a
 * path on /dev that is not a block device.  Validate refused the second
 * already; an agent's suite or a path that changed since must still never
 * get a scratch file in /dev. */
static int check_storage(const char *path, char *err, size_t errlen)
{
	const char *pseudo = safety_pseudo_fs(path);

	if (pseudo) {
		runner_seterr(err, errlen, "'%s' is on %s, a kernel pseudo filesystem, not storage; "
		       "point the device at a directory, file or block device", path, pseudo);
		return -EINVAL;
	}
	return devpath_check(path, err, errlen) != 0 ? -ENOTBLK : 0;
}

/* A block device as the target: its geometry, the cell's bs and zones
 * against it, and O_DIRECT where the cell asks for it.  0, or -errno with
 * err. */
static int prepare_blockdev(const struct cell *c, struct target *t, bool no_io,
			    bool align, char *err, size_t errlen)
{
	int ret;

	t->paths = calloc(1, sizeof(*t->paths));
	if (!t->paths || !(t->paths[0] = strdup(c->path))) {
		runner_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	t->nfiles = 1;
	ret = resolve_blockdev(c, t, err, errlen);
	if (ret < 0 || (align && (ret = runner_check_bs(c, t->logical_block, err, errlen)) < 0) ||
	    (ret = runner_check_zones(c, t, err, errlen)) < 0)
		return ret;
	if (c->direct && !no_io) {
		int fd = open(c->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0 && errno == EINVAL)
			return runner_direct_msg(c->path, err, errlen);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

/* Where the cell's IO falls in each file (t->offset, t->file_size) and the
 * bytes each file must have (*len).  -EINVAL for a percentage size, which
 * only a block device has. */
static int files_extent(const struct cell *c, struct target *t, uint64_t *len,
			char *err, size_t errlen)
{
	if (c->size_pct > 0) {
		runner_seterr(err, errlen, "cannot take a percentage size of '%s': not a block device; "
		       "give size in bytes", c->path);
		return -EINVAL;
	}
	if (c->offset_pct > 0) {
		*len = c->size;
		t->offset = pct_of(c->size, c->offset_pct, c->bs);
		t->file_size = *len - t->offset;
	} else {
		t->offset = c->offset;
		t->file_size = c->size;
		*len = c->offset + c->size;
	}
	return 0;
}

/* Open or make every file of t (len bytes each) into lays, check the free
 * space for what is missing, and probe O_DIRECT on the first file before
 * anything is written (*can_direct).  0, or -errno with err. */
static int own_files_open(const struct cell *c, struct target *t, const char *dir,
			  uint64_t len, struct lay *lays, bool *can_direct,
			  char *err, size_t errlen)
{
	struct stat st;
	int ret;

	for (unsigned i = 0; i < t->nfiles; i++) {
		ret = own_file_open(c, t->paths[i], t->nofollow, len, &lays[i], &t->ids[i],
				    err, errlen);
		if (ret < 0)
			return ret;
	}
	t->created = true;
	if ((ret = check_space(dir, lays, t->nfiles, err, errlen)) < 0)
		return ret;
	*can_direct = true;
	if (fstat(lays[0].fd, &st) == 0)
		t->logical_block = logical_block_of(t->paths[0], &st);
	int dfd = open(t->paths[0], O_RDONLY | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 && errno == EINVAL) {
		*can_direct = false;
		if (c->direct)
			return runner_direct_msg(c->path, err, errlen);
	}
	if (dfd >= 0)
		close(dfd);
	return 0;
}

/* The cell's bs and, with O_DIRECT, its offset against the logical block
 * size of the files.  0, or -EINVAL with err. */
static int files_check_alignment(const struct cell *c, const struct target *t,
				 char *err, size_t errlen)
{
	int ret = runner_check_bs(c, t->logical_block, err, errlen);

	if (ret < 0)
		return ret;
	if (c->direct && t->offset % (t->logical_block ? t->logical_block : 512)) {
		runner_seterr(err, errlen, "offset %" PRIu64 " is not a multiple of the logical block "
		       "size of '%s' (%u bytes); fix offset or set direct: false",
		       t->offset, c->path, t->logical_block ? t->logical_block : 512);
		return -EINVAL;
	}
	return 0;
}

/* Write what each file of t still lacks, one progress count over them all. */
static int lays_write(const struct cell *c, const struct target *t, const struct lay *lays,
		      bool can_direct, struct run_ctl *ctl, char *err, size_t errlen)
{
	uint64_t done = 0, next_prog = 0, need = 0;
	int ret;

	for (unsigned i = 0; i < t->nfiles; i++)
		need += lays[i].to - lays[i].from;
	for (unsigned i = 0; i < t->nfiles; i++) {
		if (lays[i].from >= lays[i].to)
			continue;
		ret = layout_write(c, t->paths[i], i, &lays[i], can_direct, ctl, &done,
				   need, &next_prog, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* A prepare that failed: files made or marked by iomatrix are ours, so no
 * half-laid-out one is left; anything else is never removed.  Releases t
 * and lays (NULL: none opened yet); returns ret. */
static int prepare_undo(struct target *t, struct lay *lays, int ret)
{
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

int runner_prepare(const struct cell *c, struct target *t,
		   struct run_ctl *ctl, char *err, size_t errlen)
{
	struct stat st;
	struct lay *lays;
	bool scratch = false, can_direct = true;
	char dir[PATH_MAX];
	uint64_t len; /* bytes each file must have */
	int ret;

	memset(t, 0, sizeof(*t));
	if (c->bs == 0) {
		runner_seterr(err, errlen, "bs must be positive");
		return -EINVAL;
	}
	const struct engine *eng = engine_find(c->engine);
	bool no_io = eng && (eng->flags & ENGINE_NO_IO);
	bool align = eng && (eng->flags & ENGINE_NEEDS_ALIGN);
	if (!no_io && (ret = check_storage(c->path, err, errlen)) < 0)
		return ret;
	if (stat(c->path, &st) == 0 && S_ISBLK(st.st_mode)) {
		ret = prepare_blockdev(c, t, no_io, align, err, errlen);
		return ret < 0 ? prepare_undo(t, NULL, ret) : 0;
	}

	/* a directory (scratch files inside) or a regular file (made if absent) */
	ret = resolve_files(c, no_io, t, &scratch, dir, sizeof(dir), err, errlen);
	if (ret == -ENOMEM)
		runner_seterr(err, errlen, "out of memory");
	if (ret < 0 || (ret = files_extent(c, t, &len, err, errlen)) < 0 ||
	    /* before the first file is made or written */
	    (ret = runner_check_zones(c, t, err, errlen)) < 0)
		return prepare_undo(t, NULL, ret);
	if (no_io) {
		/* the null engine touches no file: nothing to lay out */
		t->logical_block = 0;
		t->foreign = false;
		return 0;
	}
	if (t->foreign) {
		if ((ret = foreign_file_open(c, len, t, err, errlen)) < 0 ||
		    (ret = files_check_alignment(c, t, err, errlen)) < 0)
			return prepare_undo(t, NULL, ret);
		return 0;
	}

	lays = calloc(t->nfiles, sizeof(*lays));
	if (!lays) {
		runner_seterr(err, errlen, "out of memory");
		return prepare_undo(t, NULL, -ENOMEM);
	}
	for (unsigned i = 0; i < t->nfiles; i++)
		lays[i].fd = -1;
	if ((ret = own_files_open(c, t, dir, len, lays, &can_direct, err, errlen)) < 0 ||
	    (ret = files_check_alignment(c, t, err, errlen)) < 0 ||
	    (ret = lays_write(c, t, lays, can_direct, ctl, err, errlen)) < 0)
		return prepare_undo(t, lays, ret);
	lays_close(lays, t->nfiles);
	free(lays);
	return 0;
}

bool runner_error_is_input(int e)
{
	switch (e) {
	case -EINVAL: case -ENOENT: case -ENOTDIR: case -EISDIR:
	case -EACCES: case -EPERM: case -EOPNOTSUPP: case -ENODEV:
	case -ENOSYS: case -EROFS: case -ENXIO: case -ENOTBLK: case -EEXIST:
#if EOPNOTSUPP != ENOTSUP
	case -ENOTSUP:
#endif
		return true;
	default:
		return false;
	}
}
