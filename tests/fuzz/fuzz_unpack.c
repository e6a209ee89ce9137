/*
 * fuzz_unpack.c - libFuzzer target for `iomatrix unpack` (the archive
 * bytes, resultset_unpack_mem in bench/share/unpack.c).  Each input is
 * unpacked into a fresh directory below a private root; the target aborts
 * when a refused input left anything there, when an accepted one is not
 * exactly one set directory that verifies, or when anything but that
 * directory appeared in the root.  Also built into
 * tests/unit/test_fuzz_regress.c to replay regress and corpus inputs.
 */
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include "share/pack.h"
#include "resultset/sums.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char funpack_root[64];

static int funpack_rm(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p) < 0 ? 0 : 0;
}

static void funpack_teardown(void)
{
	nftw(funpack_root, funpack_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Entries of dir besides . and .. (-1: cannot open). */
static int funpack_count(const char *dir, char *one, size_t onelen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			if (one)
				snprintf(one, onelen, "%s", e->d_name);
			n++;
		}
	closedir(d);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dest[128], set_dir[512], err[4096], name[256];
	bool warn;

	if (!funpack_root[0]) {
		snprintf(funpack_root, sizeof(funpack_root), "/tmp/iomatrix-fuzzunpack.XXXXXX");
		if (!mkdtemp(funpack_root))
			abort();
		atexit(funpack_teardown);
	}
	snprintf(dest, sizeof(dest), "%s/dest", funpack_root);
	int r = resultset_unpack_mem(data, size, dest, set_dir, sizeof(set_dir), &warn,
				     err, sizeof(err));
	int nroot = funpack_count(funpack_root, name, sizeof(name));
	int ndest = funpack_count(dest, name, sizeof(name));
	if (r < 0) {
		/* refused: nothing left, not even dest */
		if (nroot != 0 || ndest > 0) {
			fprintf(stderr, "refused (%s) but left %d/%d entries\n", err, nroot, ndest);
			abort();
		}
		return 0;
	}
	if (nroot != 1 || ndest != 1 || strncmp(set_dir, dest, strlen(dest))) {
		fprintf(stderr, "accepted, but the root holds %d and dest %d entries\n",
			nroot, ndest);
		abort();
	}
	int fd = open(set_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	struct sums_check c;
	if (fd < 0 || sums_verify_at(fd, SUMS_SET, &c) < 0 || sums_check_failed(&c)) {
		fprintf(stderr, "accepted a set that does not verify: %s\n", set_dir);
		abort();
	}
	sums_check_release(&c);
	close(fd);
	nftw(dest, funpack_rm, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
