/*
 * export.c - the report model as data: report.csv (RFC 4180, one row per
 * cell x device x direction, then one per load point of a swept cell) and
 * report.json.  The optional sections add their rows and keys through the
 * csv and result_json hooks of r->sections[] (model/section.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "render.h"
#include "section_out.h"
#include "suite/keys.h"
#include "model/report.h"
#include "model/section.h"
#include "resultset/rset_out.h"
#include "resultset/sums.h"
#include "util/jsonw.h"
#include "util/freemany.h"

/* ---- CSV ---- */

/* The parameter columns: every PARAMS field of the key table
 * (cell_json_names) but device, which has its own column, and path, which
 * goes last because it is long.  NULL-terminated. */
static const char *const *csv_params(void)
{
	static const char *cols[64];
	const char *const *names = cell_json_names();
	size_t n = 0;

	/* constant data; two threads filling it write the same */
	for (size_t i = 0; names[i] && n + 2 < sizeof(cols) / sizeof(cols[0]); i++)
		if (strcmp(names[i], "device") && strcmp(names[i], "path"))
			cols[n++] = names[i];
	cols[n++] = "path";
	cols[n] = NULL;
	return cols;
}

/* A params value: absent (a key the set did not record), an object or an
 * array leave the column empty. */
static void csv_value(struct sbuf *b, const cJSON *v)
{
	if (cJSON_IsString(v))
		escape_append(b, v->valuestring, ESC_CSV);
	else if (cJSON_IsBool(v))
		sbuf_adds(b, cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNumber(v)) {
		double x = v->valuedouble;
		if (x == floor(x) && fabs(x) < 9007199254740992.0)
			sbuf_addf(b, "%.0f", x);
		else
			sbuf_addf(b, "%.17g", x);
	}
}

static void csv_num(struct sbuf *b, double v, bool have)
{
	sbuf_addc(b, ',');
	/* full precision: integers exact, doubles round-trip (17 digits) */
	if (have && isfinite(v)) {
		if (v == floor(v) && fabs(v) < 9007199254740992.0)
			sbuf_addf(b, "%.0f", v);
		else
			sbuf_addf(b, "%.17g", v);
	}
}

static void csv_stat(struct sbuf *b, const struct rset_stat *s)
{
	csv_num(b, s->mean, s->n > 0);
	csv_num(b, s->stddev, s->n > 0);
	csv_num(b, s->ci95, s->n > 0);
	csv_num(b, s->cv, s->n > 0);
}

/* The section columns of every row: a cell's own rows leave them empty. */
static void csv_section_empty(const struct report *r, struct sbuf *b)
{
	for (size_t i = 0; r->sections[i]; i++)
		for (size_t k = 0; k < section_out_of(r, i)->csv_ncolumns; k++)
			sbuf_addc(b, ',');
}

/* set, host, device, scale, source, status, direction, the parameters
 * (names: the columns, pj: the cell's, rset_cell_params_json) and the
 * repetitions of entry e; dir NULL: "" */
static void csv_row_head(const struct report *r, const struct rentry *e, const char *dir,
			 const char *const *params, const cJSON *pj, struct sbuf *b)
{
	const struct rset_cell *c = e->cell;
	const struct rdev *d = &r->devs[e->dev];
	escape_append(b, r->sets[d->set].shown, ESC_CSV);
	sbuf_addc(b, ',');
	/* fleet rows: the host as given and the bare device */
	escape_append(b, d->host ? d->host : r->sets[d->set].hostname, ESC_CSV);
	sbuf_addc(b, ',');
	escape_append(b, d->host ? d->name : d->display, ESC_CSV);
	sbuf_addf(b, ",%.17g,", r->sets[d->set].scale);
	escape_append(b, r->sets[d->set].source_kind, ESC_CSV);
	sbuf_addc(b, ',');
	escape_append(b, c->status, ESC_CSV);
	sbuf_addc(b, ',');
	sbuf_adds(b, dir ? dir : "");
	for (size_t i = 0; params[i]; i++) {
		sbuf_addc(b, ',');
		csv_value(b, cJSON_GetObjectItemCaseSensitive(pj, params[i]));
	}
	sbuf_addf(b, ",%d", c->nreps);
}

/* The metric columns of one direction d of cell c (d NULL: empty). */
static void csv_row_metrics(const struct rset_cell *c, const struct rset_dir *d,
			    struct sbuf *b)
{
	if (d) {
		csv_stat(b, &d->iops);
		csv_stat(b, &d->bw);
		csv_stat(b, &d->lat_mean);
		csv_stat(b, &d->lat_p50);
		csv_stat(b, &d->lat_p99);
		csv_stat(b, &d->lat_max);
		sbuf_addf(b, ",%llu,%llu", (unsigned long long)d->ios,
			  (unsigned long long)d->bytes);
	} else {
		for (int i = 0; i < 6 * 4 + 2; i++)
			sbuf_addc(b, ',');
	}
	csv_num(b, c->runtime_mean_ns, c->nreps > 0);
	csv_num(b, c->cpu_usr_pct, c->nreps > 0);
	csv_num(b, c->cpu_sys_pct, c->nreps > 0);
	csv_num(b, c->cpu_ns_per_io, c->have_cpu_per_io);
	csv_num(b, d ? d->lat_mean_all : 0, d && isfinite(d->lat_mean_all));
	csv_num(b, d ? d->lat_p99_all : 0, d && isfinite(d->lat_p99_all));
	sbuf_addc(b, ',');
	escape_append(b, c->lat_mean_kind == c->lat_pct_kind ?
		      lat_kind_name(c->lat_mean_kind) :
		      "mean total; percentiles completion", ESC_CSV);
	sbuf_addc(b, ',');
	escape_append(b, c->error ? c->error : "", ESC_CSV);
}

/* The extra rows the sections have for entry k of group gi (load points):
 * the cell's head, empty metrics, then the section's columns. */
static void csv_section_rows(const struct report *r, size_t gi, size_t k,
			     const char *const *params, const cJSON *pj, struct sbuf *b)
{
	const struct rentry *e = &r->groups[gi].e[k];
	struct sbuf cols = SBUF_INIT;
	for (size_t s = 0; r->sections[s]; s++) {
		if (!section_out_of(r, s)->csv_row)
			continue;
		for (size_t i = 0;; i++) {
			sbuf_reset(&cols);
			if (!section_out_of(r, s)->csv_row(r, gi, k, i, &cols))
				break;
			csv_row_head(r, e, NULL, params, pj, b);
			for (int n = 0; n < 6 * 4 + 2 + 6 + 2; n++)
				sbuf_addc(b, ',');
			for (size_t o = 0; r->sections[o]; o++) {
				if (o == s)
					sbuf_adds(b, sbuf_str(&cols));
				else
					for (size_t n = 0; n < section_out_of(r, o)->csv_ncolumns; n++)
						sbuf_addc(b, ',');
			}
			sbuf_adds(b, "\r\n");
		}
	}
	sbuf_release(&cols);
}

int report_write_csv(const struct report *r, struct sbuf *b)
{
	static const char *const stats[] = { "iops", "bw_bytes_s", "lat_mean_ns",
					     "lat_p50_ns", "lat_p99_ns", "lat_max_ns" };
	const char *const *params = csv_params();
	/* scale and source first: a rehearsal row must not pass as a run */
	sbuf_adds(b, "set,host,device,scale,source,status,direction");
	for (size_t i = 0; params[i]; i++)
		sbuf_addf(b, ",%s", params[i]);
	sbuf_adds(b, ",reps");
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
		sbuf_addf(b, ",%s_mean,%s_stddev,%s_ci95,%s_cv", stats[i], stats[i],
			  stats[i], stats[i]);
	/* lat_all_*: the table's mean and p99, of every IO together (rset.h);
	 * lat_*_ns_mean above are means over the repetitions */
	sbuf_adds(b, ",ios,bytes,runtime_mean_ns,cpu_usr_pct,cpu_sys_pct,cpu_ns_per_io,"
		  "lat_all_mean_ns,lat_all_p99_ns,latency_kind,error");
	for (size_t i = 0; r->sections[i]; i++)
		if (section_out_of(r, i)->csv_columns)
			sbuf_adds(b, section_out_of(r, i)->csv_columns);
	sbuf_adds(b, "\r\n");
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rset_cell *c = g->e[k].cell;
			int dirs[DIR__COUNT + 1], nd = 0;
			for (int dd = 0; dd < DIR__COUNT; dd++)
				if (c->dir[dd].present)
					dirs[nd++] = dd;
			if (nd == 0)
				dirs[nd++] = -1;   /* failed cell: one row without numbers */
			cJSON *pj = rset_cell_params_json(c);
			if (!pj)
				b->oom = true;
			for (int di = 0; di < nd; di++) {
				int dd = dirs[di];
				csv_row_head(r, &g->e[k], dd >= 0 ? dir_name(dd) : NULL, params, pj, b);
				csv_row_metrics(c, dd >= 0 ? &c->dir[dd] : NULL, b);
				csv_section_empty(r, b);
				sbuf_adds(b, "\r\n");
			}
			csv_section_rows(r, gi, k, params, pj, b);
			cJSON_Delete(pj);
		}
	}
	return b->oom ? -1 : 0;
}

/* ---- JSON ---- */

static cJSON *stat_json(const struct rset_stat *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "n", s->n);
	cJSON_AddNumberToObject(o, "mean", s->mean);
	cJSON_AddNumberToObject(o, "stddev", s->stddev);
	cJSON_AddNumberToObject(o, "ci95", s->ci95);
	cJSON_AddNumberToObject(o, "cv", s->cv);
	return o;
}

/* A count, null when unknown (< 0). */
static void count_json(cJSON *o, const char *k, int n)
{
	if (n >= 0)
		cJSON_AddNumberToObject(o, k, n);
	else
		cJSON_AddNullToObject(o, k);
}

static int brief_dup(char **out, const char *v)
{
	*out = v ? strdup(v) : NULL;
	return v && !*out ? -1 : 0;
}

int set_brief_fill(const struct set_summary *s, struct set_brief *b)
{
	const struct rset *rs = s->rs;
	int bad = 0;

	memset(b, 0, sizeof(*b));
	bad |= brief_dup(&b->path, rs->dir);
	bad |= brief_dup(&b->started_at, rs->started_at);
	bad |= brief_dup(&b->suite, rs->suite_name);
	bad |= brief_dup(&b->sha256, rs->suite_sha256);
	bad |= brief_dup(&b->host, rs->hostname);
	b->fleet_hosts = rs->fleet.present ? (long)rs->fleet.nhosts : -1;
	if (rs->ndevices && !(b->devices = calloc(rs->ndevices, sizeof(*b->devices))))
		bad = -1;
	for (size_t i = 0; b->devices && i < rs->ndevices; i++, b->ndevices++)
		bad |= brief_dup(&b->devices[i], rs->devices[i].name);
	b->scale = rs->scale;
	bad |= brief_dup(&b->source, rs->source_kind);
	bad |= brief_dup(&b->status, rs->status);
	b->command = report_set_command(rs);
	if (rs->ncommand && !b->command)
		bad = -1;
	b->cells_done = s->cells_done;
	b->cells_failed = s->cells_failed;
	b->cells_total = s->cells_total;
	b->verify = s->verify;
	bad |= brief_dup(&b->fails_verification, s->fails_verification);
	bad |= brief_dup(&b->error, s->error);
	if (bad)
		set_brief_release(b);
	return bad ? -1 : 0;
}

void set_brief_release(struct set_brief *b)
{
	FREE_MANY(b->path, b->started_at, b->suite, b->sha256, b->host, b->source, b->status,
		  b->command, b->fails_verification, b->error);
	free_strv(b->devices, b->ndevices);
	memset(b, 0, sizeof(*b));
}

cJSON *set_brief_json(const struct set_brief *b)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	jsonw_str(o, "path", b->path);
	jsonw_str(o, "started_at", b->started_at);
	jsonw_str(o, "suite", b->suite);
	jsonw_str(o, "sha256", b->sha256);
	jsonw_str(o, "host", b->host);
	if (b->fleet_hosts >= 0) /* the host above ran the fleet, these the cells */
		cJSON_AddNumberToObject(o, "fleet_hosts", (double)b->fleet_hosts);
	cJSON *dv = cJSON_AddArrayToObject(o, "devices");
	for (size_t i = 0; i < b->ndevices; i++)
		cJSON_AddItemToArray(dv, cJSON_CreateString(b->devices[i]));
	cJSON_AddNumberToObject(o, "scale", b->scale);
	cJSON_AddBoolToObject(o, "rehearsal", b->scale != 1);
	jsonw_str(o, "source", b->source);
	jsonw_str(o, "status", b->status);
	jsonw_str(o, "command", b->command);
	count_json(o, "cells_done", b->cells_done);
	count_json(o, "cells_total", b->cells_total);
	count_json(o, "cells_failed", b->cells_failed);
	if (b->verify >= 0)
		jsonw_str(o, "verify", sums_state_name((enum sums_state)b->verify));
	if (b->fails_verification)
		jsonw_str(o, "fails_verification", b->fails_verification);
	if (b->error)
		jsonw_str(o, "error", b->error);
	return o;
}

cJSON *set_summary_json(const struct set_summary *s)
{
	struct set_brief b;
	if (set_brief_fill(s, &b) < 0)
		return NULL;
	cJSON *o = set_brief_json(&b);
	set_brief_release(&b);
	return o;
}

cJSON *report_json(const struct report *r)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "schema_version", REPORT_JSON_SCHEMA_VERSION);
	jsonw_str(j, "kind", "iomatrix-report");
	cJSON_AddBoolToObject(j, "rehearsal", r->rehearsal);
	jsonw_str(j, "title", r->title);
	jsonw_str(j, "baseline", r->ndevs ? r->devs[r->baseline].display : NULL);
	cJSON *sets = cJSON_AddArrayToObject(j, "sets");
	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		struct set_summary sm = {
			.rs = rs, .cells_done = (int)rs->ncells,
			.cells_failed = (int)rs->ncells_failed, .cells_total = rs->cells_total,
			.verify = r->verified ? r->verified[s] : -1,
			.fails_verification = r->unverified ? r->unverified[s] : NULL,
		};
		cJSON_AddItemToArray(sets, set_summary_json(&sm));
	}
	cJSON *devs = cJSON_AddArrayToObject(j, "devices");
	for (size_t d = 0; d < r->ndevs; d++) {
		cJSON *o = cJSON_CreateObject();
		jsonw_str(o, "display", r->devs[d].display);
		jsonw_str(o, "name", r->devs[d].name);
		cJSON_AddNumberToObject(o, "set", (double)r->devs[d].set);
		jsonw_str(o, "color", report_colors[r->devs[d].color]);
		if (r->devs[d].info && r->devs[d].info->fp.present)
			cJSON_AddItemToObject(o, "fingerprint",
					      rset_obj_json(&r->devs[d].info->fp));
		cJSON_AddItemToArray(devs, o);
	}
	cJSON *groups = cJSON_AddArrayToObject(j, "groups");
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		cJSON *go = cJSON_CreateObject();
		jsonw_str(go, "title", g->title);
		cJSON *res = cJSON_AddArrayToObject(go, "results");
		for (size_t k = 0; k < g->n; k++) {
			const struct rset_cell *c = g->e[k].cell;
			cJSON *o = cJSON_CreateObject();
			jsonw_str(o, "device", r->devs[g->e[k].dev].display);
			cJSON_AddNumberToObject(o, "cell_id", c->id);
			jsonw_str(o, "status", c->status);
			if (c->error)
				jsonw_str(o, "error", c->error);
			cJSON_AddItemToObject(o, "params", rset_cell_params_json(c));
			jsonw_str(o, "latency_kind", lat_kind_name(c->lat_mean_kind));
			for (int dd = 0; dd < DIR__COUNT; dd++) {
				const struct rset_dir *d = &c->dir[dd];
				if (!d->present)
					continue;
				cJSON *dj = cJSON_AddObjectToObject(o, dir_name(dd));
				cJSON_AddItemToObject(dj, "iops", stat_json(&d->iops));
				cJSON_AddItemToObject(dj, "bw_bytes_s", stat_json(&d->bw));
				cJSON_AddItemToObject(dj, "lat_mean_ns", stat_json(&d->lat_mean));
				cJSON_AddItemToObject(dj, "lat_p50_ns", stat_json(&d->lat_p50));
				cJSON_AddItemToObject(dj, "lat_p99_ns", stat_json(&d->lat_p99));
				cJSON_AddItemToObject(dj, "lat_max_ns", stat_json(&d->lat_max));
				/* the tables' numbers: of every IO together (rset.h) */
				if (isfinite(d->lat_mean_all))
					cJSON_AddNumberToObject(dj, "lat_all_mean_ns", d->lat_mean_all);
				if (isfinite(d->lat_p99_all))
					cJSON_AddNumberToObject(dj, "lat_all_p99_ns", d->lat_p99_all);
			}
			for (size_t s = 0; r->sections[s]; s++)
				if (section_out_of(r, s)->result_json)
					section_out_of(r, s)->result_json(r, gi, k, o);
			cJSON_AddItemToArray(res, o);
		}
		cJSON_AddItemToArray(groups, go);
	}
	jsonw_strs(j, "alerts", r->alerts, r->nalerts);
	jsonw_strs(j, "summary", r->summary, r->nsummary);
	cJSON *w = cJSON_AddArrayToObject(j, "warnings");
	for (size_t i = 0; i < r->nwarns; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warns[i].text));
	return j;
}
