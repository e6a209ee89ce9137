/*
 * fuzz_set_common.h - shared by fuzz_rset.c, fuzz_report.c and fuzz_cmds.c: a scratch
 * result-set directory (tmpfs when there is one), made once per process,
 * whose manifest.json, cells/0001.json, plan.json and cells/0002.json are
 * the "\n%%\n"-separated parts of the fuzz input.  The set lives in
 * BASE/set so that commands may write next to it (BASE/out) and list BASE.
 */
#ifndef IOMATRIX_FUZZ_SET_COMMON_H
#define IOMATRIX_FUZZ_SET_COMMON_H

#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char rset_fuzz_base[256]; /* BASE: holds set/ and any outputs */
static char rset_fuzz_dir[300];  /* BASE/set */

static int rset_fuzz_rm(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Remove BASE and everything below it (set files, report outputs). */
static void rset_fuzz_cleanup(void)
{
	if (rset_fuzz_base[0])
		nftw(rset_fuzz_base, rset_fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Scratch set directory BASE/set, made once per process (tmpfs when there
 * is one); BASE is removed at exit. */
static const char *rset_fuzz_setdir(void)
{
	char p[340];
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	if (rset_fuzz_dir[0])
		return rset_fuzz_dir;
	snprintf(rset_fuzz_base, sizeof(rset_fuzz_base), "%s/iomatrix-fuzz.XXXXXX",
		 base);
	if (!mkdtemp(rset_fuzz_base)) {
		rset_fuzz_base[0] = '\0';
		return NULL;
	}
	atexit(rset_fuzz_cleanup);
	snprintf(rset_fuzz_dir, sizeof(rset_fuzz_dir), "%s/set", rset_fuzz_base);
	snprintf(p, sizeof(p), "%s/cells", rset_fuzz_dir);
	if (mkdir(rset_fuzz_dir, 0700) < 0 || mkdir(p, 0700) < 0) {
		rset_fuzz_dir[0] = '\0';
		return NULL;
	}
	return rset_fuzz_dir;
}

static void rset_fuzz_put(const char *dir, const char *name, const char *data,
			  size_t len, int present)
{
	char p[340];
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
