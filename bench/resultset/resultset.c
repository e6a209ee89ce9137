/*
 * resultset.c - the on-disk result set: a uniquely named directory holding
 * manifest.json, suite.yaml, plan.json and cells/NNNN.json.  Every file goes
 * through atomic_write_file() (temp, fsync, rename, fsync of the directory)
 * so that a crash or SIGKILL never leaves a half-written file behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fsutil.h"
#include "resultset.h"

/* durable: the atomic writer (every file of a live set); else a new file
 * without fsync, for a batch into a hidden directory synced once. */
static int write_json(const char *path, const cJSON *j, bool durable)
{
	char *text = cJSON_Print(j); /* owned here */
	size_t n;
	int ret;

	if (!text)
		return -ENOMEM;
	n = strlen(text);
	/* cJSON_Print leaves no final newline; files end with one. */
	char *buf = malloc(n + 2);
	if (!buf) {
		free(text);
		return -ENOMEM;
	}
	memcpy(buf, text, n);
	buf[n] = '\n';
	buf[n + 1] = '\0';
	free(text);
	ret = durable ? fsutil_write_atomic(path, buf, n + 1) :
		        fsutil_write_new_at(AT_FDCWD, path, buf, n + 1);
	free(buf);
	return ret;
}

int atomic_write_json(const char *path, const cJSON *j)
{
	return write_json(path, j, true);
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
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/manifest.json", rs->dir);
	return atomic_write_json(path, rs->manifest);
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

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
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
		add_str_or_null(o, "title", mi->title);
		add_str_or_null(o, "description", mi->description);
		add_str_or_null(o, "file", mi->file);
		cJSON_AddStringToObject(o, "sha256", mi->sha256);
	}
	cJSON_AddArrayToObject(m, "devices");
	cJSON_AddNumberToObject(m, "cells_total", (double)mi->cells_total);
	cJSON_AddArrayToObject(m, "cells");
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

cJSON *resultset_plan_to_json(const struct suite *s)
{
	cJSON *j = cJSON_CreateObject(), *cells;

	if (!j)
		return NULL;
	if (!cJSON_AddNumberToObject(j, "schema_version", RESULTSET_SCHEMA_VERSION) ||
	    !cJSON_AddStringToObject(j, "suite", s->name ? s->name : "") ||
	    !cJSON_AddStringToObject(j, "sha256", s->sha256) ||
	    !(cells = cJSON_AddArrayToObject(j, "cells")))
		goto err;
	for (size_t i = 0; i < s->ncells; i++) {
		cJSON *c = cell_to_json(&s->cells[i]);
		if (!c)
			goto err;
		cJSON_AddItemToArray(cells, c);
	}
	if (plan_ssd_to_json(s, j) < 0) /* purge, preconditioning, rounds */
		goto err;
	return j;
err:
	cJSON_Delete(j);
	return NULL;
}

int resultset_create(struct resultset *rs, const char *results_root,
		     const char *out_dir, const char *suite_name,
		     cJSON *manifest, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret;

	rs->dir = NULL;
	rs->manifest = manifest;
	if (!manifest) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (out_dir) {
		ret = fsutil_mkdir_p(out_dir);
		if (ret < 0) {
			snprintf(err, errlen,
				 "cannot create result set '%s': %s; choose another --out DIR",
				 out_dir, strerror(-ret));
			goto err;
		}
		/* --out names the set itself: never mix two runs in one. */
		snprintf(path, sizeof(path), "%s/manifest.json", out_dir);
		if (access(path, F_OK) == 0) {
			snprintf(err, errlen,
				 "'%s' already holds a result set; choose another --out DIR or use --resume",
				 out_dir);
			ret = -EEXIST;
			goto err;
		}
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

		ret = fsutil_mkdir_p(results_root);
		if (ret < 0) {
			snprintf(err, errlen,
				 "cannot create results directory '%s': %s; use --out DIR or set IOMATRIX_RESULTS",
				 results_root, strerror(-ret));
			goto err;
		}
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
	set_item(manifest, "status", cJSON_CreateString("running"));
	if (!cJSON_GetObjectItemCaseSensitive(manifest, "cells"))
		cJSON_AddItemToObject(manifest, "cells", cJSON_CreateArray());
	ret = resultset_save_manifest(rs, err, errlen);
	if (ret < 0)
		goto err;
	fsutil_fsync_dir_at(AT_FDCWD, rs->dir);
	return 0;
err:
	free(rs->dir);
	rs->dir = NULL;
	cJSON_Delete(rs->manifest);
	rs->manifest = NULL;
	return ret;
}

cJSON *resultset_read_json(const char *path, char *err, size_t errlen)
{
	char *text = fsutil_read(path, RESULTSET_MAX_FILE_BYTES, NULL);
	cJSON *j;

	if (!text) {
		if (errno == EFBIG)
			snprintf(err, errlen, "'%s' is larger than %u MiB: not a result file "
				 "iomatrix wrote", path, RESULTSET_MAX_FILE_BYTES >> 20);
		else
			snprintf(err, errlen, "cannot read '%s': %s", path,
				 fsutil_strerror(errno));
		return NULL;
	}
	j = cJSON_Parse(text);
	free(text);
	if (!j)
		snprintf(err, errlen, "'%s' is not valid JSON", path);
	return j;
}

int resultset_open(struct resultset *rs, const char *dir, char *err,
		   size_t errlen)
{
	char path[PATH_MAX];
	const cJSON *v;

	rs->dir = NULL;
	rs->manifest = NULL;
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
	char *text = bad_cells ? NULL :
		fsutil_read_at(dfd, "manifest.json", RESULTSET_MAX_FILE_BYTES, 0, NULL);
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
	rs->manifest = cJSON_Parse(text);
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
	return 0;
err:
	cJSON_Delete(rs->manifest);
	rs->manifest = NULL;
	return -EINVAL;
}

static const char *json_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
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
	char rel[32];
	int dfd = open(rs->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), cfd = -1;
	char *text = NULL;
	cJSON *j = NULL, *want = NULL;
	int ret = -1;

	snprintf(rel, sizeof(rel), "%04d.json", c->id);
	if (dfd >= 0)
		cfd = openat(dfd, "cells", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd >= 0)
		text = fsutil_read_at(cfd, rel, RESULTSET_MAX_FILE_BYTES, 0, NULL);
	if (!text) {
		snprintf(why, whylen, "'cells/%s' %s", rel, errno == ENOENT ?
			 "is missing" : fsutil_strerror(errno));
		goto out;
	}
	j = cJSON_Parse(text);
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
	if (!cJSON_IsObject(j)) {
		snprintf(why, whylen, "'cells/%s' is not valid JSON (cut short?)", rel);
	} else if (!cJSON_IsNumber(id) || id->valuedouble != (double)c->id) {
		snprintf(why, whylen, "'cells/%s' holds another cell", rel);
	} else if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok")) {
		snprintf(why, whylen, "'cells/%s' is not a finished measurement", rel);
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
	if (dfd >= 0)
		close(dfd);
	return ret;
}

const cJSON *resultset_cell_entry(const struct resultset *rs, int id)
{
	const cJSON *cells =
		cJSON_GetObjectItemCaseSensitive(rs->manifest, "cells");
	const cJSON *e;

	cJSON_ArrayForEach(e, cells) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "id");
		if (cJSON_IsNumber(v) && v->valueint == id)
			return e;
	}
	return NULL;
}

int resultset_write_cell(struct resultset *rs, int id, cJSON *cell,
			 char *err, size_t errlen)
{
	char rel[32], path[PATH_MAX];
	cJSON *cells, *entry = NULL, *e;
	const cJSON *params;
	const char *status;
	int ret;

	snprintf(rel, sizeof(rel), "cells/%04d.json", id);
	snprintf(path, sizeof(path), "%s/%s", rs->dir, rel);
	ret = write_json(path, cell, !rs->batch);
	if (ret < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path,
			 strerror(-ret));
		goto out;
	}

	entry = cJSON_CreateObject();
	if (!entry) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	params = cJSON_GetObjectItemCaseSensitive(cell, "params");
	status = json_str(cell, "status");
	cJSON_AddNumberToObject(entry, "id", id);
	cJSON_AddStringToObject(entry, "file", rel);
	if (json_str(params, "device"))
		cJSON_AddStringToObject(entry, "device", json_str(params, "device"));
	else
		cJSON_AddNullToObject(entry, "device");
	if (json_str(params, "label"))
		cJSON_AddStringToObject(entry, "label", json_str(params, "label"));
	else
		cJSON_AddNullToObject(entry, "label");
	cJSON_AddStringToObject(entry, "status", status ? status : "ok");
	if (json_str(cell, "host")) /* fleet sets */
		cJSON_AddStringToObject(entry, "host", json_str(cell, "host"));

	/* Keep the index sorted by id and free of duplicates (resume may
	 * rewrite a cell that failed before).  The array is rebuilt rather
	 * than edited in place: cJSON 1.7.15's insert after a replace of the
	 * first item loses elements. */
	cells = cJSON_GetObjectItemCaseSensitive(rs->manifest, "cells");
	const cJSON *last = cells && cells->child ? cells->child->prev : NULL;
	const cJSON *lid = cJSON_GetObjectItemCaseSensitive(last, "id");
	if (rs->batch && cells && (!last || (cJSON_IsNumber(lid) && lid->valueint < id))) {
		/* a batch writes ids in order: append, and leave the manifest
		 * to resultset_finish (rewriting it per cell is quadratic) */
		cJSON_AddItemToArray(cells, entry);
		entry = NULL;
		ret = 0;
		goto out;
	}
	cJSON *sorted = cJSON_CreateArray();
	if (!sorted) {
		cJSON_Delete(entry);
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	while (cells && cells->child) {
		e = cJSON_DetachItemViaPointer(cells, cells->child);
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "id");
		int eid = cJSON_IsNumber(v) ? v->valueint : 0;
		if (entry && eid >= id) {
			cJSON_AddItemToArray(sorted, entry);
			entry = NULL;
		}
		if (eid == id)
			cJSON_Delete(e);
		else
			cJSON_AddItemToArray(sorted, e);
	}
	if (entry)
		cJSON_AddItemToArray(sorted, entry);
	entry = NULL;
	set_item(rs->manifest, "cells", sorted);
	ret = resultset_save_manifest(rs, err, errlen);
out:
	cJSON_Delete(cell);
	return ret;
}

int resultset_resume_begin(struct resultset *rs, char *err, size_t errlen)
{
	cJSON *m = rs->manifest, *resumed;
	char now[32];

	resultset_remove_stale_temps(rs); /* from a killed run */
	iso8601_now(now, sizeof(now));
	cJSON_ReplaceItemInObjectCaseSensitive(m, "status", cJSON_CreateString("running"));
	cJSON_ReplaceItemInObjectCaseSensitive(m, "finished_at", cJSON_CreateNull());
	resumed = cJSON_GetObjectItemCaseSensitive(m, "resumed_at");
	if (!cJSON_IsArray(resumed)) {
		cJSON_DeleteItemFromObjectCaseSensitive(m, "resumed_at");
		resumed = cJSON_AddArrayToObject(m, "resumed_at");
	}
	if (resumed)
		cJSON_AddItemToArray(resumed, cJSON_CreateString(now));
	return resultset_save_manifest(rs, err, errlen);
}

int resultset_finish(struct resultset *rs, const char *status, char *err,
		     size_t errlen)
{
	char now[32];

	iso8601_now(now, sizeof(now));
	set_item(rs->manifest, "status", cJSON_CreateString(status));
	set_item(rs->manifest, "finished_at", cJSON_CreateString(now));
	if (rs->batch) {
		/* one sync for every file of the batch, then the manifest as
		 * always (the caller renames the directory into place after) */
		int fd = open(rs->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd) < 0) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			snprintf(err, errlen, "cannot sync '%s': %s", rs->dir, strerror(e));
			return -e;
		}
		close(fd);
	}
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
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;
	int n = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
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

void resultset_release(struct resultset *rs)
{
	free(rs->dir);
	rs->dir = NULL;
	cJSON_Delete(rs->manifest);
	rs->manifest = NULL;
}
