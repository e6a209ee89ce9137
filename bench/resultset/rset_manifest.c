/*
 * rset_manifest.c - the set-level files into struct rset (rset.h): the
 * one reader of manifest.json (suite, host, tool, source, devices and
 * their fingerprints, the command line, the fleet, "reproduces"), for
 * report, list, the archive and reproduce alike, with the one block of
 * a set's defaults (rset_init); and plan.json (the cells a run was to
 * measure).  Every string kept is copied into rs->strs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/fsutil.h"
#include "rset_int.h"

/* Most entries of one manifest list kept (devices, hosts, argv). */
#define MANIFEST_MAX_LIST 100000

const char *rset_own(struct rset *rs, const char *s)
{
	if (!s)
		return NULL;
	char **p = array_grow(rs->strs, &rs->astrs, rs->nstrs, sizeof(*p), 64);
	if (!p)
		return NULL;
	rs->strs = p;
	char *d = strdup(s);
	if (d)
		rs->strs[rs->nstrs++] = d;
	return d;
}

const char *rset_own_str(struct rset *rs, const cJSON *o, const char *key,
			 const char *def)
{
	const char *v = rj_str(o, key, NULL);
	return v ? rset_own(rs, v) : def;
}

/* A non-empty string member, else NULL (fp_disk's convention). */
static const char *own_nonempty(struct rset *rs, const cJSON *o, const char *key)
{
	const char *v = rj_str(o, key, NULL);
	return v && v[0] ? rset_own(rs, v) : NULL;
}

/* Array a's length when it is an array of a sane size, else 0. */
static size_t list_len(const cJSON *a)
{
	int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
	return n > 0 && n <= MANIFEST_MAX_LIST ? (size_t)n : 0;
}

static int device_read(struct rset *rs, const cJSON *d, struct rset_device *v)
{
	const cJSON *fp = rj_get(d, "fingerprint");
	v->name = rset_own_str(rs, d, "name", NULL);
	v->path = rset_own_str(rs, d, "path", "");
	if (!cJSON_IsObject(fp))
		fp = NULL;
	v->rotational = rj_bool(fp, "rotational", -1);
	v->virt = rj_bool(fp, "virtual", -1);
	v->size_bytes = rj_size(fp, "size_bytes");
	v->kind = rset_own_str(rs, fp, "kind", NULL);
	v->model = rset_own_str(rs, fp, "model", NULL);
	v->fs_type = rset_own_str(rs, fp, "fs_type", NULL);
	v->block_device = rset_own_str(rs, fp, "block_device", NULL);
	v->virt_kind = rset_own_str(rs, fp, "virtual_kind", NULL);
	v->loop_backing_file = rset_own_str(rs, fp, "loop_backing_file", NULL);
	v->disk.block_device = own_nonempty(rs, fp, "block_device");
	v->disk.disk = own_nonempty(rs, fp, "disk");
	v->disk.loop_backing_disk = own_nonempty(rs, fp, "loop_backing_disk");
	return rset_obj_read(fp, &v->fp);
}

static int devices_read(struct rset *rs, const cJSON *m)
{
	const cJSON *devs = rj_get(m, "devices"), *d;
	size_t n = list_len(devs);

	if (!n)
		return 0;
	if (!(rs->devices = calloc(n, sizeof(*rs->devices))))
		return -1;
	cJSON_ArrayForEach(d, devs) {
		if (!rj_str(d, "name", NULL) || rs->ndevices >= n)
			continue;
		if (device_read(rs, d, &rs->devices[rs->ndevices++]) < 0)
			return -1;
	}
	return 0;
}

static int manifest_host_read(struct rset *rs, const cJSON *h, struct rset_fleet_host *x)
{
	const cJSON *clock = rj_get(h, "clock"), *devs = rj_get(h, "devices"), *d;
	size_t n = list_len(devs);

	x->name = rset_own_str(rs, h, "name", NULL);
	x->hostname = rset_own_str(rs, h, "hostname", NULL);
	x->version = rset_own_str(rs, h, "version", NULL);
	x->git_commit = rset_own_str(rs, h, "git_commit", NULL);
	x->status = rset_own_str(rs, h, "status", NULL);
	x->error = rset_own_str(rs, h, "error", NULL);
	x->wall_offset_s = rj_num(clock, "wall_offset_s", NAN);
	x->clock_error_ns = rj_num(clock, "error_ns", NAN);
	x->rtt_min_ns = rj_num(clock, "rtt_min_ns", NAN);
	if (rset_obj_read(rj_get(h, "host"), &x->host) < 0 ||
	    rset_obj_read(rj_get(h, "tool"), &x->tool) < 0)
		return -1;
	if (n && !(x->devices = calloc(n, sizeof(*x->devices))))
		return -1;
	cJSON_ArrayForEach(d, devs) {
		if (x->ndevices >= n)
			break;
		struct rset_fleet_dev *v = &x->devices[x->ndevices++];
		v->name = rset_own_str(rs, d, "name", NULL);
		v->path = rset_own_str(rs, d, "path", NULL);
		if (rset_obj_read(rj_get(d, "fingerprint"), &v->fp) < 0)
			return -1;
	}
	return 0;
}

/* A list of strings (non-strings left out) into names. */
static int names_read(struct rset *rs, const cJSON *a, const char ***v, size_t *n)
{
	size_t m = list_len(a);
	const cJSON *x;

	*v = NULL;
	*n = 0;
	if (!m)
		return 0;
	if (!(*v = calloc(m, sizeof(**v))))
		return -1;
	cJSON_ArrayForEach(x, a)
		if (cJSON_IsString(x) && *n < m)
			(*v)[(*n)++] = rset_own(rs, x->valuestring);
	return 0;
}

static int fleet_read(struct rset *rs, const cJSON *fl)
{
	struct rset_fleet *f = &rs->fleet;
	const cJSON *hosts = rj_get(fl, "hosts"), *same = rj_get(fl, "same_machine"), *h;
	size_t n = list_len(hosts), ns = list_len(same);

	if (!cJSON_IsObject(fl))
		return 0;
	f->present = true;
	f->mode = rset_own_str(rs, fl, "mode", NULL);
	const cJSON *la = rj_get(fl, "launch");
	if (cJSON_IsObject(la) && (f->launch.launcher = rset_own_str(rs, la, "launcher", NULL))) {
		f->launch.present = true;
		f->launch.implementation = rset_own_str(rs, la, "implementation", NULL);
		f->launch.ranks = rj_int(la, "ranks", -1, 1, 1 << 24);
		f->launch.nodes = rj_int(la, "nodes", -1, 1, 1 << 24);
	}
	if (n && !(f->hosts = calloc(n, sizeof(*f->hosts))))
		return -1;
	cJSON_ArrayForEach(h, hosts) {
		if (f->nhosts >= n)
			break;
		if (manifest_host_read(rs, h, &f->hosts[f->nhosts++]) < 0)
			return -1;
	}
	if (ns && !(f->same_machine = calloc(ns, sizeof(*f->same_machine))))
		return -1;
	cJSON_ArrayForEach(h, same) {
		if (!cJSON_IsArray(h) || f->nsame_machine >= ns)
			continue;
		struct rset_names *g = &f->same_machine[f->nsame_machine++];
		if (names_read(rs, h, &g->v, &g->n) < 0)
			return -1;
	}
	return 0;
}

/* "reproduces" (reprofile.h writes it): a well-formed one names the
 * original set and its manifest's hash; a tolerance out of (0, 1000) is
 * none. */
static void reproduces_read(struct rset *rs, const cJSON *m)
{
	const cJSON *o = rj_get(m, "reproduces");
	struct rset_reproduces *r = &rs->reproduces;

	if (!rj_str(o, "set", NULL) || !rj_str(o, "manifest_sha256", NULL))
		return;
	r->present = true;
	r->set = rset_own_str(rs, o, "set", NULL);
	r->manifest_sha256 = rset_own_str(rs, o, "manifest_sha256", NULL);
	r->path = rset_own_str(rs, o, "path", NULL);
	double t = rj_num(o, "tolerance_pct", 0);
	r->tolerance_pct = t > 0 && t < 1000 ? t : 0;
}

/* A count: a whole number in lo..RSET_MAX_CELLS, else -2 (a string,
 * 1e400, -5, 2.5). */
static int whole_number(const cJSON *v, int lo)
{
	if (!cJSON_IsNumber(v))
		return -2;
	double d = v->valuedouble;
	if (!(d >= lo && d <= RSET_MAX_CELLS) || d != (double)(int)d)
		return -2;
	return (int)d;
}

static int index_read(struct rset *rs, const cJSON *idx)
{
	size_t n = cJSON_IsArray(idx) ? (size_t)cJSON_GetArraySize(idx) : 0;
	const cJSON *e;

	if (!n)
		return 0;
	if (n > RSET_MAX_CELLS + 1 || !(rs->index = calloc(n, sizeof(*rs->index))))
		return n > RSET_MAX_CELLS + 1 ? 0 : -1;
	cJSON_ArrayForEach(e, idx) {
		struct rset_index_entry *x = &rs->index[rs->nindex++];
		int id = whole_number(rj_get(e, "id"), 1);
		x->id = id < 0 ? -1 : id;
		x->status = rset_own_str(rs, e, "status", NULL);
		x->file = rset_own_str(rs, e, "file", NULL);
	}
	return 0;
}

int rset_init(struct rset *rs, const char *dir, const char *shown)
{
	/* the one block of a set's defaults: what a set whose manifest
	 * says nothing (or that has none) is */
	memset(rs, 0, sizeof(*rs));
	rs->status = "unknown";
	rs->hostname = "unknown";
	rs->source_kind = "iomatrix";
	rs->scale = 1;
	rs->schema_version = 1;
	rs->manifest_cells_total = -1;
	rs->dir = strdup(dir);
	rs->shown = strdup(shown ? shown : dir);
	return rs->dir && rs->shown ? 0 : -1;
}

/* The manifest's members into rs; what it lacks keeps rset_init's
 * default.  0, or -1 when out of memory. */
static int manifest_read(struct rset *rs, const cJSON *m)
{
	const cJSON *suite = rj_get(m, "suite");

	rs->have_manifest = true;
	rs->schema_version = rj_num(m, "schema_version", rs->schema_version);
	rs->status_given = rj_str(m, "status", NULL) != NULL;
	rs->status = rset_own_str(rs, m, "status", rs->status);
	rs->started_at = rset_own_str(rs, m, "started_at", NULL);
	rs->finished_at = rset_own_str(rs, m, "finished_at", NULL);
	/* --scale is > 0: anything else is no scale, the full size */
	double scale = rj_num(m, "scale", rs->scale);
	if (scale > 0)
		rs->scale = scale;
	rs->suite_name = rset_own_str(rs, suite, "name", NULL);
	rs->suite_title = rset_own_str(rs, suite, "title", NULL);
	rs->suite_desc = rset_own_str(rs, suite, "description", NULL);
	rs->suite_sha256 = rset_own_str(rs, suite, "sha256", NULL);
	rs->suite_file = rset_own_str(rs, suite, "file", NULL);
	rs->source_kind = rset_own_str(rs, rj_get(m, "source"), "kind", rs->source_kind);
	rs->hostname = rset_own_str(rs, rj_get(m, "host"), "hostname", rs->hostname);
	rs->cells_total = rj_int(m, "cells_total", 0, 0, RESULTSET_MAX_ID);
	if (rj_get(m, "cells_total"))
		rs->manifest_cells_total = whole_number(rj_get(m, "cells_total"), 0);
	reproduces_read(rs, m);
	if (rset_obj_read(rj_get(m, "source"), &rs->source) < 0 ||
	    rset_obj_read(rj_get(m, "host"), &rs->host) < 0 ||
	    rset_obj_read(rj_get(m, "tool"), &rs->tool) < 0 ||
	    names_read(rs, rj_get(m, "command"), &rs->command, &rs->ncommand) < 0 ||
	    devices_read(rs, m) < 0 || fleet_read(rs, rj_get(m, "fleet")) < 0 ||
	    index_read(rs, rj_get(m, "cells")) < 0)
		return -1;
	return 0;
}

int rset_plan_read(struct rset *rs, const cJSON *plan)
{
	const cJSON *cells = rj_get(plan, "cells"), *p;
	size_t n = list_len(cells);

	rs->have_plan = true;
	if (!rs->suite_name)
		rs->suite_name = rset_own_str(rs, plan, "suite", NULL);
	if (!rs->suite_sha256)
		rs->suite_sha256 = rset_own_str(rs, plan, "sha256", NULL);
	if (rs->cells_total == 0 && cJSON_IsArray(cells))
		rs->cells_total = cJSON_GetArraySize(cells);
	if (!n)
		return 0;
	if (!(rs->plan_cells = calloc(n, sizeof(*rs->plan_cells))))
		return -1;
	cJSON_ArrayForEach(p, cells) {
		const cJSON *id = rj_get(p, "id");
		/* plan.json comes from the set: an id that is no whole number
		 * in range (1e400, -3, 2.5) is not a cell */
		if (!cJSON_IsNumber(id) || !(id->valuedouble >= 1 &&
		    id->valuedouble <= RSET_MAX_CELLS) ||
		    id->valuedouble != (double)(int)id->valuedouble || rs->nplan_cells >= n)
			continue;
		struct rset_plan_cell *c = &rs->plan_cells[rs->nplan_cells++];
		c->id = (int)id->valuedouble;
		c->label = rset_own_str(rs, p, "label", NULL);
		c->pattern = rset_own_str(rs, p, "pattern", NULL);
		c->device = rset_own_str(rs, p, "device", NULL);
	}
	return 0;
}

void rset_manifest_release(struct rset *rs)
{
	for (size_t i = 0; i < rs->ndevices; i++)
		rset_obj_release(&rs->devices[i].fp);
	free(rs->devices);
	for (size_t i = 0; i < rs->fleet.nhosts; i++) {
		struct rset_fleet_host *h = &rs->fleet.hosts[i];
		rset_obj_release(&h->host);
		rset_obj_release(&h->tool);
		for (size_t k = 0; k < h->ndevices; k++)
			rset_obj_release(&h->devices[k].fp);
		free(h->devices);
	}
	free(rs->fleet.hosts);
	for (size_t i = 0; i < rs->fleet.nsame_machine; i++)
		free(rs->fleet.same_machine[i].v);
	free(rs->fleet.same_machine);
	free(rs->command);
	free(rs->plan_cells);
	free(rs->index);
	rset_obj_release(&rs->host);
	rset_obj_release(&rs->tool);
	rset_obj_release(&rs->source);
	for (size_t i = 0; i < rs->nstrs; i++)
		free(rs->strs[i]);
	free(rs->strs);
}

int rset_manifest_load(struct rset *rs, int dirfd, const char *name, char hex[65],
		       char *why, size_t whylen)
{
	cJSON *m = rset_file_read(dirfd, name, NULL, hex, why, whylen);

	if (!m)
		return -1;
	int rc = manifest_read(rs, m);
	cJSON_Delete(m);
	if (rc < 0) {
		snprintf(why, whylen, "out of memory");
		errno = ENOMEM;
	}
	return rc;
}

int rset_load_manifest(const char *setdir, struct rset *rs, char *why, size_t whylen)
{
	char path[PATH_MAX + 16];

	if (rset_init(rs, setdir, NULL) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/manifest.json", setdir);
	return rset_manifest_load(rs, AT_FDCWD, path, NULL, why, whylen);
}
