/*
 * setdir.c - the on-disk result set (resultset.h): a uniquely named
 * directory holding manifest.json, suite.yaml, plan.json and
 * cells/NNNN.json.  Every file goes through fsutil_write_atomic() (temp,
 * fsync, rename, fsync of the directory) so that a crash or SIGKILL never
 * leaves a half-written file behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "setout.h"
#include "util/fsdir.h"
#include "util/fsutil.h"
#include "util/monotime.h"
#include "util/jsonutil.h"
#include "util/jsonw.h"
#include "sums.h"
#include "cells.h"
#include "host/fingerprint.h"
#include "host/fpkeys.h"
#include "suite/suite.h"
#include "util/sbuf.h"
#include "resultset.h"
#include "cellcheck.h"
#include "jsonread.h"

const char *resultset_root(void)
{
	const char *root = getenv(RESULTSET_ROOT_ENV);
	return root && *root ? root : RESULTSET_ROOT_DEFAULT;
}

int resultset_write_json(const char *path, const cJSON *j)
{
	char *text = cJSON_Print(j);
	int ret;

	if (!text)
		return -ENOMEM;
	size_t n = strlen(text);
	text[n] = '\n'; /* files end with a newline: in place of the NUL */
	ret = fsutil_write_atomic(path, text, n + 1);
	free(text);
	return ret;
}

void iso8601_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Host name made safe for a directory name: [A-Za-z0-9._-], rest '-'. */
static void host_component(char *buf, size_t len)
{
	char host[256] = "";

	if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
		strcpy(host, "unknown");
	host[sizeof(host) - 1] = '\0';
	/* The short name: a domain only makes the path longer. */
	char *dot = strchr(host, '.');
	if (dot && dot != host)
		*dot = '\0';
	/* truncating a very long host name is fine: it only names the set */
	size_t n = strnlen(host, len - 1);
	memcpy(buf, host, n);
	buf[n] = '\0';
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		      *p == '-'))
			*p = '-';
}

static int write_manifest(struct resultset *rs)
{
	char *text = cJSON_Print(rs->manifest);
	int ret;

	if (!text)
		return -ENOMEM;
	size_t n = strlen(text);
	text[n] = '\n'; /* files end with a newline: in place of the NUL */
	ret = fsutil_write_atomic_at(rs->dirfd, "manifest.json", text, n + 1);
	free(text);
	if (ret < 0)
		return ret;
	/* finished (the manifest is the last file written): SHA256SUMS over
	 * the set (sums.h); running again (resume): none until it ends */
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(rs->manifest, "status");
	if (cJSON_IsString(st) && strcmp(st->valuestring, "running"))
		return sums_write_at(rs->dirfd, SUMS_SET);
	return unlinkat(rs->dirfd, SUMS_FILE, 0) < 0 && errno != ENOENT ? -errno : 0;
}

int resultset_save_manifest(struct resultset *rs, char *err, size_t errlen)
{
	int ret = write_manifest(rs);

	if (ret < 0)
		snprintf(err, errlen, "cannot write '%s/manifest.json': %s",
			 rs->dir, strerror(-ret));
	return ret;
}

static void set_item(cJSON *obj, const char *key, cJSON *val)
{
	if (!val)
		return;
	if (cJSON_HasObjectItem(obj, key))
		cJSON_ReplaceItemInObjectCaseSensitive(obj, key, val);
	else
		cJSON_AddItemToObject(obj, key, val);
}

static void add_or_null(cJSON *o, const char *k, cJSON *v)
{
	if (v)
		cJSON_AddItemToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

cJSON *resultset_manifest_new(const struct manifest_info *mi)
{
	cJSON *m = cJSON_CreateObject(), *o, *a;
	char now[32];

	if (!m) {
		cJSON_Delete(mi->tool);
		cJSON_Delete(mi->host);
		return NULL;
	}
	iso8601_now(now, sizeof(now));
	cJSON_AddNumberToObject(m, "schema_version", RESULTSET_SCHEMA_VERSION);
	cJSON_AddStringToObject(m, "kind", "iomatrix-result-set");
	cJSON_AddStringToObject(m, "status", "running");
	cJSON_AddStringToObject(m, "started_at", mi->started_at ? mi->started_at : now);
	cJSON_AddNullToObject(m, "finished_at");
	cJSON_AddNumberToObject(m, "scale", mi->scale);
	if (mi->source) {
		cJSON_AddItemToObject(m, "source", cJSON_Duplicate(mi->source, true));
	} else if ((o = cJSON_AddObjectToObject(m, "source"))) {
		cJSON_AddStringToObject(o, "kind", "iomatrix");
	}
	if (mi->command) {
		a = cJSON_AddArrayToObject(m, "command");
		for (int i = 0; a && i < mi->ncommand; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(mi->command[i]));
	}
	add_or_null(m, "tool", mi->tool);
	add_or_null(m, "host", mi->host);
	o = cJSON_AddObjectToObject(m, "suite");
	if (o) {
		cJSON_AddStringToObject(o, "name", mi->suite_name);
		jsonw_str(o, "title", mi->title);
		jsonw_str(o, "description", mi->description);
		jsonw_str(o, "file", mi->file);
		cJSON_AddStringToObject(o, "sha256", mi->sha256);
	}
	cJSON_AddArrayToObject(m, "devices");
	cJSON_AddNumberToObject(m, "cells_total", (double)mi->cells_total);
	cJSON_AddArrayToObject(m, "cells");
	return m;
}

/* Device i's fingerprint: of its path, except for a model device, whose
 * IO reaches no disk: kind "model" and nothing else (host/devident.h: a
 * model device is its keys, never the disk under its directory). */
static cJSON *device_fp(const struct suite *s, size_t i)
{
	struct sbuf model = SBUF_INIT;
	bool no_io;
	bool is_model = suite_device_model(s, i, &model, &no_io);
	sbuf_release(&model);
	if (!is_model)
		return fingerprint_device(s->devices[i].path);
	cJSON *fp = cJSON_CreateObject();
	if (fp)
		cJSON_AddStringToObject(fp, "kind", "model");
	fp_fill_nulls(fp, fp_device_keys);
	return fp;
}

cJSON *resultset_manifest_for_suite(const struct suite *s, double scale,
				    int argc, char **argv, size_t cells_total,
				    bool fingerprints)
{
	struct manifest_info mi = {
		.scale = scale > 0 ? scale : 1,
		.command = argv, .ncommand = argc,
		.tool = fingerprint_tool(), .host = fingerprint_host(),
		.suite_name = s->name, .title = s->title,
		.description = s->description, .file = s->file,
		.sha256 = s->sha256, .cells_total = cells_total,
	};
	cJSON *m = resultset_manifest_new(&mi);

	for (size_t i = 0; m && i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		if (resultset_manifest_add_device(m, d->name, d->path, d->destructive,
						  fingerprints ? device_fp(s, i) : NULL) < 0) {
			cJSON_Delete(m);
			return NULL;
		}
	}
	return m;
}

int resultset_manifest_add_device(cJSON *manifest, const char *name,
				  const char *path, int destructive, cJSON *fp)
{
	cJSON *devs = cJSON_GetObjectItemCaseSensitive(manifest, "devices");
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_IsArray(devs)) {
		cJSON_Delete(o);
		cJSON_Delete(fp);
		return -ENOMEM;
	}
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "path", path);
	if (destructive >= 0)
		cJSON_AddBoolToObject(o, "destructive", destructive);
	add_or_null(o, "fingerprint", fp);
	cJSON_AddItemToArray(devs, o);
	return 0;
}

int resultset_write_inputs(struct resultset *rs, const struct suite *s)
{
	int r1 = fsutil_write_atomic_at(rs->dirfd, "suite.yaml", s->text, s->text_len);
	int r2 = resultset_write_plan(rs, s);
	return r1 < 0 ? r1 : r2;
}

/* mkdir -p dir: 0, or -errno with "cannot create WHAT 'dir': why; FIX"
 * in err. */
static int setdir_mkdir(const char *dir, const char *what, const char *fix, char *err,
			size_t errlen)
{
	int ret = fsutil_mkdir_p(dir);
	if (ret < 0)
		snprintf(err, errlen, "cannot create %s '%s': %s; %s", what, dir,
			 strerror(-ret), fix);
	return ret;
}

int resultset_create(struct resultset *rs, const char *results_root,
		     const char *out_dir, const char *suite_name,
		     cJSON *manifest, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret;

	memset(rs, 0, sizeof(*rs));
	rs->dirfd = -1;
	rs->manifest = manifest;
	if (!manifest) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* --out names the set itself: never mix two runs in one. */
	snprintf(path, sizeof(path), "%s/manifest.json", out_dir ? out_dir : "");
	if (out_dir && access(path, F_OK) == 0) {
		snprintf(err, errlen,
			 "'%s' already holds a result set; choose another --out DIR or use --resume",
			 out_dir);
		ret = -EEXIST;
		goto err;
	}
	/* nor inside another set (setout.h), before anything is made */
	if ((ret = resultset_output_check(out_dir ? out_dir : results_root, NULL, err,
					  errlen)) < 0)
		goto err;
	if (out_dir) {
		if ((ret = setdir_mkdir(out_dir, "result set", "choose another --out DIR", err,
					errlen)) < 0)
			goto err;
		/* nor a set inside someone's files: a later --resume cleans
		 * temp files in it, and the set would own what it did not make */
		if (fsutil_dir_is_empty(out_dir) != 1) {
			snprintf(err, errlen,
				 "'%s' is not empty and is not a result set; --out names a new set directory: give a new or empty one",
				 out_dir);
			ret = -EEXIST;
			goto err;
		}
		rs->dir = strdup(out_dir);
	} else {
		char stamp[32], host[128], base[PATH_MAX];
		time_t now = time(NULL);
		struct tm tm;

		if ((ret = setdir_mkdir(results_root, "results directory",
					"use --out DIR or set IOMATRIX_RESULTS", err, errlen)) < 0)
			goto err;
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H%M%SZ", &tm);
		/* a fleet set holds many hosts: <UTC>_<suite>_fleet */
		if (cJSON_GetObjectItemCaseSensitive(manifest, "fleet"))
			snprintf(host, sizeof(host), "fleet");
		else
			host_component(host, sizeof(host));
		if (snprintf(base, sizeof(base), "%s/%s_%s_%s", results_root,
			     stamp, suite_name, host) >= (int)sizeof(base)) {
			ret = -ENAMETOOLONG;
			snprintf(err, errlen, "results directory '%s': name too long",
				 results_root);
			goto err;
		}
		for (int i = 1; i < 10000; i++) {
			int n;
			if (i == 1)
				n = snprintf(path, sizeof(path), "%s", base);
			else
				n = snprintf(path, sizeof(path), "%s-%d", base, i);
			if (n >= (int)sizeof(path)) {
				ret = -ENAMETOOLONG;
				break;
			}
			if (mkdir(path, 0755) == 0) {
				ret = 0;
				break;
			}
			ret = -errno;
			if (errno != EEXIST)
				break;
		}
		if (ret < 0) {
			snprintf(err, errlen,
				 "cannot create result set in '%s': %s; use --out DIR or set IOMATRIX_RESULTS",
				 results_root, strerror(-ret));
			goto err;
		}
		rs->dir = strdup(path);
	}
	if (!rs->dir) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto err;
	}
	snprintf(path, sizeof(path), "%s/cells", rs->dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		ret = -errno;
		snprintf(err, errlen, "cannot create '%s': %s", path,
			 strerror(errno));
		goto err;
	}
	rs->dirfd = open(rs->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rs->dirfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open '%s': %s", rs->dir, strerror(errno));
		goto err;
	}
	set_item(manifest, "status", cJSON_CreateString("running"));
	if (!cJSON_GetObjectItemCaseSensitive(manifest, "cells"))
		cJSON_AddItemToObject(manifest, "cells", cJSON_CreateArray());
	ret = resultset_save_manifest(rs, err, errlen);
	if (ret < 0)
		goto err;
	/* the set's name in its parent is durable too */
	char parent[PATH_MAX];
	if (fsutil_parent(rs->dir, parent, sizeof(parent)) == 0)
		fsutil_fsync_dir_at(AT_FDCWD, parent);
	rs->synced_ns = mono_ns();
	return 0;
err:
	resultset_release(rs);
	return ret;
}

/* Put entry (owned, or NULL: forget) at id in the in-memory index. */
static int index_set(struct resultset *rs, int id, cJSON *entry)
{
	if (id < 1 || id > RESULTSET_MAX_ID) {
		cJSON_Delete(entry);
		return -EINVAL;
	}
	if ((size_t)id > rs->nentries) {
		size_t na = rs->nentries ? rs->nentries : 64;
		while (na < (size_t)id)
			na *= 2;
		cJSON **ne = realloc(rs->entries, na * sizeof(*ne));
		if (!ne) {
			cJSON_Delete(entry);
			return -ENOMEM;
		}
		memset(ne + rs->nentries, 0, (na - rs->nentries) * sizeof(*ne));
		rs->entries = ne;
		rs->nentries = na;
	}
	cJSON_Delete(rs->entries[id - 1]);
	rs->entries[id - 1] = entry;
	return 0;
}

/* The manifest's index entry of a cell file's JSON: {id, file, device,
 * label, status}.  Caller owns it; NULL when out of memory. */
static cJSON *index_entry(int id, const cJSON *cell)
{
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(cell, "params");
	const char *status = json_str(cell, "status");
	cJSON *e = cJSON_CreateObject();
	char rel[RESULTSET_CELL_NAME_MAX + 8];

	if (!e)
		return NULL;
	memcpy(rel, "cells/", 6);
	resultset_cell_name(id, rel + 6, sizeof(rel) - 6);
	cJSON_AddNumberToObject(e, "id", id);
	cJSON_AddStringToObject(e, "file", rel);
	jsonw_str(e, "device", json_str(params, "device"));
	jsonw_str(e, "label", json_str(params, "label"));
	cJSON_AddStringToObject(e, "status", status ? status : "ok");
	if (json_str(cell, "host")) /* fleet sets */
		cJSON_AddStringToObject(e, "host", json_str(cell, "host"));
	return e;
}

/*
 * The index of an existing set: the manifest's "cells", then every cell
 * file in cells/ that parses (the files win: since iomatrix writes the
 * index only when a run ends, a set whose run was killed knows its cells
 * from cells/ only).
 */
static int index_load(struct resultset *rs)
{
	const cJSON *e;
	int ret = 0, *ids = NULL;
	size_t n = 0, len;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(rs->manifest, "cells")) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "id");
		if (cJSON_IsNumber(v) && v->valuedouble >= 1 &&
		    v->valuedouble <= RESULTSET_MAX_ID &&
		    (ret = index_set(rs, v->valueint, cJSON_Duplicate(e, true))) == -ENOMEM)
			return ret;
	}
	int cfd = resultset_cells_open(rs->dirfd);
	if (cfd < 0)
		return 0;
	ret = resultset_cells_list(cfd, &ids, &n);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		char name[RESULTSET_CELL_NAME_MAX];
		resultset_cell_name(ids[i], name, sizeof(name));
		char why[128], *buf = fsutil_read_at(cfd, name, RESULTSET_MAX_FILE_BYTES, 0, &len);
		cJSON *cell = buf ? rset_parse_json(buf, len, why, sizeof(why)) : NULL;
		free(buf);
		/* one that does not parse keeps what the manifest said:
		 * resume's check (resultset_cell_verify) names the problem
		 * and measures the cell again */
		ret = cJSON_IsObject(cell) ? index_set(rs, ids[i], index_entry(ids[i], cell)) : 0;
		cJSON_Delete(cell);
		if (ret != -ENOMEM)
			ret = 0;
	}
	free(ids);
	close(cfd);
	return ret;
}

int resultset_open(struct resultset *rs, const char *dir, char *err,
		   size_t errlen)
{
	char path[PATH_MAX];
	const cJSON *v;

	memset(rs, 0, sizeof(*rs));
	rs->dirfd = -1;
	/* a set may come from anyone: its files are read without following
	 * links, and cells/ must be a real directory, since resume writes
	 * into it (a planted SET/cells -> /elsewhere would redirect that) */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (dfd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", dir, strerror(errno));
		return -EINVAL;
	}
	bool bad_cells = fstatat(dfd, "cells", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			 !S_ISDIR(st.st_mode);
	size_t len = 0;
	char *text = bad_cells ? NULL :
		fsutil_read_at(dfd, "manifest.json", RESULTSET_MAX_FILE_BYTES, 0, &len);
	int e = errno;
	close(dfd);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (bad_cells) {
		snprintf(err, errlen, "'%s/cells' is %s, not a directory; iomatrix does not "
			 "write through it", dir, S_ISLNK(st.st_mode) ? "a symbolic link" :
			 "a special file");
		return -EINVAL;
	}
	if (!text) {
		snprintf(err, errlen, "cannot read '%s': %s", path, fsutil_strerror(e));
		return -EINVAL;
	}
	char jwhy[128];   /* the message below says it all */
	rs->manifest = rset_parse_json(text, len, jwhy, sizeof(jwhy));
	free(text);
	if (!cJSON_IsObject(rs->manifest)) {
		snprintf(err, errlen, "'%s' is not a JSON object", path);
		goto err;
	}
	v = cJSON_GetObjectItemCaseSensitive(rs->manifest, "schema_version");
	if (!cJSON_IsNumber(v) || v->valuedouble != (double)RESULTSET_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "'%s': unsupported schema_version; this iomatrix reads version %d",
			 path, RESULTSET_SCHEMA_VERSION);
		goto err;
	}
	if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(rs->manifest,
							    "cells")))
		cJSON_AddItemToObject(rs->manifest, "cells",
				      cJSON_CreateArray());
	rs->dir = strdup(dir);
	if (!rs->dir) {
		snprintf(err, errlen, "out of memory");
		goto err;
	}
	/* Strip trailing slashes so paths we print look normal. */
	for (size_t n = strlen(rs->dir); n > 1 && rs->dir[n - 1] == '/'; n--)
		rs->dir[n - 1] = '\0';
	rs->dirfd = open(rs->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rs->dirfd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", rs->dir, strerror(errno));
		goto err;
	}
	if (index_load(rs) < 0) {
		snprintf(err, errlen, "out of memory");
		goto err;
	}
	rs->synced_ns = mono_ns();
	return 0;
err:
	resultset_release(rs);
	return -EINVAL;
}

/* The parameters of a cell file against the suite's: equal but for the
 * path (--resume --device NAME=PATH may move a device; it stays the same
 * device by name). */
static bool params_match(cJSON *want, const cJSON *have)
{
	cJSON *h = have ? cJSON_Duplicate(have, true) : NULL;
	if (!h)
		return false;
	cJSON_DeleteItemFromObjectCaseSensitive(want, "path");
	cJSON_DeleteItemFromObjectCaseSensitive(h, "path");
	bool eq = cJSON_Compare(want, h, true);
	cJSON_Delete(h);
	return eq;
}

int resultset_cell_verify(const struct resultset *rs, const struct cell *c,
			  char *why, size_t whylen)
{
	return resultset_cell_verify_as(rs, c, c->id, why, whylen);
}

int resultset_cell_verify_as(const struct resultset *rs, const struct cell *c,
			     int file_id, char *why, size_t whylen)
{
	char rel[RESULTSET_CELL_NAME_MAX];
	int cfd = -1;
	char *text = NULL;
	cJSON *j = NULL, *want = NULL;
	int ret = -1;
	char cwhy[256];

	resultset_cell_name(file_id, rel, sizeof(rel));
	if (rs->dirfd >= 0)
		cfd = resultset_cells_open(rs->dirfd);
	size_t len;
	if (cfd >= 0)
		text = fsutil_read_at(cfd, rel, RESULTSET_MAX_FILE_BYTES, 0, &len);
	if (!text) {
		snprintf(why, whylen, "'cells/%s' %s", rel, errno == ENOENT ?
			 "is missing" : fsutil_strerror(errno));
		goto out;
	}
	j = rset_parse_json(text, len, cwhy, sizeof(cwhy));
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
	if (!cJSON_IsObject(j)) {
		snprintf(why, whylen, "'cells/%s' is not valid JSON (cut short?)", rel);
	} else if (!cJSON_IsNumber(id) || id->valuedouble != (double)file_id) {
		snprintf(why, whylen, "'cells/%s' holds another cell", rel);
	} else if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok")) {
		snprintf(why, whylen, "'cells/%s' is not a finished measurement", rel);
	} else if (cellcheck_cell(j, cwhy, sizeof(cwhy)) < 0) {
		snprintf(why, whylen, "'cells/%s' %s", rel, cwhy);
	} else if (!(want = cell_to_json(c)) || !params_match(want,
			cJSON_GetObjectItemCaseSensitive(j, "params"))) {
		snprintf(why, whylen, "'cells/%s' was measured with other parameters", rel);
	} else {
		ret = 0;
	}
out:
	cJSON_Delete(want);
	cJSON_Delete(j);
	free(text);
	if (cfd >= 0)
		close(cfd);
	return ret;
}

const cJSON *resultset_cell_entry(const struct resultset *rs, int id)
{
	return id >= 1 && (size_t)id <= rs->nentries ? rs->entries[id - 1] : NULL;
}

bool resultset_cell_ok(const struct resultset *rs, int id)
{
	const char *st = json_str(resultset_cell_entry(rs, id), "status");
	return st && !strcmp(st, "ok");
}

void resultset_facts(const struct resultset *rs, struct resultset_facts *f)
{
	const cJSON *m = rs->manifest;
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(m, "scale");

	f->source_kind = json_str(cJSON_GetObjectItemCaseSensitive(m, "source"), "kind");
	f->hostname = json_str(cJSON_GetObjectItemCaseSensitive(m, "host"), "hostname");
	f->suite_sha256 = json_str(cJSON_GetObjectItemCaseSensitive(m, "suite"), "sha256");
	f->scale = sc ? (cJSON_IsNumber(sc) ? sc->valuedouble : -1) : 1;
}

char **resultset_device_args(const struct resultset *rs, size_t *n)
{
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(rs->manifest, "devices"), *d;
	char **out = calloc((size_t)cJSON_GetArraySize(devs) + 1, sizeof(*out));
	size_t k = 0;

	*n = 0;
	if (!out)
		return NULL;
	cJSON_ArrayForEach(d, devs) {
		const char *name = json_str(d, "name"), *path = json_str(d, "path");
		if (!name || !path)
			continue;
		char *o = malloc(strlen(name) + strlen(path) + 2);
		if (!o)
			continue;
		sprintf(o, "%s=%s", name, path);
		out[k++] = o;
	}
	*n = k;
	return out;
}

int resultset_sync(struct resultset *rs)
{
	int ret = 0;

	if (rs->dirty && (ret = fsutil_syncfs(rs->dirfd)) == 0)
		rs->dirty = false;
	rs->synced_ns = mono_ns();
	return ret;
}

int resultset_write_cell(struct resultset *rs, int id, cJSON *cell,
			 char *err, size_t errlen)
{
	char rel[RESULTSET_CELL_NAME_MAX + 8];
	char *text = cJSON_Print(cell);
	cJSON *entry = index_entry(id, cell);
	int ret;

	memcpy(rel, "cells/", 6);
	resultset_cell_name(id, rel + 6, sizeof(rel) - 6);
	if (!text || !entry) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* cJSON_Print leaves no final newline; files end with one: the
	 * closing brace becomes "}\n" in place of the NUL */
	size_t n = strlen(text);
	text[n] = '\n';
	/* No fsync per cell (two of them cost more than a null-engine cell
	 * on a busy disk): the file is atomic against a crash of iomatrix at
	 * once and durable at the next resultset_sync(), at most a second
	 * later, and before the manifest says the run ended. */
	ret = fsutil_write_atomic_flags_at(rs->dirfd, rel, text, n + 1,
					   FSUTIL_NOSYNC);
	text[n] = '\0';
	if (ret < 0) {
		snprintf(err, errlen, "cannot write '%s/%s': %s", rs->dir, rel,
			 strerror(-ret));
		goto out;
	}
	rs->dirty = true;
	ret = index_set(rs, id, entry);
	entry = NULL;
	if (ret < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (mono_ns() - rs->synced_ns >= RESULTSET_SYNC_NS &&
	    (ret = resultset_sync(rs)) < 0)
		snprintf(err, errlen, "cannot sync '%s': %s", rs->dir, strerror(-ret));
out:
	cJSON_Delete(entry);
	free(text);
	cJSON_Delete(cell);
	return ret;
}

/* The manifest's "cells": the index in id order. */
static int index_to_manifest(struct resultset *rs)
{
	cJSON *cells = cJSON_CreateArray();

	if (!cells)
		return -ENOMEM;
	for (size_t i = 0; i < rs->nentries; i++) {
		cJSON *e;
		if (!rs->entries[i])
			continue;
		if (!(e = cJSON_Duplicate(rs->entries[i], true))) {
			cJSON_Delete(cells);
			return -ENOMEM;
		}
		cJSON_AddItemToArray(cells, e);
	}
	set_item(rs->manifest, "cells", cells);
	return 0;
}

int resultset_finish(struct resultset *rs, const char *status, char *err,
		     size_t errlen)
{
	char now[32];
	int ret;

	/* every cell file durable before the manifest says the run ended */
	if ((ret = resultset_sync(rs)) < 0) {
		snprintf(err, errlen, "cannot sync '%s': %s", rs->dir, strerror(-ret));
		return ret;
	}
	if (index_to_manifest(rs) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	iso8601_now(now, sizeof(now));
	set_item(rs->manifest, "status", cJSON_CreateString(status));
	set_item(rs->manifest, "finished_at", cJSON_CreateString(now));
	return resultset_save_manifest(rs, err, errlen);
}

int resultset_resume_begin(struct resultset *rs, char *err, size_t errlen)
{
	cJSON *m = rs->manifest, *resumed;
	char now[32];

	resultset_remove_stale_temps(rs); /* from a killed run */
	iso8601_now(now, sizeof(now));
	set_item(m, "status", cJSON_CreateString("running"));
	set_item(m, "finished_at", cJSON_CreateNull());
	resumed = cJSON_GetObjectItemCaseSensitive(m, "resumed_at");
	if (!cJSON_IsArray(resumed)) {
		cJSON_DeleteItemFromObjectCaseSensitive(m, "resumed_at");
		resumed = cJSON_AddArrayToObject(m, "resumed_at");
	}
	if (resumed)
		cJSON_AddItemToArray(resumed, cJSON_CreateString(now));
	return resultset_save_manifest(rs, err, errlen);
}

/* A temp file an iomatrix before fsutil left: "manifest.json.tmp.1234",
 * "cells/0001.json.tmp.1234", "suite.yaml.tmp.1234". */
static bool legacy_temp_name(const char *name)
{
	const char *t = strstr(name, ".tmp.");

	if (!t || t == name || strspn(t + 5, "0123456789") != strlen(t + 5) ||
	    !t[5])
		return false;
	return (t - name > 5 && !strncmp(t - 5, ".json", 5)) ||
	       (t - name > 5 && !strncmp(t - 5, ".yaml", 5));
}

/* Remove the temp files of dir that a killed writer left: only iomatrix's
 * own temp names, only files or links (unlinkat never follows), and never
 * through a planted link in place of the directory (SET/cells -> /x). */
static int remove_temps_in(const char *dir)
{
	DIR *d = fsdir_open_fd(open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
	struct dirent *e;
	struct stat st;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!fsutil_is_temp_name(e->d_name) && !legacy_temp_name(e->d_name))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			n++;
	}
	closedir(d);
	return n;
}

int resultset_remove_stale_temps(struct resultset *rs)
{
	char cells[PATH_MAX];

	if (snprintf(cells, sizeof(cells), "%s/cells", rs->dir) >= (int)sizeof(cells))
		return remove_temps_in(rs->dir);
	return remove_temps_in(rs->dir) + remove_temps_in(cells);
}

int resultset_discard_refused(struct resultset *rs)
{
	static const char *const own[] = { "manifest.json", "plan.json", "suite.yaml" };
	int failed = 0;

	for (size_t i = 0; i < rs->nentries; i++) {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(rs->entries[i], "status");
		if (!rs->entries[i])
			continue;
		if (failed || !cJSON_IsString(st) || strcmp(st->valuestring, "failed"))
			return -ENOTEMPTY;
		failed = (int)i + 1;
	}
	if (rs->dirfd < 0)
		return -EBADF;
	resultset_remove_stale_temps(rs);
	if (failed) {
		char name[RESULTSET_CELL_NAME_MAX + 8];
		memcpy(name, "cells/", 6);
		resultset_cell_name(failed, name + 6, sizeof(name) - 6);
		unlinkat(rs->dirfd, name, 0);
	}
	/* cells/ first: if it is not empty (a file of someone else), the set
	 * stays whole */
	if (unlinkat(rs->dirfd, "cells", AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -errno;
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		unlinkat(rs->dirfd, own[i], 0);  /* never follows a link */
	return rmdir(rs->dir) < 0 ? -errno : 0;
}

void resultset_release(struct resultset *rs)
{
	free(rs->dir);
	rs->dir = NULL;
	cJSON_Delete(rs->manifest);
	rs->manifest = NULL;
	for (size_t i = 0; i < rs->nentries; i++)
		cJSON_Delete(rs->entries[i]);
	free(rs->entries);
	rs->entries = NULL;
	rs->nentries = 0;
	if (rs->dirfd >= 0)
		close(rs->dirfd);
	rs->dirfd = -1;
}
