/*
 * fuzz_import_common.h - shared by the importer fuzz targets: the importers
 * read a path, so each input is handed over as an in-memory file
 * (memfd_create, opened by the importer through /proc/self/fd/N).
 */
#ifndef IOMATRIX_FUZZ_IMPORT_COMMON_H
#define IOMATRIX_FUZZ_IMPORT_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "import/import.h"

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

/* What an importer parsed, turned into cell JSON as import_set_write()
 * would store it (nothing is written to disk). */
static inline void fuzz_import_cells(const struct import_set *s)
{
	for (size_t i = 0; i < s->ncells; i++) {
		cJSON *j = import_cell_to_json(&s->cells[i], (int)i + 1);
		char *txt = j ? cJSON_PrintUnformatted(j) : NULL;
		free(txt);
		cJSON_Delete(j);
		(void)import_cell_iops(&s->cells[i]);
	}
}

#endif
