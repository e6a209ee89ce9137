/*
 * reprofile.c - reprofile.h: the manifest's "reproduces" object, and an
 * original set read for `iomatrix reproduce` (manifest hash, suite.yaml
 * checked against the manifest).
 */
#include "reprofile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/sha256.h"
#include "jsonread.h"
#include "util/jsonutil.h"
#include "rset.h"
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

int reprofile_get(const cJSON *m, struct reproduces *out)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(m, "reproduces");

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(o) || !json_str(o, "set") || !json_str(o, "manifest_sha256"))
		return -ENOENT;
	out->set = json_str(o, "set");
	out->manifest_sha256 = json_str(o, "manifest_sha256");
	out->path = json_str(o, "path");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "tolerance_pct");
	if (cJSON_IsNumber(t) && t->valuedouble > 0 && t->valuedouble < 1000)
		out->tolerance_pct = t->valuedouble;
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
	o->scale = 1;
	if (!(o->dir = strdup(dir))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	dir_id(dir, o->id, sizeof(o->id));
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	char *buf = fsutil_read_at(AT_FDCWD, path, RESULTSET_MAX_FILE_BYTES, 0, &len);
	if (!buf) {
		int e = errno;
		snprintf(err, errlen, "cannot read '%s': %s; give a result-set directory",
			 path, strerror(e));
		return -e;
	}
	sha256_hex(buf, len, o->manifest_sha256);
	o->manifest = rset_parse_json(buf, len, why, sizeof(why));
	free(buf);
	if (!o->manifest) {
		snprintf(err, errlen, "'%s': %s", path, why);
		return -EINVAL;
	}
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(o->manifest, "source");
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(o->manifest, "scale");
	o->source_kind = json_str(src, "kind") ? json_str(src, "kind") : "iomatrix";
	o->status = json_str(o->manifest, "status") ? json_str(o->manifest, "status") : "unknown";
	if (cJSON_IsNumber(sc) && sc->valuedouble > 0)
		o->scale = sc->valuedouble;
	const char *want = json_str(cJSON_GetObjectItemCaseSensitive(o->manifest, "suite"), "sha256");
	if (!want || strlen(want) != 64) {
		snprintf(err, errlen, "'%s' records no suite sha256: this set cannot be "
			 "reproduced (it was not made from a suite)", path);
		return -EINVAL;
	}
	snprintf(o->suite_sha256, sizeof(o->suite_sha256), "%s", want);
	snprintf(o->suite_path, sizeof(o->suite_path), "%s/suite.yaml", dir);
	buf = fsutil_read_at(AT_FDCWD, o->suite_path, RESULTSET_MAX_FILE_BYTES, 0, &len);
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
	cJSON_Delete(o->manifest);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}
