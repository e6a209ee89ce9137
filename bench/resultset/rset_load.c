/*
 * rset_load.c - load a result set directory into struct rset (rset.h).  Any
 * file may be truncated, corrupt, hostile or from a newer iomatrix: each
 * problem is a warning naming the file, and whatever is readable is kept.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fsutil.h"
#include "cells.h"
#include "rset_int.h"
#include "cellcheck.h"
#include "histfile.h"
#include "stats/stats.h"
#include "stats/interval.h"
#include "util/sysload.h"
#include "qosfile.h"
#include "suite/keys.h"


/* What rset_file_read said of a file of the set, as a warning (nothing
 * when there is none: ENOENT). */
static void file_warn(struct rset *rs, const char *shown, int e, const char *why)
{
	if (e == EFBIG)
		errlist_add(&rs->warnings, rs->shown, 0, 0, "'%s' is larger than %u MiB; skipped",
			    shown, RESULTSET_MAX_FILE_BYTES >> 20);
	else if (e == EBADMSG)
		errlist_add(&rs->warnings, rs->shown, 0, 0, "'%s': %s; skipped", shown, why);
	else if (e == EPROTO)
		errlist_add(&rs->warnings, rs->shown, 0, 0,
			    "'%s' has schema_version %s, newer than this iomatrix reads (%d); "
			    "skipped (upgrade iomatrix)", shown, why, RESULTSET_SCHEMA_VERSION);
	else if (e != ENOENT)
		errlist_add(&rs->warnings, rs->shown, 0, 0, "cannot read '%s': %s; skipped",
			    shown, why);
}

/* Read and parse a JSON file of the set; NULL with a warning (errno as
 * rset_file_read says).  skip: a top-level member not to parse (NULL:
 * none). */
static cJSON *load_json(struct rset *rs, int dirfd, const char *name,
			const char *shown, const char *skip)
{
	char why[128];
	cJSON *j = rset_file_read(dirfd, name, skip, NULL, why, sizeof(why));

	if (!j) {
		int e = errno;
		file_warn(rs, shown, e, why);
		errno = e;
	}
	return j;
}

static void stat_read(const cJSON *o, struct rset_stat *s)
{
	memset(s, 0, sizeof(*s));
	if (!cJSON_IsObject(o))
		return;
	s->mean = rj_num(o, "mean", NAN);
	if (isnan(s->mean))
		return;
	s->n = rj_int(o, "n", 1, 0, 1000000);
	if (s->n == 0)
		s->n = 1;
	s->stddev = rj_num(o, "stddev", 0);
	s->min = rj_num(o, "min", s->mean);
	s->max = rj_num(o, "max", s->mean);
	s->cv = rj_num(o, "cv", s->mean ? s->stddev / s->mean : 0);
	s->ci95 = rj_num(o, "ci95", 0);
}

/* Fallback when a cell has no summary: compute it from the repetitions. */
static void stat_from_reps(const cJSON *reps, const char *dir,
			   const char *key, const char *sub, struct rset_stat *s)
{
	double x[256];
	size_t n = 0;
	const cJSON *r;

	cJSON_ArrayForEach(r, reps) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, dir);
		if (!cJSON_IsObject(d) || n >= 256)
			continue;
		const cJSON *src = sub ? cJSON_GetObjectItemCaseSensitive(d, sub) : d;
		double v = rj_num(src, key, NAN);
		if (!isnan(v))
			x[n++] = v;
	}
	memset(s, 0, sizeof(*s));
	if (!n)
		return;
	struct summary sm;
	summary_compute(x, n, &sm);
	s->n = (int)sm.n;
	s->mean = sm.mean;
	s->stddev = sm.stddev;
	s->min = sm.min;
	s->max = sm.max;
	s->cv = sm.cv;
	s->ci95 = sm.ci95;
}

static void pct_read(const cJSON *lat, struct rset_dir *d)
{
	d->lat_min_ns = rj_num(lat, "min", 0);
	d->npct = rset_pcts_read(rj_get(lat, "percentiles"), d->pct_p, d->pct_ns);
}


/* Each repetition's IOPS and bandwidth summed over its directions, for
 * the ratio intervals; a repetition without IOPS is left out. */
static void rep_values(struct rset_cell *c, const cJSON *reps)
{
	int n = cJSON_GetArraySize(reps);
	const cJSON *r;

	if (n <= 0 || n > 100000 || !(c->rep_iops = calloc((size_t)n, sizeof(double))) ||
	    !(c->rep_bw = calloc((size_t)n, sizeof(double)))) {
		free(c->rep_iops);
		c->rep_iops = NULL;
		return;
	}
	cJSON_ArrayForEach(r, reps) {
		double iops = 0, bw = 0;
		bool any = false;
		for (int k = 0; k < DIR__COUNT; k++) {
			const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, dir_name(k));
			double v = rj_num(d, "iops", NAN);
			if (!isfinite(v))
				continue;
			any = true;
			iops += v;
			v = rj_num(d, "bw_bytes_s", 0);
			bw += isfinite(v) ? v : 0;
		}
		if (!any || c->nrepv >= (size_t)n)
			continue;
		c->rep_iops[c->nrepv] = iops;
		c->rep_bw[c->nrepv++] = bw;
	}
}

/* latency_kind; absent (sets from before it) means total, except an old
 * fio import whose warning says its percentiles are fio's clat. */
static void lat_kinds(struct rset_cell *c, const cJSON *j)
{
	const char *k = rj_str(j, "latency_kind", NULL);

	c->lat_mean_kind = c->lat_pct_kind = LAT_TOTAL;
	if (k) {
		if (!strcmp(k, "completion"))
			c->lat_mean_kind = c->lat_pct_kind = LAT_COMPLETION;
		else if (!strcmp(k, "response"))
			c->lat_mean_kind = c->lat_pct_kind = LAT_RESPONSE;
		return;
	}
	for (size_t i = 0; i < c->nwarnings; i++)
		if (strstr(c->warnings[i], "percentiles") &&
		    strstr(c->warnings[i], "are fio's completion latency (clat"))
			c->lat_pct_kind = LAT_COMPLETION;
}

/* One repetition's host_load into the cell's tally (rset.h). */
static void cell_host_load(struct rset_cell *c, const cJSON *l)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(l, "other_busy_cpus");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(l, "cpu_steal_pct");
	if (!cJSON_IsNumber(o) || !cJSON_IsNumber(st))
		return;
	c->load_reps++;
	if (sysload_competed(o->valuedouble, st->valuedouble))
		c->load_competed++;
	if (o->valuedouble > c->load_other_cpus_max)
		c->load_other_cpus_max = o->valuedouble;
	if (st->valuedouble > c->load_steal_pct_max)
		c->load_steal_pct_max = st->valuedouble;
}

/* The repetitions, typed (rset.h). */
static int reps_read(struct rset_cell *c, const cJSON *reps)
{
	const cJSON *r;
	int i = 0;

	if (!c->nreps)
		return 0;
	if (!(c->reps = calloc((size_t)c->nreps, sizeof(*c->reps))))
		return -1;
	cJSON_ArrayForEach(r, reps)
		if (i < c->nreps && rset_rep_read(r, &c->reps[i++]) < 0)
			return -1;
	return 0;
}

static int cell_measurements(struct rset_cell *c, const cJSON *j)
{
	const cJSON *reps = rj_get(j, "repetitions");
	const cJSON *sum = rj_get(j, "summary");
	const cJSON *merged = cJSON_GetObjectItemCaseSensitive(sum, "lat_ns_merged");
	const cJSON *r;
	double rt = 0, usr = 0, sys = 0, perio = 0;
	int n = 0, nperio = 0;

	cJSON_ArrayForEach(r, reps) {
		n++;
		rt += rj_num(r, "runtime_ns", 0);
		const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(r, "cpu");
		usr += rj_num(cpu, "usr_pct", 0);
		sys += rj_num(cpu, "sys_pct", 0);
		const cJSON *pio = cJSON_GetObjectItemCaseSensitive(cpu, "ns_per_io");
		if (cJSON_IsNumber(pio) && pio->valuedouble >= 0) {
			perio += pio->valuedouble;
			nperio++;
		} else if (cJSON_IsNull(pio) &&
			   cJSON_IsString(cJSON_GetObjectItemCaseSensitive(cpu, "ns_per_io_why"))) {
			c->cpu_per_io_sqpoll = true;
		}
		cell_host_load(c, cJSON_GetObjectItemCaseSensitive(r, "host_load"));
	}
	c->nreps = n;
	rset_cell_steady_read(rj_get(j, "steady_state"), &c->steady);
	if (reps_read(c, reps) < 0)
		return -1;
	rep_values(c, reps);
	lat_kinds(c, j);
	c->have_cpu_per_io = nperio > 0;
	c->cpu_ns_per_io = nperio ? perio / nperio : 0;
	if (n) {
		c->runtime_mean_ns = rt / n;
		c->cpu_usr_pct = usr / n;
		c->cpu_sys_pct = sys / n;
	}
	for (int k = 0; k < DIR__COUNT; k++) {
		struct rset_dir *d = &c->dir[k];
		const cJSON *sd = cJSON_GetObjectItemCaseSensitive(sum, dir_name(k));
		const cJSON *first = NULL;
		cJSON_ArrayForEach(r, reps) {
			const cJSON *rd = cJSON_GetObjectItemCaseSensitive(r, dir_name(k));
			if (cJSON_IsObject(rd)) {
				if (!first)
					first = rd;
				d->ios += rj_size(rd, "ios");
				d->bytes += rj_size(rd, "bytes");
			}
		}
		if (cJSON_IsObject(sd)) {
			stat_read(cJSON_GetObjectItemCaseSensitive(sd, "iops"), &d->iops);
			stat_read(cJSON_GetObjectItemCaseSensitive(sd, "bw_bytes_s"), &d->bw);
			stat_read(cJSON_GetObjectItemCaseSensitive(sd, "lat_mean_ns"), &d->lat_mean);
			stat_read(cJSON_GetObjectItemCaseSensitive(sd, "lat_p50_ns"), &d->lat_p50);
			stat_read(cJSON_GetObjectItemCaseSensitive(sd, "lat_p99_ns"), &d->lat_p99);
			stat_read(cJSON_GetObjectItemCaseSensitive(sd, "lat_max_ns"), &d->lat_max);
		} else if (first && !cJSON_IsObject(sum)) {
			/* no summary at all (not ours): from the repetitions; a
			 * summary without this direction means it had no IO
			 * (randrw at rwmixread 0 or 100, as the PTS mixes are) */
			stat_from_reps(reps, dir_name(k), "iops", NULL, &d->iops);
			stat_from_reps(reps, dir_name(k), "bw_bytes_s", NULL, &d->bw);
			stat_from_reps(reps, dir_name(k), "mean", "lat_ns", &d->lat_mean);
			stat_from_reps(reps, dir_name(k), "max", "lat_ns", &d->lat_max);
		}
		d->present = d->iops.n > 0 || d->bw.n > 0;
		if (!d->present)
			continue;
		const cJSON *ml = cJSON_GetObjectItemCaseSensitive(merged, dir_name(k));
		bool all = cJSON_IsObject(ml);
		if (!cJSON_IsObject(ml) && first)
			ml = cJSON_GetObjectItemCaseSensitive(first, "lat_ns");
		if (cJSON_IsObject(ml))
			pct_read(ml, d);
		d->lat_mean_all = all ? rj_num(ml, "mean", NAN) : NAN;
		d->lat_p99_all = NAN;
		for (size_t i = 0; all && i < d->npct; i++)
			if (fabs(d->pct_p[i] - 99) < 1e-9)
				d->lat_p99_all = d->pct_ns[i];
		/* p50/p99 from the merged percentiles when the summary lacks them */
		for (size_t i = 0; i < d->npct; i++) {
			if (d->lat_p99.n == 0 && fabs(d->pct_p[i] - 99) < 1e-9) {
				d->lat_p99.n = 1;
				d->lat_p99.mean = d->lat_p99.min = d->lat_p99.max = d->pct_ns[i];
			}
			if (d->lat_p50.n == 0 && fabs(d->pct_p[i] - 50) < 1e-9) {
				d->lat_p50.n = 1;
				d->lat_p50.mean = d->lat_p50.min = d->lat_p50.max = d->pct_ns[i];
			}
		}
		if (!isfinite(d->lat_mean_all) && d->lat_mean.n)
			d->lat_mean_all = d->lat_mean.mean;
		if (!isfinite(d->lat_p99_all) && d->lat_p99.n)
			d->lat_p99_all = d->lat_p99.mean;
		const cJSON *ser = first ? cJSON_GetObjectItemCaseSensitive(first, "series") : NULL;
		const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(ser, "bytes");
		uint64_t iv = rj_size(ser, "interval_ns");
		int nb = cJSON_GetArraySize(bytes);
		if (iv > 0 && nb > 0 && nb <= 10000000) {
			d->series_bw = malloc(sizeof(double) * (size_t)nb);
			if (d->series_bw) {
				const cJSON *b;
				size_t i = 0;
				cJSON_ArrayForEach(b, bytes)
					d->series_bw[i++] = cJSON_IsNumber(b) ?
						b->valuedouble * 1e9 / (double)iv : 0;
				/* the last interval is usually cut short by the end of
				 * the run: scaled by its real length, or dropped, by
				 * the fit's own rule (interval_sample_len) */
				double rt0 = rj_num(cJSON_GetArrayItem(reps, 0), "runtime_ns", 0) / 1e9;
				double ivs = (double)iv / 1e9;
				double last = i ? interval_sample_len(i - 1, i, ivs, rt0) : ivs;
				if (i > 0 && last <= 0)
					i--;
				else if (i > 0 && last < ivs)
					d->series_bw[i - 1] *= ivs / last;
				d->nseries = i;
				d->series_interval_ns = iv;
				d->series_runtime_s = rt0;
			}
		}
	}
	return 0;
}

/* The parameters through the product's own reader, cell_from_json (the
 * key table's defaults for what an importer left out).  0, or -1 with a
 * warning when they are not a cell's parameters. */
static int cell_params(struct rset *rs, struct rset_cell *c, const cJSON *params,
		       const char *shown)
{
	struct cell *p = &c->cell;
	char err[256];

	if (cell_from_json(params, p, err, sizeof(err)) < 0) {
		errlist_add(&rs->warnings, rs->shown, 0, 0, "'%s': params: %s; skipped",
			    shown, err);
		return -1;
	}
	/* the strings cell_from_json borrowed from the tree, which is freed */
	const char *dev = p->device, *path = p->path;
	p->device = rset_own(rs, dev);
	p->path = rset_own(rs, path);
	if ((dev && !p->device) || (path && !p->path)) {
		errlist_add(&rs->warnings, rs->shown, 0, 0, "'%s': out of memory; skipped", shown);
		return -1;
	}
	if (!p->device || !p->device[0])
		p->device = "?";
	c->recorded = cell_json_keys(params);
	return 0;
}

static void rset_cell_release(struct rset_cell *c)
{
	for (int k = 0; k < DIR__COUNT; k++)
		free(c->dir[k].series_bw);
	free(c->rep_iops);
	free(c->rep_bw);
	for (int i = 0; c->reps && i < c->nreps; i++)
		rset_rep_release(&c->reps[i]);
	free(c->reps);
	rset_obj_release(&c->fio_options);
	rset_obj_release(&c->inferred_why);
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	for (size_t i = 0; i < c->fleet.nhosts; i++)
		free(c->fleet.hosts[i]);
	free(c->fleet.hosts);
	if (c->sweep)
		sweep_data_release(c->sweep);
	free(c->sweep);
	free(c->sweep_error);
	memset(c, 0, sizeof(*c));
}

/* The strings of array a (others left out), copied.  0, or -1 on OOM. */
static int strings_copy(const cJSON *a, char ***out, size_t *n)
{
	int m = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
	const cJSON *x;

	if (m <= 0 || m > 100000 || !(*out = calloc((size_t)m, sizeof(**out))))
		return m <= 0 || m > 100000 ? 0 : -1;
	cJSON_ArrayForEach(x, a)
		if (cJSON_IsString(x) && !((*out)[(*n)++] = strdup(x->valuestring)))
			return -1;
	return 0;
}

/* The members of cell file j beside its measurements: status, error,
 * warnings, the fleet's, the load sweep.  0, or -1 when out of memory. */
static int cell_members(struct rset *rs, struct rset_cell *c, const cJSON *j)
{
	const cJSON *fl = rj_get(j, "fleet");
	char err[256];

	c->status = rset_own_str(rs, j, "status", "ok");
	c->error = rset_own_str(rs, j, "error", NULL);
	c->host = rset_own_str(rs, j, "host", NULL);
	c->fleet_session = rj_num(j, "fleet_session", 0);
	if (cJSON_IsObject(fl)) {
		c->fleet.present = true;
		c->fleet.start_skew_ns = rj_num(fl, "start_skew_ns", 0);
		if (strings_copy(rj_get(fl, "hosts"), &c->fleet.hosts, &c->fleet.nhosts) < 0)
			return -1;
	}
	if (rset_obj_read(rj_get(rj_get(j, "source"), "inferred_keys"), &c->inferred_why) < 0)
		return -1;
	for (size_t i = 0; i < c->inferred_why.n; i++) {
		int k = key_find(c->inferred_why.f[i].key);
		if (k >= 0)
			c->inferred |= 1ULL << k;
	}
	if (rset_obj_read(rj_get(rj_get(j, "source"), "fio_options"), &c->fio_options) < 0 ||
	    strings_copy(rj_get(j, "warnings"), &c->warnings, &c->nwarnings) < 0 ||
	    !(c->sweep = calloc(1, sizeof(*c->sweep))))
		return -1;
	int rc = resultset_sweep_from_json(j, c->sweep, err, sizeof(err));
	if (rc <= 0) {
		free(c->sweep);
		c->sweep = NULL;
	}
	if (rc < 0 && !(c->sweep_error = strdup(err)))
		return -1;
	return 0;
}

/* Load cells/NNNN.json for id; 0 ok, -1 skipped (warning given), -2 the
 * set is refused (the reason, naming the cell, in errs). */
static int cell_load(struct rset *rs, int cellsfd, int id, struct rset_cell *c,
		     bool summaries, struct errlist *errs)
{
	char name[RESULTSET_CELL_NAME_MAX], shown[48], why[256];

	resultset_cell_name(id, name, sizeof(name));
	snprintf(shown, sizeof(shown), "cells/%s", name);
	memset(c, 0, sizeof(*c));
	cJSON *j = load_json(rs, cellsfd, name, shown, summaries ? "repetitions" : NULL);
	if (!j) {
		if (errno == ENOENT)
			errlist_add(&rs->warnings, rs->shown, 0, 0,
				    "'%s' is listed in the manifest but missing; skipped", shown);
		return -1;
	}
	int fid = rj_int(j, "id", id, 1, RESULTSET_MAX_ID);
	if (fid != id)
		errlist_add(&rs->warnings, rs->shown, 0, 0,
			    "'%s' says id %d; using %d from its name", shown, fid, id);
	c->id = id;
	const cJSON *params = rj_get(j, "params");
	if (!cJSON_IsObject(params)) {
		errlist_add(&rs->warnings, rs->shown, 0, 0,
			    "'%s' has no params object; skipped", shown);
		cJSON_Delete(j);
		return -1;
	}
	if (cell_params(rs, c, params, shown) < 0) {
		cJSON_Delete(j);
		return -1;
	}
	if (cellcheck_cell(j, why, sizeof(why)) < 0) {
		/* a cell whose interval histograms disagree with its own
		 * histogram was edited or damaged: no number of the set is
		 * trusted (cellcheck holds it to that too: asked again only
		 * when it failed, to tell that failure apart) */
		if (histfile_check_cell(j, why, sizeof(why)) < 0) {
			errlist_add(errs, rs->dir, 0, 0, "'%s': %s; these are not the "
				    "histograms iomatrix wrote, so the set is refused (run "
				    "'iomatrix verify' on it to see what changed, and measure "
				    "the cell again)", shown, why);
			cJSON_Delete(j);
			rset_cell_release(c);
			return -2;
		}
		/* numbers out of bounds are not published: the cell reads as
		 * failed, with the reason */
		errlist_add(&rs->warnings, rs->shown, 0, 0, "'%s': %s; treated as failed", shown, why);
		cJSON_DeleteItemFromObjectCaseSensitive(j, "status");
		cJSON_AddStringToObject(j, "status", "failed");
		cJSON_DeleteItemFromObjectCaseSensitive(j, "error");
		cJSON_AddStringToObject(j, "error", why);
		cJSON_DeleteItemFromObjectCaseSensitive(j, "repetitions");
		cJSON_DeleteItemFromObjectCaseSensitive(j, "summary");
	}
	/* the tree is read into the struct and freed: readers get structs */
	int rc = cell_members(rs, c, j) < 0 || cell_measurements(c, j) < 0 ? -1 : 0;
	cJSON_Delete(j);
	if (rc < 0) {
		errlist_add(&rs->warnings, rs->shown, 0, 0, "'%s': out of memory; skipped", shown);
		rset_cell_release(c);
		return -1;
	}
	c->ok = !strcmp(c->status, "ok") && (c->dir[0].present || c->dir[1].present);
	if (!strcmp(c->status, "ok") && !c->ok)
		errlist_add(&rs->warnings, rs->shown, 0, 0,
			    "'%s' has status ok but no measurements; treated as failed", shown);
	return 0;
}

/* Append id to *ids (grown by doubling).  0, or -1 when out of memory. */
static int ids_push(int **ids, size_t *n, size_t *alloc, int id)
{
	int *p = array_grow(*ids, alloc, *n, sizeof(*p), 64);
	if (!p)
		return -1;
	*ids = p;
	(*ids)[(*n)++] = id;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

/* Ids of the cells to read: the manifest index when readable, and every
 * cells/NNNN.json (a run writes the index only when it ends: a set whose
 * run was killed knows its cells from cells/ alone). */
static int collect_ids(struct rset *rs, int cellsfd, int **ids_out, size_t *n_out)
{
	int *ids = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < rs->nindex; i++) {
		const struct rset_index_entry *e = &rs->index[i];
		int d = e->id;
		if (d < 0) {
			errlist_add(&rs->warnings, rs->shown, 0, 0,
				    "'manifest.json': cell index entry without a valid id; skipped");
			continue;
		}
		char want[RESULTSET_CELL_NAME_MAX + 8];
		memcpy(want, "cells/", 6);
		resultset_cell_name(d, want + 6, sizeof(want) - 6);
		const char *file = e->file ? e->file : want;
		if (strcmp(file, want))
			errlist_add(&rs->warnings, rs->shown, 0, 0,
				    "'manifest.json': cell %d names file '%.80s'; "
				    "reading '%s' instead", d, file, want);
		if (ids_push(&ids, &n, &alloc, d) < 0)
			goto oom;
	}
	int *disk = NULL;
	size_t ndisk = 0;
	if (resultset_cells_list(cellsfd, &disk, &ndisk) < 0)
		goto oom;
	for (size_t i = 0; i < ndisk; i++)
		if (ids_push(&ids, &n, &alloc, disk[i]) < 0) {
			free(disk);
			goto oom;
		}
	free(disk);
	if (n > 1) /* qsort(NULL, 0, ...) is undefined: no cell at all */
		qsort(ids, n, sizeof(int), cmp_int);
	/* drop duplicates */
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || ids[m - 1] != ids[i])
			ids[m++] = ids[i];
	*ids_out = ids;
	*n_out = m;
	return 0;
oom:
	free(ids);
	return -1;
}

const struct rset_device *rset_device_find(const struct rset *rs, const char *name)
{
	for (size_t i = 0; i < rs->ndevices; i++)
		if (!strcmp(rs->devices[i].name, name))
			return &rs->devices[i];
	return NULL;
}

static int load(const char *dir, const char *shown, struct rset *rs, struct errlist *errs,
		bool summaries)
{
	int dirfd = -1, cellsfd = -1, *ids = NULL, ret = -1;
	size_t nids = 0;
	struct stat st;
	char why[128];

	if (rset_init(rs, dir, shown) < 0) {
		errlist_add(errs, dir, 0, 0, "out of memory");
		return -1;
	}
	size_t nl;
	if (fsutil_is_temp_name(dir + fsutil_last_component(dir, &nl))) {
		errlist_add(errs, dir, 0, 0, "not a result set: the temporary directory "
			    "of an iomatrix unpack, import or write that did not finish "
			    "(its files are unverified; the next unpack into its "
			    "directory removes it once its process is gone)");
		return -1;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		errlist_add(errs, dir, 0, 0, "cannot open result set: %s "
			    "(give a directory made by 'iomatrix run')", strerror(errno));
		return -1;
	}
	if (fstatat(dirfd, "manifest.json", &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    fstatat(dirfd, "cells", &st, AT_SYMLINK_NOFOLLOW) < 0) {
		errlist_add(errs, dir, 0, 0, "not a result set: no manifest.json "
			    "and no cells/ (give a directory made by 'iomatrix run')");
		goto out;
	}
	if (rset_manifest_load(rs, dirfd, "manifest.json", NULL, why, sizeof(why)) < 0) {
		int e = errno;
		if (e == ENOMEM)
			goto oom;
		file_warn(rs, "manifest.json", e, why);
		errlist_add(&rs->warnings, rs->shown, 0, 0, e == ENOENT ?
			    "'manifest.json' is missing; reading cells/ directly" :
			    "'manifest.json' unusable; reading cells/ directly "
			    "(no host or device fingerprints)");
	}
	/* summaries: the manifest says all the plan would (suite, cell count) */
	if (!summaries || !rs->have_manifest) {
		cJSON *plan = load_json(rs, dirfd, "plan.json", "plan.json", NULL);
		int rc = plan ? rset_plan_read(rs, plan) : 0;
		cJSON_Delete(plan);
		if (rc < 0)
			goto oom;
	}

	cellsfd = resultset_cells_open(dirfd);
	if (collect_ids(rs, cellsfd, &ids, &nids) < 0)
		goto oom;
	if (nids && cellsfd < 0) {
		errlist_add(&rs->warnings, rs->shown, 0, 0,
			    "'cells' is not a readable directory: %s", strerror(errno));
		nids = 0;
	}
	rs->cells = calloc(nids ? nids : 1, sizeof(*rs->cells));
	if (!rs->cells)
		goto oom;
	for (size_t i = 0; i < nids; i++) {
		int rc = cell_load(rs, cellsfd, ids[i], &rs->cells[rs->ncells], summaries, errs);
		if (rc == -2)
			goto out;
		if (rc == 0) {
			if (!rs->cells[rs->ncells].ok)
				rs->ncells_failed++;
			rs->ncells++;
		}
	}
	if (rs->cells_total < (int)rs->ncells)
		rs->cells_total = (int)rs->ncells;
	if (rs->ncells == rs->ncells_failed) {
		errlist_add(errs, dir, 0, 0, rs->ncells ?
			    "result set has no successful cell (all %zu failed); nothing to report" :
			    "result set has no readable cell%.0zu; nothing to report "
			    "(was the run stopped before the first cell finished?)",
			    rs->ncells);
		goto out;
	}
	/* one warning per bad entry: a hostile set may hold millions */
	errlist_cap(&rs->warnings, 0, RSET_MAX_WARNINGS, "warnings about this set");
	rs->partial = strcmp(rs->status, "complete") != 0 ||
		      (int)rs->ncells < rs->cells_total;
	ret = 0;
	goto out;
oom:
	errlist_add(errs, dir, 0, 0, "out of memory");
out:
	free(ids);
	if (cellsfd >= 0)
		close(cellsfd);
	if (dirfd >= 0)
		close(dirfd);
	return ret;
}

int rset_load(const char *dir, struct rset *rs, struct errlist *errs)
{
	return load(dir, NULL, rs, errs, false);
}

int rset_load_shown(const char *dir, const char *shown, struct rset *rs,
		    struct errlist *errs)
{
	return load(dir, shown, rs, errs, false);
}

int rset_load_summaries(const char *dir, struct rset *rs, struct errlist *errs)
{
	return load(dir, NULL, rs, errs, true);
}

void rset_release(struct rset *rs)
{
	for (size_t i = 0; i < rs->ncells; i++)
		rset_cell_release(&rs->cells[i]);
	free(rs->cells);
	rset_manifest_release(rs);
	errlist_release(&rs->warnings);
	free(rs->dir);
	free(rs->shown);
	memset(rs, 0, sizeof(*rs));
}
