/*
 * fuzz_set_common.h - shared by fuzz_rset.c and fuzz_report.c: a scratch
 * result-set directory (tmpfs when there is one), made once per process,
 * whose manifest.json, cells/0001.json, plan.json and cells/0002.json are
 * the "\n%%\n"-separated parts of the fuzz input.
 */
#ifndef IOMATRIX_FUZZ_SET_COMMON_H
#define IOMATRIX_FUZZ_SET_COMMON_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char rset_fuzz_dir[256];

static void rset_fuzz_cleanup(void)
{
	static const char *files[] = {
		"manifest.json", "plan.json", "cells/0001.json", "cells/0002.json",
	};
	char p[320];

	if (!rset_fuzz_dir[0])
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", rset_fuzz_dir, files[i]);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/cells", rset_fuzz_dir);
	rmdir(p);
	rmdir(rset_fuzz_dir);
}

/* Scratch set directory, made once per process (tmpfs when there is one). */
static const char *rset_fuzz_setdir(void)
{
	char p[320];
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	if (rset_fuzz_dir[0])
		return rset_fuzz_dir;
	snprintf(rset_fuzz_dir, sizeof(rset_fuzz_dir), "%s/iomatrix-fuzz-rset.XXXXXX",
		 base);
	if (!mkdtemp(rset_fuzz_dir)) {
		rset_fuzz_dir[0] = '\0';
		return NULL;
	}
	snprintf(p, sizeof(p), "%s/cells", rset_fuzz_dir);
	mkdir(p, 0700);
	atexit(rset_fuzz_cleanup);
	return rset_fuzz_dir;
}

static void rset_fuzz_put(const char *dir, const char *name, const char *data,
			  size_t len, int present)
{
	char p[320];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	unlink(p);
	if (!present)
		return;
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return;
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w <= 0)
			break;
		data += w;
		len -= (size_t)w;
	}
	close(fd);
}

/* Write the parts of data into the scratch set; its path, or NULL. */
static const char *fuzz_set_fill(const uint8_t *data, size_t size)
{
	static const char *names[] = {
		"manifest.json", "cells/0001.json", "plan.json", "cells/0002.json",
	};
	const char *dir = rset_fuzz_setdir();
	const char *p = (const char *)data, *end = p + size;

	if (!dir)
		return NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *sep = p ? memmem(p, (size_t)(end - p), "\n%%\n", 4) : NULL;
		size_t len = p ? (size_t)((sep ? sep : end) - p) : 0;
		rset_fuzz_put(dir, names[i], p, len, p != NULL);
		p = sep ? sep + 4 : NULL;
	}
	return dir;
}

#endif
