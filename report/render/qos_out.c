/*
 * qos_out.c - the QoS part of the output (section_out.h): each swept
 * cell's load points (table rows with the knee and the target met), the
 * cells whose latency is response latency, and the load points as
 * report.csv rows and report.json's "load_points", the cell file's
 * numbers unchanged; from the model's struct qos_report (model/qos.h).
 */
#include "section_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/qos.h"
#include "suite/keys.h"
#include "suite/qos_keys.h"
#include "util/jsonw.h"

/* ---- the template context ---- */

static void add_num(cJSON *o, const char *k, double v)
{
	char b[32];
	fmt_sig3(v, b, sizeof(b));
	jsonw_text(o, k, b);
}

static void add_lat(cJSON *o, const char *k, double ns)
{
	char b[32];
	qos_fmt_lat(ns, b, sizeof(b));
	jsonw_text(o, k, b);
}

static cJSON *point_row(const struct qos_cell *q, size_t i)
{
	const struct qos_point *p = &q->sd.pts[i];
	cJSON *o = cJSON_CreateObject();
	struct sbuf note = SBUF_INIT;
	char b[32];
	add_num(o, "offered", p->offered_iops);
	if (q->sd.max_iops > 0)
		snprintf(b, sizeof(b), "%.0f %%", 100 * p->offered_iops / q->sd.max_iops);
	else
		snprintf(b, sizeof(b), "-");
	jsonw_text(o, "pct", b);
	add_num(o, "achieved", p->achieved_iops);
	add_lat(o, "p50", p->p50_ns);
	add_lat(o, "p99", p->p99_ns);
	add_lat(o, "p999", p->p999_ns);
	add_lat(o, "svc_p50", p->svc_p50_ns);
	add_lat(o, "svc_p99", p->svc_p99_ns);
	if ((int)i == q->sd.knee)
		sbuf_adds(&note, "knee");
	if (p->achieved_iops < QOS_KEEPS_UP * p->offered_iops)
		sbuf_addf(&note, "%soverloaded", note.len ? ", " : "");
	if (p->refined)
		sbuf_addf(&note, "%sbisection", note.len ? ", " : "");
	if ((int)i == q->v.best && q->v.met)
		sbuf_addf(&note, "%ssustained", note.len ? ", " : "");
	/* a load the device did not serve alike from interval to interval */
	if (p->iv_n >= 2 && p->iv_p99_min_ns > 0 &&
	    p->iv_p99_max_ns > QOS_IV_SPREAD * p->iv_p99_min_ns) {
		char lo[32], hi[32], x[32];
		qos_fmt_lat(p->iv_p99_min_ns, lo, sizeof(lo));
		qos_fmt_lat(p->iv_p99_max_ns, hi, sizeof(hi));
		fmt_ratio(p->iv_p99_max_ns / p->iv_p99_min_ns, x, sizeof(x));
		sbuf_addf(&note, "%sp99 %s apart between its %u intervals (%s to %s)",
			  note.len ? ", " : "", x, p->iv_n, lo, hi);
	}
	jsonw_text(o, "note", sbuf_str(&note));
	sbuf_release(&note);
	return o;
}

static cJSON *cell_json(const struct report *r, const struct qos_report *s, size_t ci,
			const struct chart_set *cs, bool html)
{
	const struct qos_cell *q = &s->c[ci];
	cJSON *o = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(o, "rows");
	char tgt[64], b[64];
	struct sbuf t = SBUF_INIT;

	jsonw_text(o, "device", r->devs[q->dev].display);
	jsonw_text(o, "workload", r->groups[q->group].title);
	add_num(o, "max", q->sd.max_iops);
	qos_target_text(&q->sd.target, tgt, sizeof(tgt));
	if (tgt[0])
		jsonw_text(o, "target", tgt);
	if (q->sd.knee >= 0) {
		const struct qos_point *k = &q->sd.pts[q->sd.knee];
		/* the offered load and its share of the maximum, as the
		 * table's offered and % columns; the achieved load apart */
		fmt_iops(k->offered_iops, b, sizeof(b));
		sbuf_addf(&t, "The knee (from there on, response p99 stays above "
			  "%g\xc3\x97 its low-load level, the least p99 of the lower "
			  "half of the loads that another confirms within %g\xc3\x97; "
			  "never below the sustained load) is at an offered load of "
			  "%s IOPS", QOS_KNEE_K, QOS_LOW_CONFIRM, b);
		if (q->sd.max_iops > 0)
			sbuf_addf(&t, " (%.0f %% of the maximum)",
				  100 * k->offered_iops / q->sd.max_iops);
		fmt_iops(k->achieved_iops, b, sizeof(b));
		sbuf_addf(&t, ", where it achieved %s IOPS.", b);
	} else {
		sbuf_addf(&t, "No knee: the response p99 of the highest load is within "
			  "%g\xc3\x97 its low-load level (the least p99 of the lower "
			  "half of the loads that another confirms within %g\xc3\x97).",
			  QOS_KNEE_K, QOS_LOW_CONFIRM);
	}
	jsonw_text(o, "knee", sbuf_str(&t));
	sbuf_release(&t);
	for (size_t i = 0; i < q->sd.n; i++)
		cJSON_AddItemToArray(rows, point_row(q, i));
	section_charts_json(cs, "qos", ci, html, o);
	return o;
}

/* The cells whose latency is response latency (run at a rate): the
 * report's "latency runs from submission" must not cover them silently. */
static void response_cells(const struct report *r, cJSON *ctx)
{
	struct sbuf b = SBUF_INIT;
	for (size_t g = 0; g < r->ngroups; g++)
		for (size_t i = 0; i < r->groups[g].n; i++) {
			const struct rentry *e = &r->groups[g].e[i];
			if (!rset_cell_recorded(e->cell, K_RATE_IOPS))
				continue;
			sbuf_addf(&b, "%s%s, %s", b.len ? "; " : "", r->devs[e->dev].display,
				  r->groups[g].title);
		}
	if (b.len)
		jsonw_text(ctx, "response_cells", sbuf_str(&b));
	sbuf_release(&b);
}

void qos_report_context(const struct report *r, const struct chart_set *cs,
			bool html, cJSON *ctx)
{
	const struct qos_report *s = r->qos;
	response_cells(r, ctx);
	if (!s || !s->n)
		return;
	cJSON *a = cJSON_AddArrayToObject(ctx, "qos");
	for (size_t i = 0; i < s->n; i++)
		cJSON_AddItemToArray(a, cell_json(r, s, i, cs, html));
}

/* ---- report.csv and report.json: the load points of each swept cell ---- */

const char qos_csv_columns[] = ",load_point,offered_iops,achieved_iops,"
	"response_p50_ns,response_p99_ns,response_p999_ns,"
	"service_p50_ns,service_p99_ns,service_p999_ns,refined";

/* A number as the cell file holds it: 17 digits round-trip a double. */
static void csv_val(struct sbuf *b, double v)
{
	sbuf_addc(b, ',');
	if (isfinite(v))
		sbuf_addf(b, "%.17g", v);
}

bool qos_csv_row(const struct report *r, size_t gi, size_t k, size_t i, struct sbuf *cols)
{
	const struct qos_cell *q = qos_cell_of(r, gi, k);
	if (!q || i >= q->sd.n)
		return false;
	const struct qos_point *p = &q->sd.pts[i];
	sbuf_addf(cols, ",%zu", i + 1);
	csv_val(cols, p->offered_iops);
	csv_val(cols, p->achieved_iops);
	csv_val(cols, p->p50_ns);
	csv_val(cols, p->p99_ns);
	csv_val(cols, p->p999_ns);
	csv_val(cols, p->svc_p50_ns);
	csv_val(cols, p->svc_p99_ns);
	csv_val(cols, p->svc_p999_ns);
	sbuf_adds(cols, p->refined ? ",true" : ",false");
	return true;
}

/* v with 17 digits: cJSON's own printing rounds to 15 where they compare
 * equal within its epsilon, and these must equal the cell file's bit for
 * bit; null when not finite. */
static void add_num17(cJSON *o, const char *k, double v)
{
	char t[40];
	if (!isfinite(v)) {
		cJSON_AddNullToObject(o, k);
		return;
	}
	snprintf(t, sizeof(t), "%.17g", v);
	cJSON_AddRawToObject(o, k, t);
}

static cJSON *lat3(double p50, double p99, double p999)
{
	cJSON *o = cJSON_CreateObject();
	if (o) {
		add_num17(o, "p50_ns", p50);
		add_num17(o, "p99_ns", p99);
		add_num17(o, "p999_ns", p999);
	}
	return o;
}

void qos_result_json(const struct report *r, size_t gi, size_t k, cJSON *o)
{
	const struct qos_cell *q = qos_cell_of(r, gi, k);
	if (!q)
		return;
	cJSON *a = cJSON_AddArrayToObject(o, "load_points");
	for (size_t i = 0; a && i < q->sd.n; i++) {
		const struct qos_point *p = &q->sd.pts[i];
		cJSON *j = cJSON_CreateObject();
		if (!j)
			return;
		add_num17(j, "offered_iops", p->offered_iops);
		add_num17(j, "achieved_iops", p->achieved_iops);
		cJSON_AddItemToObject(j, "response", lat3(p->p50_ns, p->p99_ns, p->p999_ns));
		cJSON_AddItemToObject(j, "service", lat3(p->svc_p50_ns, p->svc_p99_ns,
							 p->svc_p999_ns));
		cJSON_AddBoolToObject(j, "refined", p->refined);
		cJSON_AddItemToArray(a, j);
	}
	if (q->sd.max_iops > 0)
		add_num17(o, "load_sweep_max_iops", q->sd.max_iops);
}
