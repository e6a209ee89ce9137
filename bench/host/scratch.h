/*
 * scratch.h - how iomatrix recognises the scratch files it lays out itself,
 * so that a file it did not make is never truncated, rewritten or removed:
 * a name prefix ("iomatrix.") plus a 4 KiB marker block stored past the
 * data (at offset `length`), which IO never touches.
 *
 * Functions return 0 or -errno; none follows a symbolic link.
 */
#ifndef IOMATRIX_SCRATCH_H
#define IOMATRIX_SCRATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#define SCRATCH_PREFIX "iomatrix."
#define SCRATCH_MARK_BYTES 4096u

enum scratch_state {
	SCRATCH_FOREIGN = 0, /* no marker: not ours, never touched */
	SCRATCH_LAYOUT,      /* ours, layout started but not finished */
	SCRATCH_READY,       /* ours, `length` bytes fully laid out */
};

/* Read the marker of the open regular file fd (st from fstat).  Returns the
 * state and, for ours, the data length in *length.  A file with more than
 * one hard link is foreign whatever it holds (it may be someone's file). */
enum scratch_state scratch_mark_read(int fd, const struct stat *st,
				     uint64_t *length);

/* Write the marker for `length` data bytes in `state` at offset length
 * (the file grows to length + SCRATCH_MARK_BYTES).  0 or -errno. */
int scratch_mark_write(int fd, uint64_t length, enum scratch_state state);

/* Is `path` (not followed when a link) a scratch file iomatrix made?  Opens
 * it O_RDONLY|O_NOFOLLOW|O_NONBLOCK; any error means "no". */
bool scratch_path_is_ours(const char *path);

#endif
