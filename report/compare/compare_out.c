/*
 * compare_out.c - compare.h's writers of the template context and
 * compare.json: the JSON edge of a comparison, made from struct compare
 * (compare_run), never read back.
 */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/version.h"

static const char *const verdict_cls[CMP__N] = { "worse", "better", "few", "same", "few" };

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

static cJSON *set_obj(const struct rset *rs, const char *label)
{
	cJSON *o = cJSON_CreateObject();
	char cells[64], date[32] = "?";
	jsonw_str(o, "label", label);
	jsonw_str(o, "dir", rs->shown);
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

/* The template's row of a workload pair. */
static void row_template(const struct compare_row *row, cJSON *trow)
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
		snprintf(vw, sizeof(vw), "%s", compare_verdict_words[row->v]);
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
}

/* compare.json's row of a workload pair. */
static void row_json(const struct compare_row *row, cJSON *jrow)
{
	enum metric pm = row->primary;

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
	jsonw_str(jrow, "verdict", compare_verdict_words[row->v]);
}

/* The workloads of side sd alone, as the template and compare.json list
 * them. */
static cJSON *only_json(const struct compare *c, int sd)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < c->nonly[sd]; i++) {
		const struct compare_only *w = &c->only[sd][i];
		cJSON *o = cJSON_CreateObject();
		jsonw_str(o, "device", w->device);
		jsonw_str(o, "workload", w->workload);
		if (w->why)
			jsonw_str(o, "why", w->why);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

cJSON *compare_context(const struct compare *c, const char *css)
{
	const struct report *r = &c->r;
	cJSON *ctx = cJSON_CreateObject();
	char buf[64];

	if (!ctx)
		return NULL;
	cJSON_AddItemToObject(ctx, "only_old", only_json(c, 0));
	cJSON_AddItemToObject(ctx, "only_new", only_json(c, 1));
	if (c->have_rp)
		cJSON_AddItemToObject(ctx, "reproduction", repro_context(&c->rp, r));
	cJSON *trows = cJSON_AddArrayToObject(ctx, "rows");
	for (size_t i = 0; trows && i < c->nrows; i++) {
		cJSON *t = cJSON_CreateObject();
		row_template(&c->rows[i], t);
		cJSON_AddItemToArray(trows, t);
	}
	jsonw_str(ctx, "version", iomatrix_version);
	cJSON_AddItemToObject(ctx, "old", set_obj(&r->sets[0], "old"));
	cJSON_AddItemToObject(ctx, "new", set_obj(&r->sets[1], "new"));
	snprintf(buf, sizeof(buf), "%g", c->threshold);
	jsonw_str(ctx, "threshold", buf);
	snprintf(buf, sizeof(buf), "%d", VERDICT_MIN_REPS);
	jsonw_str(ctx, "min_reps", buf);  /* the templates' "fewer than N" */
	jsonw_str(ctx, "summary", c->summary);
	const char *so = r->sets[0].suite_sha256, *sn = r->sets[1].suite_sha256;
	if (so && sn && strcmp(so, sn))
		jsonw_str(ctx, "suite_note", "The two sets were made from different suite files "
		      "(sha256 differs): only workloads whose parameters match are compared.");
	jsonw_strs(ctx, "alerts", r->alerts, r->nalerts);
	cJSON *w = cJSON_AddArrayToObject(ctx, "warnings");
	for (size_t i = 0; i < r->nwarns; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warns[i].text));
	if (css)
		cJSON_AddStringToObject(ctx, "css", css);
	return ctx;
}

cJSON *compare_json(const struct compare *c)
{
	const struct report *r = &c->r;
	cJSON *json = cJSON_CreateObject();

	if (!json)
		return NULL;
	if (c->have_rp)
		cJSON_AddItemToObject(json, "reproduction", repro_context(&c->rp, r));
	cJSON_AddNumberToObject(json, "schema_version", 1);
	jsonw_str(json, "kind", "iomatrix-compare");
	cJSON_AddItemToObject(json, "old", set_obj(&r->sets[0], "old"));
	cJSON_AddItemToObject(json, "new", set_obj(&r->sets[1], "new"));
	cJSON_AddNumberToObject(json, "threshold_pct", c->threshold);
	jsonw_str(json, "method", "ratio of geometric means, Welch t on logs");
	jsonw_str(json, "correction", "bonferroni");
	cJSON_AddNumberToObject(json, "alpha", VERDICT_ALPHA);
	cJSON_AddNumberToObject(json, "min_repetitions", VERDICT_MIN_REPS);
	cJSON *jc = cJSON_AddObjectToObject(json, "counts");
	for (int v = 0; v < CMP__N; v++)
		cJSON_AddNumberToObject(jc, compare_verdict_words[v], (double)c->count[v]);
	cJSON *jrows = cJSON_AddArrayToObject(json, "rows");
	for (size_t i = 0; jrows && i < c->nrows; i++) {
		cJSON *j = cJSON_CreateObject();
		row_json(&c->rows[i], j);
		cJSON_AddItemToArray(jrows, j);
	}
	cJSON_AddItemToObject(json, "only_old", only_json(c, 0));
	cJSON_AddItemToObject(json, "only_new", only_json(c, 1));
	return json;
}
