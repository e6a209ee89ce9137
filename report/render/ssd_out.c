/*
 * ssd_out.c - the SSD part of the output (section_out.h): per device the
 * steady-state verdict and its rounds (window by window), the
 * preconditioning passes, the PTS IOPS table, each with its charts, from
 * the model's struct ssd_report (model/ssd.h).
 */
#include "section_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/ssd.h"
#include "util/jsonw.h"

static const char *metric_words(const char *m)
{
	if (!strcmp(m, "bw_bytes_s"))
		return "MB/s";
	if (!strcmp(m, "lat_mean_ns"))
		return "mean latency (µs)";
	return "IOPS";
}

/* "not steady (range and slope)", or "not judged" before a full window */
static void verdict_words(const struct steady_verdict *v, size_t n, int w,
			  char *buf, size_t len)
{
	if (!v->judged)
		snprintf(buf, len, "not judged (%zu of %d rounds)", n, w);
	else if (v->steady)
		snprintf(buf, len, "steady");
	else
		snprintf(buf, len, "not steady (%s%s%s)", v->range_ok ? "" : "range",
			 !v->range_ok && !v->slope_ok ? " and " : "",
			 v->slope_ok ? "" : "slope");
}

/* One table row: a window of rounds [last - n + 1, last] and its verdict. */
static cJSON *window_row(const struct ssd_dev *d, const char *label,
			 const struct steady_verdict *v, size_t last,
			 const char *verdict, const char *which)
{
	cJSON *o = cJSON_CreateObject();
	char buf[128];
	size_t w = (size_t)d->rule.window, first = last > w ? last - w + 1 : 1;
	jsonw_text(o, "label", label);
	snprintf(buf, sizeof(buf), "%zu-%zu%s", first, last, which);
	jsonw_text(o, "rounds", buf);
	fmt_sig3(v->avg / ssd_metric_div(d->steady.metric), buf, sizeof(buf));
	jsonw_text(o, "avg", buf);
	snprintf(buf, sizeof(buf), "%.1f %%", v->range_frac * 100);
	jsonw_text(o, "range", buf);
	snprintf(buf, sizeof(buf), "%.1f %%", v->slope_frac * 100);
	jsonw_text(o, "slope", buf);
	jsonw_text(o, "verdict", verdict);
	return o;
}

/* A track's rows: the window that first met the rule, beside the word
 * "steady" with that window's own range and slope; then the final window
 * (the one the results average) when it is another window. */
static void track_rows(const struct ssd_dev *d, const struct ssd_track *t,
		       cJSON *into)
{
	char buf[128];
	size_t k = (size_t)t->first_steady_round;
	if (k) {
		snprintf(buf, sizeof(buf), "steady (rule first met at round %zu)", k);
		cJSON_AddItemToArray(into, window_row(d, t->label, &t->at_steady,
						      k, buf, ""));
		if (k == t->n)
			return;
	}
	verdict_words(&t->last, t->n, d->steady.window, buf, sizeof(buf));
	cJSON_AddItemToArray(into, window_row(d, t->label, &t->last, t->n, buf,
					      k ? " (final)" : ""));
}

static cJSON *dev_json(const struct report *r, const struct ssd_dev *d,
		       const struct chart_set *cs, bool html)
{
	cJSON *o = cJSON_CreateObject();
	char buf[512];
	jsonw_text(o, "device", r->devs[d->dev].display);
	if (d->steady.running)
		snprintf(buf, sizeof(buf), "Interrupted after round %d of at most %d: "
			 "no verdict yet.", d->steady.rounds_done, d->steady.max);
	else if (d->steady.steady_round > 0)
		snprintf(buf, sizeof(buf), "Steady state reached at round %d "
			 "(measurement window: rounds %d to %d). The results are the "
			 "averages over the window.", d->steady.steady_round, d->steady.win_first,
			 d->steady.win_last);
	else
		snprintf(buf, sizeof(buf), "Rounds %d to %d are the last window; the "
			 "results are their averages.", d->steady.win_first, d->steady.win_last);
	jsonw_text(o, "verdict", buf);
	if (!d->steady.running && d->steady.steady_round == 0) {
		snprintf(buf, sizeof(buf), "Not steady after %d rounds", d->steady.rounds_done);
		jsonw_text(o, "not_steady", buf);
	}
	snprintf(buf, sizeof(buf), "Steady when, over the last %d rounds, the range "
		 "of each tracked %s is at most %g %% of its average and its "
		 "least-squares line moves at most %g %% across the window (SNIA "
		 "PTS); at most %d rounds.", d->steady.window, metric_words(d->steady.metric),
		 d->steady.range_pct, d->steady.slope_pct, d->steady.max);
	jsonw_text(o, "rule", buf);
	jsonw_text(o, "metric", metric_words(d->steady.metric));
	cJSON *ta = cJSON_AddArrayToObject(o, "tracks");
	for (size_t i = 0; i < d->nt; i++)
		track_rows(d, &d->t[i], ta);
	section_charts_json(cs, "steady", d->dev, html, o);
	return o;
}

static cJSON *pre_json(const struct report *r, const struct ssd_dev *d,
		       const struct chart_set *cs, bool html)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(o, "passes");
	char buf[400], what[128], amt[64], mbs[48];
	jsonw_text(o, "device", r->devs[d->dev].display);
	if (d->pre.purged) {
		ssd_fmt_bytes(d->pre.purge_bytes, amt, sizeof(amt));
		snprintf(buf, sizeof(buf), "Purged first: BLKDISCARD of %s.", amt);
		jsonw_text(o, "purge", buf);
	}
	for (size_t i = 0; i < d->pre.npasses; i++) {
		const struct rset_pass *p = &d->pre.passes[i];
		const struct rset_rep_dir *w = &p->rep.dir[DIR_WRITE];
		ssd_pass_words(p, what, sizeof(what));
		ssd_fmt_bytes(isfinite(w->bytes) ? w->bytes : 0, amt, sizeof(amt));
		fmt_sig3((isfinite(w->bw_bytes_s) ? w->bw_bytes_s : 0) / 1e6, mbs, sizeof(mbs));
		snprintf(buf, sizeof(buf), "%c%s: %s in %.1f s, %s MB/s on average.",
			 what[0] - 32, what + 1, amt, p->rep.runtime_ns / 1e9, mbs);
		cJSON_AddItemToArray(a, cJSON_CreateString(buf));
	}
	section_charts_json(cs, "precondition", d->dev, html, o);
	return o;
}

static cJSON *pts_json(const struct report *r, const struct ssd_pts *p,
		       const struct chart_set *cs, bool html)
{
	cJSON *o = cJSON_CreateObject(), *cols, *rows;
	char buf[64];
	jsonw_text(o, "device", r->devs[p->dev].display);
	cols = cJSON_AddArrayToObject(o, "cols");
	rows = cJSON_AddArrayToObject(o, "rows");
	for (int j = 0; j < p->nbs; j++) {
		fmt_bs(p->bs[j], buf, sizeof(buf));
		cJSON_AddItemToArray(cols, cJSON_CreateString(buf));
	}
	for (int i = 0; i < p->nmix; i++) {
		cJSON *row = cJSON_CreateObject(), *cells;
		snprintf(buf, sizeof(buf), "%d/%d", (int)p->mix[i], 100 - (int)p->mix[i]);
		jsonw_text(row, "mix", buf);
		cells = cJSON_AddArrayToObject(row, "cells");
		for (int j = 0; j < p->nbs; j++) {
			if (isfinite(p->iops[i][j]))
				fmt_sig3(p->iops[i][j], buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "–");
			cJSON_AddItemToArray(cells, cJSON_CreateString(buf));
		}
		cJSON_AddItemToArray(rows, row);
	}
	section_charts_json(cs, "pts", p->dev, html, o);
	return o;
}

void ssd_report_context(const struct report *r, const struct chart_set *cs,
			bool html, cJSON *ctx)
{
	const struct ssd_report *s = r->ssd;
	if (!s)
		return;
	cJSON *st = cJSON_CreateArray(), *pre = cJSON_CreateArray();
	cJSON *pts = cJSON_CreateArray();
	for (size_t i = 0; i < s->n; i++) {
		if (s->d[i].steady.present)
			cJSON_AddItemToArray(st, dev_json(r, &s->d[i], cs, html));
		if (s->d[i].pre.present)
			cJSON_AddItemToArray(pre, pre_json(r, &s->d[i], cs, html));
	}
	for (size_t i = 0; i < s->npts; i++)
		cJSON_AddItemToArray(pts, pts_json(r, &s->pts[i], cs, html));
	/* empty lists are left out so that {{#steady}} sections vanish */
	if (cJSON_GetArraySize(st))
		cJSON_AddItemToObject(ctx, "steady", st);
	else
		cJSON_Delete(st);
	if (cJSON_GetArraySize(pre))
		cJSON_AddItemToObject(ctx, "preconditioning", pre);
	else
		cJSON_Delete(pre);
	if (cJSON_GetArraySize(pts))
		cJSON_AddItemToObject(ctx, "pts", pts);
	else
		cJSON_Delete(pts);
}
