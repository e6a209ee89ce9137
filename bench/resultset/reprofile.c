/*
 * reprofile.c - reprofile.h: the manifest's "reproduces" object written,
 * and an original set read for `iomatrix reproduce` (its manifest through
 * the one reader, rset_manifest.c, with the hash of its bytes; suite.yaml
 * checked against it).
 */
#include "reprofile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/sha256.h"
#include "rset_int.h"
#include "schema.h"

int reprofile_add(cJSON *m, const struct reproduces *r)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddStringToObject(o, "set", r->set) ||
	    !cJSON_AddStringToObject(o, "manifest_sha256", r->manifest_sha256) ||
	    !cJSON_AddStringToObject(o, "path", r->path ? r->path : "") ||
	    (r->tolerance_pct > 0 &&
	     !cJSON_AddNumberToObject(o, "tolerance_pct", r->tolerance_pct))) {
		cJSON_Delete(o);
		return -ENOMEM;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(m, "reproduces");
	cJSON_AddItemToObject(m, "reproduces", o);
	return 0;
}

/* The last component of dir, without trailing slashes. */
static void dir_id(const char *dir, char *out, size_t len)
{
	size_t n, b = fsutil_last_component(dir, &n);
	snprintf(out, len, "%.*s", (int)n, dir + b);
}

int reprofile_original_open(struct repro_original *o, const char *dir,
			    char *err, size_t errlen)
{
	char path[PATH_MAX + 32], why[256], have[65];
	size_t len;

	memset(o, 0, sizeof(*o));
	if (rset_init(&o->manifest, dir, NULL) < 0 || !(o->dir = strdup(dir))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	dir_id(dir, o->id, sizeof(o->id));
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (rset_manifest_load(&o->manifest, AT_FDCWD, path, o->manifest_sha256, why,
			       sizeof(why)) < 0) {
		int e = errno;
		if (e == EBADMSG)
			snprintf(err, errlen, "'%s': %s", path, why);
		else if (e == EPROTO)
			snprintf(err, errlen, "'%s' has schema_version %s, newer than this "
				 "iomatrix reads (%d): upgrade iomatrix", path, why,
				 RESULTSET_SCHEMA_VERSION);
		else
			snprintf(err, errlen, "cannot read '%s': %s; give a result-set directory",
				 path, why);
		return e == EBADMSG || e == EPROTO ? -EINVAL : -e;
	}
	const char *want = o->manifest.suite_sha256;
	if (!want || strlen(want) != 64) {
		snprintf(err, errlen, "'%s' records no suite sha256: this set cannot be "
			 "reproduced (it was not made from a suite)", path);
		return -EINVAL;
	}
	snprintf(o->suite_path, sizeof(o->suite_path), "%s/suite.yaml", dir);
	char *buf = fsutil_read_at(AT_FDCWD, o->suite_path, RESULTSET_MAX_FILE_BYTES, 0, &len);
	if (!buf) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s; the set's own suite is what a "
			 "reproduction runs", o->suite_path, strerror(e));
		return -e;
	}
	sha256_hex(buf, len, have);
	free(buf);
	if (strcmp(have, want)) {
		snprintf(err, errlen, "'%s' has sha256 %.12s but the manifest records %.12s: "
			 "the suite was changed after the run; restore the set's own copy",
			 o->suite_path, have, want);
		return -EINVAL;
	}
	return 0;
}

void reprofile_original_release(struct repro_original *o)
{
	rset_release(&o->manifest);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}
