/*
 * resume.c - resume.h: the checks of --resume, shared by `run` and the
 * fleet controller so that neither believes a set the other would refuse.
 */
#include "resume.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite/suite_cli.h"

/* Filesystems without flock go on unlocked. */
int resume_lock(const char *dir, int *fd_out, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	*fd_out = -1;
	if (fd < 0)
		return 0; /* resultset_open reports a missing set */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		snprintf(err, errlen, "set '%s' is being written by another iomatrix run; wait for it to end or stop it first",
			 dir);
		close(fd);
		return -1;
	}
	*fd_out = fd;
	return 0;
}

static int check_scale(const struct resultset *rs, struct resume_set *r,
		       char *err, size_t errlen)
{
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(rs->manifest, "scale");
	double set_scale = sc ? (cJSON_IsNumber(sc) ? sc->valuedouble : -1) : 1;

	/* a number from a set is checked as --scale is: 1e308 would be an
	 * undefined float-to-int cast in every cell's sizes */
	if (!(set_scale > 0 && set_scale <= SUITE_CLI_MAX_SCALE)) {
		snprintf(err, errlen, "'%s/manifest.json': 'scale' is not a factor in (0, 1e6] (the set is damaged or was edited); cannot resume it",
			 rs->dir);
		return -1;
	}
	if (r->scale > 0 && fabs(r->scale - set_scale) > 1e-12 * set_scale) {
		snprintf(err, errlen, "--scale %g differs from the scale %g of set '%s'; resume without --scale",
			 r->scale, set_scale, rs->dir);
		return -1;
	}
	r->scale = set_scale;
	return 0;
}

int resume_open(struct resultset *rs, const char *dir, struct resume_set *r,
		char *err, size_t errlen)
{
	struct stat lst;
	char why[1024];

	memset(rs, 0, sizeof(*rs));
	rs->dirfd = -1;
	if (resume_lock(dir, &r->lock_fd, err, errlen) < 0)
		return -1;
	if (resultset_open(rs, dir, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s; is '%s' a result set?", why, dir);
		return -1;
	}
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(rs->manifest, "source"), "kind");
	if (!cJSON_IsString(src) || strcmp(src->valuestring, "iomatrix")) {
		snprintf(err, errlen, "'%s' was not made by 'iomatrix run' (imported); it cannot be resumed", dir);
		return -1;
	}
	if (r->suite_given) { /* its sha256 must then match the set's */
		snprintf(r->suite_path, sizeof(r->suite_path), "%s", r->suite_given);
		return check_scale(rs, r, err, errlen);
	}
	/* the set's own copy, not a file a link in the set points at */
	snprintf(r->suite_path, sizeof(r->suite_path), "%s/suite.yaml", rs->dir);
	if (lstat(r->suite_path, &lst) == 0 && !S_ISREG(lst.st_mode)) {
		snprintf(err, errlen, "'%s' is not a regular file (%s); a set's suite must be its own copy: give the suite with 'iomatrix run SUITE.yaml --resume %s'",
			 r->suite_path, S_ISLNK(lst.st_mode) ? "a symbolic link" : "a special file",
			 rs->dir);
		return -1;
	}
	return check_scale(rs, r, err, errlen);
}
