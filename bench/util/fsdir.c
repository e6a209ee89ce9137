/*
 * fsdir.c - directory streams on descriptors (fsdir.h).
 */
#include <errno.h>
#include <unistd.h>

#include "fsdir.h"

DIR *fsdir_open_fd(int fd)
{
	if (fd < 0)
		return NULL;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

DIR *fsdir_open_dup(int fd)
{
	DIR *d = fsdir_open_fd(fd >= 0 ? dup(fd) : (errno = EBADF, -1));
	if (d)
		rewinddir(d);
	return d;
}
