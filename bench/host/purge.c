/*
 * purge.c - BLKDISCARD of a whole block device, chunked, behind the same
 * double opt-in as any other write to a block device.
 */
#include "purge.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety.h"

int purge_discard(const char *name, const char *path, bool destructive,
		  bool yes_destroy_data, volatile sig_atomic_t *stop,
		  uint64_t *bytes, char *err, size_t errlen)
{
	struct stat st;
	uint64_t size = 0;
	int fd, rc = 0;

	*bytes = 0;
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "cannot purge '%s': not a block device "
			 "(purge: discard needs one; use purge: none for files)",
			 path);
		return -EPERM;
	}
	/* the same gate as writes: both opt-ins, not mounted, not held */
	if (safety_check_device(name, path, true, destructive,
				yes_destroy_data, err, errlen) < 0)
		return -EPERM;
	/* O_EXCL on a block device: fail if it is mounted or claimed now */
	fd = open(path, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open '%s' to purge: %s", path,
			 strerror(-rc));
		return rc;
	}
	if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot get the size of '%s': %s", path,
			 strerror(-rc));
		goto out;
	}
	for (uint64_t off = 0; off < size; off += PURGE_CHUNK) {
		if (stop && *stop) {
			rc = -EINTR;
			snprintf(err, errlen, "purge of '%s' interrupted", path);
			goto out;
		}
		uint64_t range[2] = { off, size - off < PURGE_CHUNK ?
					   size - off : PURGE_CHUNK };
		if (ioctl(fd, BLKDISCARD, range) < 0) {
			rc = -errno;
			if (rc == -EOPNOTSUPP || rc == -ENOTTY)
				snprintf(err, errlen, "cannot purge '%s': the "
					 "device does not support discard "
					 "(use purge: none)", path);
			else
				snprintf(err, errlen, "cannot discard '%s': %s",
					 path, strerror(-rc));
			goto out;
		}
		*bytes += range[1];
	}
out:
	close(fd);
	return rc;
}
