/*
 * fuzz_import_common.h - shared by the importer fuzz targets: the importers
 * read a path, so each input is handed over as an in-memory file
 * (memfd_create, opened by the importer through /proc/self/fd/N).
 */
#ifndef IOMATRIX_FUZZ_IMPORT_COMMON_H
#define IOMATRIX_FUZZ_IMPORT_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Returns an fd holding data (path in path), or -1. */
static inline int fuzz_memfile(const uint8_t *data, size_t size, char *path,
			       size_t pathlen)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
