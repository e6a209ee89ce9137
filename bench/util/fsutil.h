/*
 * fsutil.h - the one place that reads and writes whole files: a bounded
 * reader that never blocks on a FIFO or device, an atomic writer (unique
 * temp file, fsync, rename, fsync of the directory), mkdir -p and the
 * parent directory of a path.  Every file iomatrix reads or writes whole
 * (suites, result sets, imports, reports, templates) goes through here.
 *
 * Error convention: functions return 0 / a pointer, or -errno / NULL with
 * errno set.  fsutil_strerror() turns those errno values into the words a
 * message should use ("not a regular file" rather than "Invalid argument").
 */
#ifndef IOMATRIX_FSUTIL_H
#define IOMATRIX_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Every temporary file or directory iomatrix makes starts with this, so
 * that cleanup (resume) removes only its own names. */
#define FSUTIL_TMP_PREFIX ".iomatrix-tmp."

/* Flags of fsutil_read_at(). */
enum {
	/* Follow a symbolic link in the last component: for paths the user
	 * named on the command line.  Without it a link is refused (ELOOP),
	 * which is what a reader of files inside a result set wants. */
	FSUTIL_FOLLOW = 1 << 0,
};

/*
 * Read the whole file `name` (relative to dirfd; AT_FDCWD for a path) into
 * a NUL-terminated buffer the caller frees; *len (may be NULL) gets its
 * size.  The file is opened O_NONBLOCK and checked with fstat before any
 * read: anything but a regular file is refused, so a planted FIFO or a
 * device never hangs or floods us.  NULL with errno set: EINVAL not a
 * regular file, EISDIR a directory, ELOOP a symbolic link (without
 * FSUTIL_FOLLOW), EFBIG larger than max bytes, ENOMEM, or what open/read
 * said.
 */
char *fsutil_read_at(int dirfd, const char *name, size_t max, unsigned flags,
		     size_t *len);
/* fsutil_read_at(AT_FDCWD, path, max, FSUTIL_FOLLOW, len): a path the user
 * gave. */
char *fsutil_read(const char *path, size_t max, size_t *len);

/*
 * Write data to `name` (relative to dirfd, AT_FDCWD for a path; it may
 * contain '/') atomically: a new temp file FSUTIL_TMP_PREFIX<random> in the
 * target's own directory, created O_EXCL|O_NOFOLLOW (never through a
 * planted link), mode 0666 less the umask, written, fsynced, renamed
 * over the target, and the directory fsynced.  A crash leaves the old file
 * or the new one, never a mix; on failure the temp file is removed.
 * 0 or -errno.
 */
int fsutil_write_atomic_at(int dirfd, const char *name, const void *data,
			   size_t len);
int fsutil_write_atomic(const char *path, const void *data, size_t len);
/* The same without the fsyncs when durable is false: for files rebuilt
 * from others (a static site of thousands of pages), where a crash costs
 * a rebuild, not data.  Still never written through a link. */
int fsutil_write_replace_at(int dirfd, const char *name, const void *data,
			    size_t len, bool durable);

/* Flags of fsutil_write_atomic_flags_at(). */
enum {
	/* Skip both fsyncs: still atomic against a crash of the process (the
	 * page cache survives it), durable only after the caller's
	 * fsutil_syncfs() of the filesystem.  For many small files written
	 * in a row (cell files): one sync for a batch instead of two per
	 * file, which on a busy disk cost ~15 ms a file. */
	FSUTIL_NOSYNC = 1 << 0,
};
int fsutil_write_atomic_flags_at(int dirfd, const char *name, const void *data,
				 size_t len, unsigned flags);

/*
 * The same, streamed: fsutil_atomic_begin_at() makes the temp file and
 * opens a->f for writing; fsutil_atomic_commit() flushes, fsyncs, renames
 * and fsyncs the directory (0 or -errno; the temp file is removed on
 * failure); fsutil_atomic_abort() removes the temp file.  One of the two
 * must follow a successful begin.
 */
struct fsutil_atomic {
	FILE *f;
	int dirfd;
	char name[4096], tmp[4096 + 32], dir[4096];
};
int fsutil_atomic_begin_at(struct fsutil_atomic *a, int dirfd, const char *name);
int fsutil_atomic_commit(struct fsutil_atomic *a);
void fsutil_atomic_abort(struct fsutil_atomic *a);

/*
 * Append data to the regular file at path (a path the user named: links
 * in its directories are theirs), made with mode 0666 less the umask when
 * missing, as a shell's >> would, but never through a link at path itself
 * (O_NOFOLLOW: ELOOP) and never into a FIFO or device (opened O_NONBLOCK
 * and checked with fstat before a byte is written: EINVAL).  A file other
 * tools append to too (a CI runner's summary), so no temp file and no
 * rename: one write(2) per chunk at the end, O_APPEND.  0 or -errno.
 */
int fsutil_append(const char *path, const void *data, size_t len);

/* Flush the whole filesystem holding fd (syncfs): what FSUTIL_NOSYNC
 * writes left for later.  0 or -errno. */
int fsutil_syncfs(int fd);

/* fsync a directory (a rename in it becomes durable).  Filesystems that
 * cannot (EINVAL) count as success.  0 or -errno. */
int fsutil_fsync_dir_at(int dirfd, const char *name);

/* mkdir -p with mode 0755 (umask applies); 0 or -errno. */
int fsutil_mkdir_p(const char *path);
/* The same, and *made the length of the prefix of path that names the
 * first directory it made (0: it made none); fsutil_rmdir_made(path,
 * made) removes those again, deepest first, each only when empty: a
 * refused command leaves no parent it made behind. */
int fsutil_mkdir_p_made(const char *path, size_t *made);
void fsutil_rmdir_made(const char *path, size_t made);

/* The directory that holds `path`, which may not exist yet: "/a/b" -> "/a",
 * "b" -> ".", "/b" -> "/", "a/b/" -> "a".  0, or -ENAMETOOLONG when out
 * is too small (out then holds ""). */
int fsutil_parent(const char *path, char *out, size_t len);

/* The last component of path, trailing slashes left out ("a/b/" -> "b",
 * "/" -> "/"): its first byte is path + the return value, *n its length.
 * Points into path; nothing is copied. */
size_t fsutil_last_component(const char *path, size_t *n);

/* Does directory `path` hold no entry besides . and ..?  1 yes, 0 no,
 * -errno when it cannot be read. */
int fsutil_dir_is_empty(const char *path);

/* Write all len bytes of buf to fd, again after EINTR and short writes.
 * 0, or -errno (-EIO when write(2) makes no progress). */
int fsutil_write_all(int fd, const void *buf, size_t len);

/* Read exactly len bytes from fd into buf, again after EINTR and short
 * reads.  0, -errno, or -EPIPE when the input ends first. */
int fsutil_read_all(int fd, void *buf, size_t len);

/* Remove name below dirfd (AT_FDCWD: a path) and everything under it,
 * never through a link (a link is removed, not followed), at any depth:
 * no recursion (a nested directory is moved up, under a hidden name, until
 * the tree is flat) and two directories open at a time; best effort,
 * errors ignored (what cannot be removed stays). */
void fsutil_remove_tree_at(int dirfd, const char *name);

/* Is `name` (a directory entry) a temp file fsutil made? */
bool fsutil_is_temp_name(const char *name);

/*
 * Open directory `rel` below dirfd one component at a time, each with
 * O_DIRECTORY|O_NOFOLLOW (so no link anywhere in rel is followed, unlike
 * openat(dirfd, "a/b") which follows a link at "a"), making missing ones
 * with mode 0777 less the umask when create is set.  rel is relative:
 * "" or "." is dirfd itself; "..", "." and empty components are refused
 * (EINVAL).  The new descriptor, or -errno: ELOOP or ENOTDIR when a
 * component is a link or not a directory (fsutil_strerror says "is a
 * symbolic link"); *bad (may be NULL) then gets the length of rel up to
 * and including the component at fault, for the message.
 */
int fsutil_open_dir_at(int dirfd, const char *rel, bool create, size_t *bad);

/* Hex sha256 of regular file `name` below dirfd, never following a link
 * (O_NOFOLLOW|O_NONBLOCK, type checked on the open descriptor, so a FIFO
 * never hangs), read in chunks (any size).  0, or -errno as
 * fsutil_read_at() says (ELOOP a link, EINVAL not a regular file). */
int fsutil_sha256_at(int dirfd, const char *name, char hex[65]);

/* strerror() with fsutil's own meanings: EINVAL "not a regular file",
 * ELOOP "is a symbolic link", EFBIG "file too large". */
const char *fsutil_strerror(int errnum);

/* buf = "dir/name".  0, or -ENAMETOOLONG (buf then holds "") when it does
 * not fit: a silently cut path would name another file. */
int fsutil_join(char *buf, size_t len, const char *dir, const char *name);

#endif
