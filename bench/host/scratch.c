/*
 * scratch.c - the scratch-file marker (scratch.h): a fixed-format text
 * block after the data.  Plain text so that a person who finds a stray
 * file can read what made it with `tail -c 4096`.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "scratch.h"

#define MARK_MAGIC "iomatrix scratch file v1\n"

enum scratch_state scratch_mark_read(int fd, const struct stat *st,
				     uint64_t *length)
{
	char buf[SCRATCH_MARK_BYTES + 1];
	uint64_t len = 0;
	char state[16] = "";

	if (!S_ISREG(st->st_mode) || st->st_nlink != 1 ||
	    (uint64_t)st->st_size < SCRATCH_MARK_BYTES)
		return SCRATCH_FOREIGN;
	off_t at = st->st_size - (off_t)SCRATCH_MARK_BYTES;
	ssize_t n = pread(fd, buf, SCRATCH_MARK_BYTES, at);
	if (n != (ssize_t)SCRATCH_MARK_BYTES)
		return SCRATCH_FOREIGN;
	buf[n] = '\0';
	size_t ml = strlen(MARK_MAGIC);
	if (memcmp(buf, MARK_MAGIC, ml) != 0 ||
	    sscanf(buf + ml, "length %" SCNu64 "\nstate %15s\n", &len, state) != 2 ||
	    len != (uint64_t)at)
		return SCRATCH_FOREIGN;
	if (length)
		*length = len;
	if (!strcmp(state, "ready"))
		return SCRATCH_READY;
	if (!strcmp(state, "layout"))
		return SCRATCH_LAYOUT;
	return SCRATCH_FOREIGN;
}

int scratch_mark_write(int fd, uint64_t length, enum scratch_state state)
{
	char buf[SCRATCH_MARK_BYTES];

	memset(buf, 0, sizeof(buf));
	snprintf(buf, sizeof(buf), MARK_MAGIC "length %" PRIu64 "\nstate %s\n"
		 "This file was laid out by iomatrix as benchmark scratch space.\n"
		 "It holds no user data and may be deleted.\n", length,
		 state == SCRATCH_READY ? "ready" : "layout");
	size_t done = 0;
	while (done < sizeof(buf)) {
		ssize_t n = pwrite(fd, buf + done, sizeof(buf) - done,
				   (off_t)(length + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	/* a longer file from an earlier layout would hide the new marker */
	if (ftruncate(fd, (off_t)(length + SCRATCH_MARK_BYTES)) < 0)
		return -errno;
	return 0;
}

bool scratch_path_is_ours(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return false;
	bool ours = fstat(fd, &st) == 0 && scratch_mark_read(fd, &st, NULL) != SCRATCH_FOREIGN;
	close(fd);
	return ours;
}
