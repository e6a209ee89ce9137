/*
 * archdb_write.c - one set into the index's rows (archdb_write.h's
 * archdb_put): its record (archive.c, the very record history and site
 * make from the files), list's entry (setlist_entry.c), and its facts,
 * read through the typed reader (rset.h) and bound as parameters, never
 * spliced into SQL.  A set that fails verification keeps its sets row,
 * devices and list entry, and no number.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "archdb_write.h"
#include "resultset/qosfile.h"
#include "resultset/rset.h"
#include "resultset/setwalk.h"
#include "resultset/sums.h"
#include "suite/keys.h"
#include "util/dir.h"

struct put {
	struct archdb *x;
	long long id;           /* sets.set_id */
	struct errlist *errs;
	int bad;                /* an insert failed */
};

static sqlite3_stmt *row(struct put *p, const char *table)
{
	sqlite3_stmt *st = archdb_insert(p->x, table, p->errs);
	if (!st) {
		p->bad = 1;
		return NULL;
	}
	archdb_bind_int(st, "set_id", p->id);
	return st;
}

/* Bind every column of table whose schema row names a field (AT in
 * archdb_schema.c) from the struct at base. */
static void put_fields(sqlite3_stmt *st, const char *table, const void *base)
{
	size_t n;
	const struct archdb_col *c = archdb_table_cols(archdb_table_find(table), &n);
	for (size_t i = 0; i < n; i++) {
		const char *f = (const char *)base + c[i].off;
		switch (c[i].field) {
		case ARCHDB_FIELD_DOUBLE:
			archdb_bind_real(st, c[i].name, *(const double *)f);
			break;
		case ARCHDB_FIELD_INT:
			archdb_bind_int(st, c[i].name, *(const int *)f);
			break;
		case ARCHDB_FIELD_BOOL:
			archdb_bind_int(st, c[i].name, *(const bool *)f);
			break;
		case ARCHDB_FIELD_STR: case ARCHDB_FIELD_STR_NULL:
			archdb_bind_text(st, c[i].name, *(char *const *)f);
			break;
		case ARCHDB_FIELD_NONE:
			break;
		}
	}
}

static void done(struct put *p, sqlite3_stmt *st)
{
	if (st && archdb_insert_done(p->x, st, p->errs) < 0)
		p->bad = 1;
}

/* ---- the cell's parameters: one column per key ---- */

static void key_bind(sqlite3_stmt *st, int k, const struct cell *c)
{
	const struct key *key = &cell_keys[k];
	char buf[256];

	switch (key->type) {
	case KT_PATTERN:
		archdb_bind_text(st, key->name, pattern_name(c->pattern));
		break;
	case KT_ENGINE:
		archdb_bind_text(st, key->name, c->engine);
		break;
	case KT_LABEL:
		archdb_bind_text(st, key->name, c->label);
		break;
	case KT_CPULIST: case KT_RANDDIST:
		archdb_bind_text(st, key->name, *key_str(k, c) ? key_str(k, c) : NULL);
		break;
	case KT_INT:
		archdb_bind_int(st, key->name, (long long)(int64_t)key_load_u64(k, c));
		break;
	case KT_DATA:
		archdb_bind_text(st, key->name, data_name(c->data));
		archdb_bind_int(st, key->json2, c->compress_pct);
		break;
	case KT_BOOL:
		archdb_bind_int(st, key->name, key_load_u64(k, c) != 0);
		break;
	case KT_SIZE_PCT: case KT_OFFSET:
		archdb_bind_int(st, key->name, (long long)key_load_u64(k, c));
		archdb_bind_real(st, key->json2, k == K_SIZE ? c->size_pct : c->offset_pct);
		break;
	case KT_PCT: {
		double d;
		memcpy(&d, (const char *)c + key->off, sizeof(d));
		archdb_bind_real(st, key->name, d);
		break;
	}
	case KT_STEADY:
		if (c->steady.window) {
			snprintf(buf, sizeof(buf), "{\"window\":%u,\"range_pct\":%.17g,"
				 "\"slope_pct\":%.17g,\"max\":%u}", c->steady.window,
				 c->steady.range_frac * 100, c->steady.slope_frac * 100, c->steady.max);
			archdb_bind_text(st, key->name, buf);
		}
		break;
	case KT_CUSTOM:
		if (!key_is_default(k, c)) {
			cJSON *j = key->ops->to_json((const char *)c + key->off);
			char *t = j ? cJSON_PrintUnformatted(j) : NULL;
			archdb_bind_text(st, key->name, t);
			free(t);
			cJSON_Delete(j);
		}
		break;
	case KT_IO_SIZE:
		archdb_bind_int(st, key->name, (long long)c->io_size);
		archdb_bind_real(st, key->json2, c->io_size_mult);
		break;
	default:
		archdb_bind_int(st, key->name, (long long)key_load_u64(k, c));
		break;
	}
}

static void put_cell(struct put *p, const struct rset_cell *c, long long dev)
{
	sqlite3_stmt *st = row(p, "cells");
	struct sbuf wk = SBUF_INIT;
	if (!st)
		return;
	archdb_bind_int(st, "cell_id", c->id);
	archdb_bind_text(st, "host", c->host);
	archdb_bind_text(st, "device", c->cell.device);
	if (dev >= 0)
		archdb_bind_int(st, "dev", dev);
	archdb_bind_text(st, "status", c->ok ? "ok" : "failed");
	archdb_bind_text(st, "error", c->error);
	archdb_bind_text(st, "latency_kind", lat_kind_name(c->lat_mean_kind));
	arc_workload_key(c, &wk);
	archdb_bind_text(st, "workload", wk.oom ? NULL : sbuf_str(&wk));
	for (int k = 0; k < NKEYS; k++)
		key_bind(st, k, &c->cell);
	done(p, st);
	sbuf_release(&wk);
}

/* ---- the numbers ---- */

static void put_stat(struct put *p, int cell, int k, const char *metric,
		     const struct rset_stat *s)
{
	if (!s->n)
		return;
	sqlite3_stmt *st = row(p, "stats");
	if (!st)
		return;
	archdb_bind_int(st, "cell_id", cell);
	archdb_bind_text(st, "direction", dir_name(k));
	archdb_bind_text(st, "metric", metric);
	put_fields(st, "stats", s);
	done(p, st);
}

static void put_pcts(struct put *p, int cell, int rep, int k, const double *pp,
		     const double *ns, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sqlite3_stmt *st = row(p, "percentiles");
		if (!st)
			return;
		archdb_bind_int(st, "cell_id", cell);
		archdb_bind_int(st, "rep", rep);
		archdb_bind_text(st, "direction", dir_name(k));
		archdb_bind_real(st, "p", pp[i]);
		archdb_bind_real(st, "ns", ns[i]);
		done(p, st);
	}
}

static void put_dirs(struct put *p, const struct rset_cell *c)
{
	for (int k = 0; k < DIR__COUNT; k++) {
		const struct rset_dir *d = &c->dir[k];
		if (!d->present)
			continue;
		put_stat(p, c->id, k, "iops", &d->iops);
		put_stat(p, c->id, k, "bw_bytes_s", &d->bw);
		put_stat(p, c->id, k, "lat_mean_ns", &d->lat_mean);
		put_stat(p, c->id, k, "lat_p50_ns", &d->lat_p50);
		put_stat(p, c->id, k, "lat_p99_ns", &d->lat_p99);
		put_stat(p, c->id, k, "lat_max_ns", &d->lat_max);
		sqlite3_stmt *st = row(p, "directions");
		if (!st)
			return;
		archdb_bind_int(st, "cell_id", c->id);
		archdb_bind_text(st, "direction", dir_name(k));
		archdb_bind_int(st, "ios", (long long)d->ios);
		archdb_bind_int(st, "bytes", (long long)d->bytes);
		archdb_bind_real(st, "lat_mean_ns", d->lat_mean_all);
		archdb_bind_real(st, "lat_p99_ns", d->lat_p99_all);
		archdb_bind_real(st, "lat_min_ns", d->lat_min_ns ? d->lat_min_ns : NAN);
		done(p, st);
		put_pcts(p, c->id, 0, k, d->pct_p, d->pct_ns, d->npct);
	}
}

static void put_series(struct put *p, int cell, int rep, int k, bool fine,
		       const struct rset_series *s)
{
	for (size_t i = 0; s->interval_ns && i < s->n; i++) {
		sqlite3_stmt *st = row(p, "series");
		if (!st)
			return;
		archdb_bind_int(st, "cell_id", cell);
		archdb_bind_int(st, "rep", rep);
		archdb_bind_text(st, "direction", dir_name(k));
		archdb_bind_int(st, "fine", fine);
		archdb_bind_int(st, "i", (long long)i);
		archdb_bind_int(st, "interval_ns", (long long)s->interval_ns);
		archdb_bind_real(st, "bytes", s->bytes[i]);
		archdb_bind_real(st, "ios", s->ios ? s->ios[i] : NAN);
		archdb_bind_real(st, "lat_mean_ns", s->lat_mean_ns ? s->lat_mean_ns[i] : NAN);
		done(p, st);
	}
}

static void put_cliff(struct put *p, int cell, int rep, const struct rset_cliff *cl)
{
	sqlite3_stmt *st = row(p, "cliffs");
	if (!st)
		return;
	archdb_bind_int(st, "cell_id", cell);
	archdb_bind_int(st, "rep", rep);
	archdb_bind_int(st, "found", cl->found && cl->nplateaus >= 2);
	archdb_bind_real(st, "break_ns", cl->break_ns ? cl->break_ns : NAN);
	archdb_bind_real(st, "drop_pct", cl->drop_pct ? cl->drop_pct : NAN);
	archdb_bind_real(st, "interval_ns", cl->interval_ns);
	if (cl->samples >= 0)
		archdb_bind_int(st, "samples", cl->samples);
	archdb_bind_int(st, "stalls", (long long)cl->nstalls);
	done(p, st);
	for (size_t i = 0; i < cl->nplateaus; i++) {
		const struct rset_plateau *x = &cl->plateaus[i];
		if (!(st = row(p, "plateaus")))
			return;
		archdb_bind_int(st, "cell_id", cell);
		archdb_bind_int(st, "rep", rep);
		archdb_bind_int(st, "i", (long long)i);
		put_fields(st, "plateaus", x);
		done(p, st);
	}
}

static void put_reps(struct put *p, const struct rset_cell *c)
{
	const char *kind = lat_kind_name(c->lat_mean_kind);
	for (int r = 0; c->reps && r < c->nreps; r++) {
		const struct rset_rep *rep = &c->reps[r];
		for (int k = 0; k < DIR__COUNT; k++) {
			const struct rset_rep_dir *d = &rep->dir[k];
			if (!d->present)
				continue;
			sqlite3_stmt *st = row(p, "results");
			if (!st)
				return;
			archdb_bind_int(st, "cell_id", c->id);
			archdb_bind_int(st, "rep", r + 1);
			archdb_bind_text(st, "direction", dir_name(k));
			archdb_bind_real(st, "runtime_ns", rep->runtime_ns);
			put_fields(st, "results", d);
			archdb_bind_text(st, "latency_kind", kind);
			done(p, st);
			put_pcts(p, c->id, r + 1, k, d->pct_p, d->pct_ns, d->npct);
			put_series(p, c->id, r + 1, k, false, &d->series);
			put_series(p, c->id, r + 1, k, true, &d->fine);
			if (d->cliff.present)
				put_cliff(p, c->id, r + 1, &d->cliff);
		}
	}
}

static void put_sweep(struct put *p, const struct rset_cell *c)
{
	const struct sweep_data *w = c->sweep;
	sqlite3_stmt *st = row(p, "load_sweeps");
	if (!st)
		return;
	archdb_bind_int(st, "cell_id", c->id);
	archdb_bind_real(st, "max_iops", w->max_iops);
	if (w->target.metric != QOS_NONE) {
		struct qos_verdict v;
		qos_judge(w->pts, w->n, &w->target, &v);
		archdb_bind_text(st, "qos_metric", qos_metric_name(w->target.metric));
		archdb_bind_int(st, "qos_target_ns", (long long)w->target.target_ns);
		if (v.met)
			archdb_bind_real(st, "sustained_iops", v.sustained_iops);
	}
	done(p, st);
	for (size_t i = 0; i < w->n; i++) {
		const struct qos_point *q = &w->pts[i];
		if (!(st = row(p, "load_points")))
			return;
		archdb_bind_int(st, "cell_id", c->id);
		archdb_bind_int(st, "point", (long long)i);
		archdb_bind_int(st, "knee", w->knee == (int)i);
		put_fields(st, "load_points", q);
		done(p, st);
	}
}

static void put_cell_steady(struct put *p, const struct rset_cell *c)
{
	sqlite3_stmt *st = row(p, "steady_state");
	if (!st)
		return;
	archdb_bind_int(st, "cell_id", c->id);
	archdb_bind_text(st, "device", c->cell.device);
	archdb_bind_int(st, "steady", c->steady.steady);
	if (c->steady.window)
		archdb_bind_int(st, "window", c->steady.window);
	archdb_bind_real(st, "range_pct", c->steady.range_found_pct);
	archdb_bind_real(st, "slope_pct", c->steady.slope_found_pct);
	done(p, st);
}

/* A device's SNIA PTS rounds (steady/DEVICE.json). */
static void put_rounds(struct put *p, const struct rset *rs, const char *dev)
{
	struct rset_steady s;
	char why[200];
	if (rset_steady_load(rs->dir, dev, &s, why, sizeof(why)) > 0) {
		sqlite3_stmt *st = row(p, "steady_state");
		if (st) {
			archdb_bind_text(st, "device", dev);
			archdb_bind_int(st, "steady", s.steady_round > 0);
			archdb_bind_text(st, "metric", s.metric);
			archdb_bind_int(st, "window", s.window);
			archdb_bind_int(st, "rounds", s.rounds_done);
			if (s.steady_round > 0)
				archdb_bind_int(st, "steady_round", s.steady_round);
			done(p, st);
		}
	}
	rset_steady_release(&s);
}

/* Every fact of the set's cells; rec's ok cells are rs's ok cells in
 * order, each with its device's number in rec. */
static void put_cells(struct put *p, const struct rset *rs, const struct arc_set *rec)
{
	size_t k = 0;
	for (size_t i = 0; i < rs->ncells && !p->bad; i++) {
		const struct rset_cell *c = &rs->cells[i];
		long long dev = c->ok && k < rec->ncells ? (long long)rec->cells[k].dev : -1;
		put_cell(p, c, dev);
		if (c->ok && k < rec->ncells) {
			for (int m = 0; m < ARC_NMETRIC; m++) {
				const struct arc_val *v = &rec->cells[k].m[m];
				sqlite3_stmt *st = v->n ? row(p, "cell_metrics") : NULL;
				if (!st)
					continue;
				archdb_bind_int(st, "cell_id", c->id);
				archdb_bind_text(st, "metric", arc_metric_names[m]);
				put_fields(st, "cell_metrics", v);
				done(p, st);
			}
			k++;
		}
		put_dirs(p, c);
		put_reps(p, c);
		if (c->sweep)
			put_sweep(p, c);
		if (c->steady.present)
			put_cell_steady(p, c);
	}
	for (size_t i = 0; i < rs->ndevices; i++)
		put_rounds(p, rs, rs->devices[i].name);
	if (rs->reproduces.present) {
		sqlite3_stmt *st = row(p, "reproductions");
		if (st) {
			archdb_bind_text(st, "original", rs->reproduces.set);
			archdb_bind_text(st, "original_manifest_sha256", rs->reproduces.manifest_sha256);
			if (rs->reproduces.tolerance_pct > 0)
				archdb_bind_real(st, "tolerance_pct", rs->reproduces.tolerance_pct);
			done(p, st);
		}
	}
}

/* ---- the set ---- */

/* The reader's warnings and errors, the set's path ("PATH: ") left out
 * where the message starts with it (history prints it back as it finds
 * the set); the failed-verification warning is made again from the row. */
static void put_messages(struct put *p, const struct arc_ref *ref, const struct errlist *m,
			 size_t n, const char *kind, long long *i)
{
	size_t pl = strlen(ref->path);
	for (size_t k = 0; k < n; k++) {
		const char *s = m->msgs[k];
		bool rel = !strncmp(s, ref->path, pl) && !strncmp(s + pl, ": ", 2);
		sqlite3_stmt *st = row(p, "warnings");
		if (!st)
			return;
		archdb_bind_int(st, "i", (*i)++);
		archdb_bind_text(st, "kind", kind);
		archdb_bind_int(st, "relative", rel);
		archdb_bind_text(st, "message", rel ? s + pl + 2 : s);
		done(p, st);
	}
}

/* A count of the brief: NULL when unknown (< 0). */
static void put_count(sqlite3_stmt *st, const char *col, long v)
{
	if (v >= 0)
		archdb_bind_int(st, col, v);
}

/* The set in brief, typed (render.h set_brief): one column per key. */
static void put_brief(struct put *p, const struct set_brief *b)
{
	sqlite3_stmt *st = row(p, "briefs");
	if (!st)
		return;
	archdb_bind_text(st, "started_at", b->started_at);
	archdb_bind_text(st, "suite", b->suite);
	archdb_bind_text(st, "sha256", b->sha256);
	archdb_bind_text(st, "host", b->host);
	put_count(st, "fleet_hosts", b->fleet_hosts);
	archdb_bind_real(st, "scale", b->scale);
	archdb_bind_text(st, "source", b->source);
	archdb_bind_text(st, "status", b->status);
	archdb_bind_text(st, "command", b->command);
	put_count(st, "cells_done", b->cells_done);
	put_count(st, "cells_total", b->cells_total);
	put_count(st, "cells_failed", b->cells_failed);
	archdb_bind_text(st, "verify", b->verify >= 0 ?
			 sums_state_name((enum sums_state)b->verify) : NULL);
	archdb_bind_text(st, "fails_verification", b->fails_verification);
	archdb_bind_text(st, "error", b->error);
	done(p, st);
	for (size_t i = 0; i < b->ndevices && (st = row(p, "brief_devices")); i++) {
		archdb_bind_int(st, "i", (long long)i);
		archdb_bind_text(st, "name", b->devices[i]);
		done(p, st);
	}
}

static void put_list(struct put *p, const struct setlist_entry *e)
{
	sqlite3_stmt *st = row(p, "list_entries");
	if (!st)
		return;
	put_fields(st, "list_entries", e);
	done(p, st);
	put_brief(p, &e->brief);
}

static void put_devices(struct put *p, const struct arc_set *rec)
{
	for (size_t i = 0; i < rec->ndevs; i++) {
		const struct arc_dev *d = &rec->devs[i];
		sqlite3_stmt *st = row(p, "devices");
		if (!st)
			return;
		archdb_bind_int(st, "dev", (long long)i);
		put_fields(st, "devices", d);
		archdb_bind_text(st, "firmware", d->env[ARC_ENV_FIRMWARE]);
		archdb_bind_text(st, "filesystem", d->env[ARC_ENV_FS]);
		if (d->ram >= 0)
			archdb_bind_int(st, "ram", d->ram);
		done(p, st);
		for (int k = 0; k < ARC_NENV; k++) {
			if (!d->env[k] || !(st = row(p, "environment")))
				continue;
			archdb_bind_int(st, "dev", (long long)i);
			archdb_bind_text(st, "key", arc_env_names[k]);
			archdb_bind_text(st, "value", d->env[k]);
			done(p, st);
		}
	}
}

/* The sets row: the record's fields where it loaded, the reader's
 * otherwise. */
static void put_set_row(struct put *p, const struct arc_ref *ref, const char *digest,
			const struct arc_set *rec, bool loaded, const struct rset *rs)
{
	sqlite3_stmt *st = archdb_insert(p->x, "sets", p->errs);
	const char *version = rset_obj_str(&rs->tool, "version");
	char names[4096];
	size_t off = 0;

	if (!st) {
		p->bad = 1;
		return;
	}
	names[0] = 0;
	for (size_t i = 0; i < rs->ndevices && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? "," : "",
					rs->devices[i].name);
	archdb_bind_text(st, "path", ref->rel);
	archdb_bind_text(st, "name", ref->name);
	archdb_bind_text(st, "date", ref->date);
	archdb_bind_text(st, "suite", loaded ? rec->suite : rs->suite_name);
	archdb_bind_text(st, "title", loaded ? rec->title : rs->suite_title);
	archdb_bind_text(st, "host", loaded ? rec->host : rs->hostname);
	archdb_bind_text(st, "started_at", rs->started_at);
	archdb_bind_text(st, "finished_at", rs->finished_at);
	archdb_bind_text(st, "status", loaded ? rec->status : rs->status);
	archdb_bind_real(st, "scale", loaded ? rec->scale : rs->scale > 0 ? rs->scale : 1);
	archdb_bind_text(st, "source", loaded ? rec->source : rs->source_kind);
	archdb_bind_text(st, "version", version ? version : rset_obj_str(&rs->source, "version"));
	archdb_bind_text(st, "kernel", rset_obj_str(&rs->host, "kernel"));
	archdb_bind_text(st, "sums_sha256", *digest ? digest : NULL);
	archdb_bind_text(st, "verified", rec->failed_verify ? "FAILED" : rec->no_sums ?
			 "no checksums" : "intact");
	archdb_bind_text(st, "failed_why", rec->failed_why);
	archdb_bind_int(st, "cells_total", loaded ? rec->cells_total : rs->cells_total);
	archdb_bind_int(st, "cells_done", loaded ? rec->cells_done : 0);
	archdb_bind_int(st, "cells_failed", loaded ? rec->cells_failed : 0);
	archdb_bind_int(st, "has_report", rec->has_report);
	archdb_bind_int(st, "repo_own", resultset_repo_own(ref->rel));
	if (rs->fleet.present)
		archdb_bind_int(st, "fleet_hosts", (long long)rs->fleet.nhosts);
	archdb_bind_text(st, "devices", names[0] ? names : NULL);
	archdb_bind_int(st, "loaded", loaded);
	archdb_bind_text(st, "stamp", ref->stamp);
	archdb_bind_text(st, "dirs_stamp", ref->dirs[0] ? ref->dirs : NULL);
	if (archdb_insert_done(p->x, st, p->errs) < 0)
		p->bad = 1;
	p->id = sqlite3_last_insert_rowid(p->x->db);
}

int archdb_read_set(const struct arc_ref *ref, struct archdb_setdata *d)
{
	memset(d, 0, sizeof(*d));
	d->e = d->w = d->re = (struct errlist)ERRLIST_INIT;
	d->loaded = arc_set_load(ref, &d->rec, &d->e, &d->w) == 0;
	if (!d->loaded) {   /* the record stopped before its check: check here */
		int vs = sums_verify_dir(ref->path, SUMS_SET, &d->rec.failed_why);
		d->rec.no_sums = vs == SUMS_NONE;
		d->rec.failed_verify = vs == SUMS_FAILED;
	}
	d->verified = d->rec.failed_verify ? SUMS_FAILED : d->rec.no_sums ? SUMS_NONE : SUMS_INTACT;
	setlist_entry_read_known(ref->path, d->verified, d->rec.failed_why, &d->le);
	d->full = rset_load(ref->path, &d->rs, &d->re) == 0;
	return 0;
}

void archdb_setdata_release(struct archdb_setdata *d)
{
	rset_release(&d->rs);
	setlist_entry_release(&d->le);
	arc_set_release(&d->rec);
	errlist_release(&d->e);
	errlist_release(&d->w);
	errlist_release(&d->re);
}

int archdb_put_read(struct archdb *x, const struct arc_ref *ref, const char *digest,
		    const struct archdb_setdata *d, struct errlist *errs)
{
	struct put p = { .x = x, .errs = errs };
	sqlite3_stmt *del = NULL;

	/* the set's old rows go with it (ON DELETE CASCADE) */
	if (sqlite3_prepare_v2(x->db, "DELETE FROM sets WHERE path = ?", -1, &del, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(del, 1, ref->rel, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(del) != SQLITE_DONE) {
		errlist_add(errs, NULL, 0, 0, "index: %s", sqlite3_errmsg(x->db));
		sqlite3_finalize(del);
		return -1;
	}
	sqlite3_finalize(del);
	put_set_row(&p, ref, digest, &d->rec, d->loaded, &d->rs);
	long long i = 0;
	put_messages(&p, ref, &d->e, d->e.n, "error", &i);
	put_messages(&p, ref, &d->w, d->w.n - (d->rec.failed_verify && d->w.n), "warning", &i);
	put_list(&p, &d->le);
	put_devices(&p, &d->rec);
	if (d->loaded && d->full && !d->rec.failed_verify)
		put_cells(&p, &d->rs, &d->rec);
	return p.bad ? -1 : 0;
}

int archdb_put(struct archdb *x, const struct arc_ref *ref, const char *digest,
	       int *verified, struct errlist *errs)
{
	struct archdb_setdata d;
	archdb_read_set(ref, &d);
	*verified = d.verified;
	int rc = archdb_put_read(x, ref, digest, &d, errs);
	archdb_setdata_release(&d);
	return rc;
}
