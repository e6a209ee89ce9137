/*
 * compare.c - compare.h: pair the workloads of two sets, judge each pair
 * on its primary metric, and build the template context and compare.json.
 */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/termesc.h"
#include "util/cliopt.h"
#include "util/jsonw.h"
#include "util/version.h"

static const char *const verdict_words[CMP__N] = {
	"regression", "improvement", "inconclusive", "no change",
	"not enough repetitions to judge",
};
static const char *const verdict_cls[CMP__N] = { "worse", "better", "few", "same", "few" };


/*
 * The verdicts: the one verdict (model/ratio.h) of each row's primary
 * metric, the family being every row that can be judged.  For latency a
 * lower value is better, so its ratio is read the other way round.
 */
static int judge_all(struct compare_row *rows, size_t n, double threshold)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		struct compare_row *r = &rows[i];
		for (int k = 0; k < M__N; k++) {
			double a = r->s[0][k].mean, b = r->s[1][k].mean;
			r->change[k] = a > 0 && isfinite(b) ? (b - a) / a * 100 : NAN;
		}
		r->tested = ratio_judgeable(r->s[0][r->primary].n, r->s[1][r->primary].n);
		m += r->tested;
	}
	for (size_t i = 0; i < n; i++) {
		struct compare_row *r = &rows[i];
		const struct side *o = &r->s[0][r->primary], *nw = &r->s[1][r->primary];
		bool up_good = r->primary != M_LAT;
		switch (ratio_verdict(o->v, o->n, nw->v, nw->n, m, threshold / 100, &r->ci)) {
		case RATIO_UP: r->v = up_good ? CMP_BETTER : CMP_WORSE; break;
		case RATIO_DOWN: r->v = up_good ? CMP_WORSE : CMP_BETTER; break;
		case RATIO_SAME: r->v = CMP_SAME; break;
		case RATIO_FEW: r->v = CMP_FEW; break;
		default: r->v = CMP_INCONC; break;
		}
	}
	return 0;
}

/* An inconclusive row whose point estimate lies beyond the threshold: a
 * change the data neither show nor rule out. */
static bool inconclusive_beyond(const struct compare_row *r, double threshold)
{
	return r->v == CMP_INCONC && fabs(r->change[r->primary]) >= threshold;
}

static int row_cmp(const void *a, const void *b)
{
	const struct compare_row *x = a, *y = b;
	if (x->v != y->v)
		return (int)x->v - (int)y->v;
	double cx = fabs(x->change[x->primary]), cy = fabs(y->change[y->primary]);
	return cx < cy ? 1 : cx > cy ? -1 : 0;
}

/* ---- text ---- */

static void fmt_change(double pct, char *buf, size_t len)
{
	char v[32]; /* a 3-significant-digit number; keeps buf (48) from truncating */
	double a = fabs(pct);
	if (!isfinite(pct)) {
		snprintf(buf, len, "–");
		return;
	}
	if (a < 100)
		snprintf(v, sizeof(v), "%.1f", a);
	else
		fmt_sig3(a, v, sizeof(v));
	snprintf(buf, len, "%s%s %%", pct < 0 ? "−" : "+", v);
}

static void fmt_side(const struct side *s, enum metric m, double ldiv, char *buf, size_t len)
{
	double div = m == M_LAT ? ldiv : 1;
	double ci = side_ci95(s);
	fmt_stat(s->mean, ci, (int)s->n, div, buf, len);
}

static const char *map_name(const struct compare_map *mp, const char *old)
{
	for (size_t i = 0; i < mp->n; i++)
		if (!strcmp(mp->old[i], old))
			return mp->new[i];
	return old;
}

static cJSON *set_obj(const struct rset *rs, const char *label)
{
	cJSON *o = cJSON_CreateObject();
	char cells[64], date[32] = "?";
	jsonw_str(o, "label", label);
	jsonw_str(o, "dir", rs->dir);
	jsonw_str(o, "host", rs->hostname);
	jsonw_str(o, "suite", rs->suite_name ? rs->suite_name : "?");
	jsonw_str(o, "sha256", rs->suite_sha256 ? rs->suite_sha256 : "unknown");
	jsonw_str(o, "started_at", rs->started_at ? rs->started_at : "?");
	if (rs->started_at)
		snprintf(date, sizeof(date), "%.10s", rs->started_at);
	jsonw_str(o, "date", date);
	jsonw_str(o, "status", rs->status);
	snprintf(cells, sizeof(cells), "%zu/%d", rs->ncells, rs->cells_total);
	jsonw_str(o, "cells", cells);
	if (rs->scale != 1) {
		char sc[32];
		snprintf(sc, sizeof(sc), "%g", rs->scale);
		jsonw_str(o, "scale", sc);
	}
	return o;
}

/* One template row and one JSON row per workload pair. */
static void row_objs(const struct compare_row *row, cJSON *trow, cJSON *jrow)
{
	char o[64], n[64], ch[64], other[256] = "", dev[300], metric[64];
	double lats[2] = { row->s[0][M_LAT].mean, row->s[1][M_LAT].mean }, ldiv;
	const char *lunit = fmt_lat_unit(lats, 2, &ldiv);
	enum metric pm = row->primary;

	fmt_side(&row->s[0][pm], pm, ldiv, o, sizeof(o));
	fmt_side(&row->s[1][pm], pm, ldiv, n, sizeof(n));
	fmt_change(row->change[pm], ch, sizeof(ch));
	if (pm == M_LAT)
		snprintf(metric, sizeof(metric), "mean latency (%s)", lunit);
	else
		snprintf(metric, sizeof(metric), "%s", metric_names[pm]);
	size_t ol = 0;
	for (int k = 0; k < M__N; k++) {
		char c2[48];
		/* IOPS and MB/s of one block size move together: one of them */
		if (k == (int)pm || (pm != M_LAT && k != M_LAT) || (pm == M_LAT && k == M_MBS))
			continue;
		fmt_change(row->change[k], c2, sizeof(c2));
		ol += (size_t)snprintf(other + ol, sizeof(other) - ol, "%s%s %s",
				       ol ? ", " : "", metric_names[k], c2);
	}
	if (strcmp(row->dev_old, row->dev_new))
		snprintf(dev, sizeof(dev), "%s → %s", row->dev_old, row->dev_new);
	else
		snprintf(dev, sizeof(dev), "%s", row->dev_old);
	jsonw_str(trow, "device", dev);
	jsonw_str(trow, "workload", row->workload);
	jsonw_str(trow, "metric", metric);
	jsonw_str(trow, "old", o);
	jsonw_str(trow, "new", n);
	jsonw_str(trow, "change", ch);
	jsonw_str(trow, "other", other);
	char vw[160], ci[112];
	if (row->v == CMP_INCONC)
		snprintf(vw, sizeof(vw), "inconclusive (%s, %zu reps)", ch,
			 row->s[0][pm].n < row->s[1][pm].n ? row->s[0][pm].n : row->s[1][pm].n);
	else
		snprintf(vw, sizeof(vw), "%s", verdict_words[row->v]);
	jsonw_str(trow, "verdict", vw);
	jsonw_str(trow, "cls", verdict_cls[row->v]);
	if (row->tested && row->ci.ok) {
		char lo[48], hi[48];
		fmt_change((row->ci.lo - 1) * 100, lo, sizeof(lo));
		fmt_change((row->ci.hi - 1) * 100, hi, sizeof(hi));
		snprintf(ci, sizeof(ci), "%s … %s", lo, hi);
		jsonw_str(trow, "p", ci);
	} else {
		jsonw_str(trow, "p", "–");
	}
	if (row->v == CMP_WORSE)
		cJSON_AddTrueToObject(trow, "regression");

	jsonw_str(jrow, "device_old", row->dev_old);
	jsonw_str(jrow, "device_new", row->dev_new);
	jsonw_str(jrow, "workload", row->workload);
	cJSON_AddNumberToObject(jrow, "cell_old", row->co->id);
	cJSON_AddNumberToObject(jrow, "cell_new", row->cn->id);
	jsonw_str(jrow, "primary_metric", pm == M_IOPS ? "iops" : pm == M_MBS ? "mb_s" : "lat_mean_ns");
	static const char *const jk[M__N] = { "iops", "mb_s", "lat_mean_ns" };
	for (int k = 0; k < M__N; k++) {
		cJSON *m = cJSON_AddObjectToObject(jrow, jk[k]);
		for (int s = 0; s < 2; s++) {
			cJSON *sd = cJSON_AddObjectToObject(m, s ? "new" : "old");
			cJSON_AddNumberToObject(sd, "n", (double)row->s[s][k].n);
			if (row->s[s][k].n) {
				cJSON_AddNumberToObject(sd, "mean", row->s[s][k].mean);
				cJSON_AddNumberToObject(sd, "stddev", row->s[s][k].sd);
			}
			/* the half-width of the mean's 95 % CI (compare_bmf's bounds) */
			if (row->s[s][k].n >= 2)
				cJSON_AddNumberToObject(sd, "ci95", side_ci95(&row->s[s][k]));
		}
		if (isfinite(row->change[k]))
			cJSON_AddNumberToObject(m, "change_pct", row->change[k]);
	}
	if (row->tested && row->ci.ok) {
		cJSON_AddNumberToObject(jrow, "ratio", row->ci.ratio);
		cJSON_AddNumberToObject(jrow, "ratio_ci_low", row->ci.lo);
		cJSON_AddNumberToObject(jrow, "ratio_ci_high", row->ci.hi);
	}
	jsonw_str(jrow, "verdict", verdict_words[row->v]);
}

/* Fleet devices are "host · name": a pair needs the same host too. */
static bool same_host_of(const struct rdev *a, const struct rdev *b)
{
	return (!a->host && !b->host) || (a->host && b->host && !strcmp(a->host, b->host));
}

/* Pair every old entry with the new entry its (mapped) name names. */
static int pair_rows(const struct report *r, const struct compare_map *mp, cJSON *only_old,
		     cJSON *only_new, struct compare_row **rows_out, size_t *nrows_out)
{
	struct compare_row *rows = NULL;
	size_t nrows = 0, alloc = 0;

	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rentry *e = &g->e[k];
			const struct rdev *dv = &r->devs[e->dev];
			const struct rentry *pair = NULL;
			for (size_t m = 0; m < g->n; m++) {
				const struct rdev *d2 = &r->devs[g->e[m].dev];
				if (d2->set == dv->set)
					continue;
				const char *on = dv->set == 0 ? dv->name : d2->name;
				const char *nn = dv->set == 0 ? d2->name : dv->name;
				/* fleet: the same host too */
				if (!strcmp(map_name(mp, on), nn) &&
				    same_host_of(d2, dv))
					pair = &g->e[m];
			}
			if (!pair) {
				cJSON *o = cJSON_CreateObject();
				jsonw_str(o, "device", dv->label ? dv->label : dv->name);
				jsonw_str(o, "workload", g->title);
				cJSON_AddItemToArray(dv->set == 0 ? only_old : only_new, o);
				continue;
			}
			if (dv->set != 0)
				continue;
			const struct rset_cell *co = e->cell, *cn = pair->cell;
			if (!co->ok || !cn->ok) {
				cJSON *o = cJSON_CreateObject();
				jsonw_str(o, "device", dv->label ? dv->label : dv->name);
				jsonw_str(o, "workload", g->title);
				jsonw_str(o, "why", !co->ok ? "failed in the old set" : "failed in the new set");
				cJSON_AddItemToArray(co->ok ? only_old : only_new, o);
				continue;
			}
			struct compare_row *p = array_grow(rows, &alloc, nrows, sizeof(*p), 32);
			if (!p) {
				free(rows);
				return -1;
			}
			rows = p;
			struct compare_row *row = &rows[nrows++];
			memset(row, 0, sizeof(*row));
			row->dev_old = dv->label ? dv->label : dv->name;
			row->dev_new = r->devs[pair->dev].label ? r->devs[pair->dev].label :
				       r->devs[pair->dev].name;
			row->workload = g->title;
			row->g = g;
			row->co = co;
			row->cn = cn;
			row->primary = primary_metric(co);
			cell_sides(co, row->s[0]);
			cell_sides(cn, row->s[1]);
			/* total against completion latency (a run against a
			 * fio import of clat) is no change: no latency side */
			if (co->lat_mean_kind != cn->lat_mean_kind)
				for (int sd = 0; sd < 2; sd++) {
					row->s[sd][M_LAT].n = 0;
					row->s[sd][M_LAT].mean = NAN;
				}
		}
	}
	*rows_out = rows;
	*nrows_out = nrows;
	return 0;
}

/* The template context and compare.json around the rows; the summary
 * sentence is left in buf for stdout. */
static void compare_fill(const struct report *r, double threshold, const size_t *count,
			 size_t nrows, cJSON *ctx, cJSON *json, cJSON *jrows,
			 const cJSON *only_old, const cJSON *only_new, char *buf, size_t buflen)
{
	jsonw_str(ctx, "version", iomatrix_version);
	cJSON_AddItemToObject(ctx, "old", set_obj(&r->sets[0], "old"));
	cJSON_AddItemToObject(ctx, "new", set_obj(&r->sets[1], "new"));
	snprintf(buf, buflen, "%g", threshold);
	jsonw_str(ctx, "threshold", buf);
	snprintf(buf, buflen, "%d", VERDICT_MIN_REPS);
	jsonw_str(ctx, "min_reps", buf);  /* the templates' "fewer than N" */
	snprintf(buf, buflen, "%zu workload%s compared: %zu regression%s, %zu improvement%s, "
		 "%zu with no change beyond %g %%, %zu inconclusive, %zu with too few "
		 "repetitions to judge", nrows, nrows == 1 ? "" : "s",
		 count[CMP_WORSE], count[CMP_WORSE] == 1 ? "" : "s", count[CMP_BETTER],
		 count[CMP_BETTER] == 1 ? "" : "s", count[CMP_SAME], threshold, count[CMP_INCONC],
		 count[CMP_FEW]);
	jsonw_str(ctx, "summary", buf);
	const char *so = r->sets[0].suite_sha256, *sn = r->sets[1].suite_sha256;
	if (so && sn && strcmp(so, sn))
		jsonw_str(ctx, "suite_note", "The two sets were made from different suite files "
		      "(sha256 differs): only workloads whose parameters match are compared.");
	jsonw_strs(ctx, "alerts", r->alerts, r->nalerts);
	cJSON *w = cJSON_AddArrayToObject(ctx, "warnings");
	for (size_t i = 0; i < r->nwarns; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warns[i].text));

	cJSON_AddNumberToObject(json, "schema_version", 1);
	jsonw_str(json, "kind", "iomatrix-compare");
	cJSON_AddItemToObject(json, "old", set_obj(&r->sets[0], "old"));
	cJSON_AddItemToObject(json, "new", set_obj(&r->sets[1], "new"));
	cJSON_AddNumberToObject(json, "threshold_pct", threshold);
	jsonw_str(json, "method", "ratio of geometric means, Welch t on logs");
	jsonw_str(json, "correction", "bonferroni");
	cJSON_AddNumberToObject(json, "alpha", VERDICT_ALPHA);
	cJSON_AddNumberToObject(json, "min_repetitions", VERDICT_MIN_REPS);
	cJSON *jc = cJSON_AddObjectToObject(json, "counts");
	for (int v = 0; v < CMP__N; v++)
		cJSON_AddNumberToObject(jc, verdict_words[v], (double)count[v]);
	cJSON_AddItemToObject(json, "rows", jrows);
	cJSON_AddItemToObject(json, "only_old", cJSON_Duplicate(only_old, 1));
	cJSON_AddItemToObject(json, "only_new", cJSON_Duplicate(only_new, 1));

}

/* The threshold of every verdict of this comparison: the one given, else
 * when NEW reproduces OLD the tolerance the reproduction recorded (so
 * compare and reproduce judge its pairs alike), else the default. */
static double compare_threshold(const struct report *r, double threshold, bool given)
{
	const struct rset_reproduces *rs = &r->sets[1].reproduces;

	if (given || !repro_of(r, 0, 1))
		return threshold;
	return rs->tolerance_pct > 0 ? rs->tolerance_pct : REPRO_DEFAULT_TOLERANCE_PCT;
}

/* NEW reproduces OLD (its manifest says so, by OLD's manifest hash): the
 * reproduction's verdicts too, by the one verdict at the comparison's
 * threshold, so its table and the main one never disagree about a pair,
 * into the context and compare.json.  1 with *rp filled (the caller
 * releases it), 0 when NEW is no reproduction of OLD, -1 when out of
 * memory. */
static int compare_repro(const struct report *r, double threshold, cJSON *ctx,
			 cJSON *json, struct repro *rp)
{
	if (!repro_of(r, 0, 1))
		return 0;
	if (repro_judge(r, 0, 1, threshold, rp) < 0)
		return -1;
	cJSON_AddItemToObject(ctx, "reproduction", repro_context(rp, r));
	cJSON_AddItemToObject(json, "reproduction", repro_context(rp, r));
	return 1;
}

/* Every --map name is a device of its set (or of its cells). */
static int map_check(const struct report *r, const struct compare_map *map,
		     struct errlist *errs)
{
	for (size_t i = 0; i < map->n; i++) {
		bool fo = rset_device_find(&r->sets[0], map->old[i]) != NULL;
		bool fn = rset_device_find(&r->sets[1], map->new[i]) != NULL;
		for (size_t k = 0; k < r->sets[0].ncells && !fo; k++)
			fo = !strcmp(r->sets[0].cells[k].cell.device, map->old[i]);
		for (size_t k = 0; k < r->sets[1].ncells && !fn; k++)
			fn = !strcmp(r->sets[1].cells[k].cell.device, map->new[i]);
		if (!fo || !fn) {
			errlist_add(errs, NULL, 0, 0, "--map %s=%s: the %s set has no device '%s'",
				    map->old[i], map->new[i], fo ? "new" : "old",
				    fo ? map->new[i] : map->old[i]);
			return -1;
		}
	}
	return 0;
}

/* The rows into the context and compare.json, with the counts. */
static void rows_fill(struct compare *c, double threshold, cJSON *jrows)
{
	cJSON *trows = cJSON_AddArrayToObject(c->ctx, "rows");
	for (size_t i = 0; i < c->nrows; i++) {
		cJSON *t = cJSON_CreateObject(), *j = cJSON_CreateObject();
		c->count[c->rows[i].v]++;
		c->inconclusive_beyond |= inconclusive_beyond(&c->rows[i], threshold);
		row_objs(&c->rows[i], t, j);
		cJSON_AddItemToArray(trows, t);
		cJSON_AddItemToArray(jrows, j);
	}
}

int compare_run(struct compare *c, const char *const paths[2], double threshold,
		bool threshold_given, const struct compare_map *map,
		const struct report_section *const *sections, struct errlist *errs)
{
	static const char *const labels[2] = { "old", "new" };

	memset(c, 0, sizeof(*c));
	int rc = report_load_labelled(&c->r, (char **)paths, 2, labels, sections, errs);
	c->loaded = true;
	if (rc)
		return rc;
	if (map_check(&c->r, map, errs) < 0)
		return EXIT_USAGE;
	threshold = c->threshold = compare_threshold(&c->r, threshold, threshold_given);
	c->ctx = cJSON_CreateObject();
	c->json = cJSON_CreateObject();
	if (!c->ctx || !c->json)
		return EXIT_RUNTIME;
	cJSON *only_old = cJSON_AddArrayToObject(c->ctx, "only_old");
	cJSON *only_new = cJSON_AddArrayToObject(c->ctx, "only_new");
	if (pair_rows(&c->r, map, only_old, only_new, &c->rows, &c->nrows) < 0 ||
	    judge_all(c->rows, c->nrows, threshold) < 0)
		return EXIT_RUNTIME;
	/* a reproduction pairs its cells by plan id (repro.h), so at another
	 * --scale it is judged even when no workload matches by parameters */
	int rj = compare_repro(&c->r, threshold, c->ctx, c->json, &c->rp);
	if (rj < 0)
		return EXIT_RUNTIME;
	c->have_rp = rj > 0;
	if (c->nrows == 0 && !c->have_rp) {
		/* nothing compared is not "no regression": say so, write nothing */
		errlist_add(errs, NULL, 0, 0, "no workload of '%s' matches one of '%s' (a match "
			    "needs the same device name and every result-changing parameter); "
			    "pair differently named devices with --map OLD=NEW", paths[0], paths[1]);
		return EXIT_USAGE;
	}
	if (c->nrows > 1)
		qsort(c->rows, c->nrows, sizeof(*c->rows), row_cmp);
	cJSON *jrows = cJSON_CreateArray();
	rows_fill(c, threshold, jrows);
	c->nonly_old = cJSON_GetArraySize(only_old);
	c->nonly_new = cJSON_GetArraySize(only_new);
	compare_fill(&c->r, threshold, c->count, c->nrows, c->ctx, c->json, jrows, only_old,
		     only_new, c->summary, sizeof(c->summary));
	return EXIT_OK;
}

void compare_print(const struct compare *c, FILE *f)
{
	char o[512], n[512];
	fprintf(f, "compare: old %s -> new %s\n", termesc(c->r.sets[0].dir, o, sizeof(o)),
		termesc(c->r.sets[1].dir, n, sizeof(n)));
	termesc_puts(f, NULL, c->summary);
	if (c->have_rp)
		repro_print(&c->rp, &c->r, f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		if (row->v != CMP_WORSE && row->v != CMP_BETTER)
			continue;
		char d0[256], wb[512];   /* the sets' names, as text (termesc.h) */
		fprintf(f, "  %-11s %s: %s, %s %+.1f %%\n", verdict_words[row->v],
			termesc(row->dev_old, d0, sizeof(d0)), termesc(row->workload, wb, sizeof(wb)),
			metric_names[row->primary], row->change[row->primary]);
	}
	int no = c->nonly_old, nn = c->nonly_new;
	if (no || nn)
		fprintf(f, "%d workload%s only in old (or failed in new), %d only in new (or failed in old)\n",
			no, no == 1 ? "" : "s", nn);
}

void compare_release(struct compare *c)
{
	if (c->have_rp)
		repro_release(&c->rp);
	cJSON_Delete(c->ctx);
	cJSON_Delete(c->json);
	free(c->rows);
	if (c->loaded)
		report_release(&c->r);
	memset(c, 0, sizeof(*c));
}
