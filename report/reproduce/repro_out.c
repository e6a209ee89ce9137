/*
 * repro_out.c - repro.h's writers: a reproduction's verdicts (struct repro)
 * as lines for a terminal and as a template object, never read back.
 */
#include "repro.h"

#include <string.h>
#include <stdlib.h>

#include "util/jsonw.h"
#include "util/termesc.h"

static const char *const verdict_cls[RV__N] = { "worse", "better", "few", "few", "same" };

/* "48,200 ± 1.2 %" of a side in the unit of its row's metric (latency
 * in the unit that suits both sides). */
static void fmt_side(const struct repro_row *w, const struct side *s, char *buf, size_t len)
{
	double lats[2] = { w->o.mean, w->n.mean }, div = 1;
	const char *unit = w->m == M_LAT ? fmt_lat_unit(lats, 2, &div) : NULL;
	fmt_stat(s->mean, side_ci95(s), (int)s->n, div, buf, len);
	if (unit) {
		strncat(buf, " ", len - strlen(buf) - 1);
		strncat(buf, unit, len - strlen(buf) - 1);
	}
}

static void fmt_ci(const struct repro_row *w, char *buf, size_t len)
{
	if (w->ci.ok)
		snprintf(buf, len, "%.3f … %.3f", w->ci.lo, w->ci.hi);
	else
		snprintf(buf, len, "–");
}

void repro_print(const struct repro *p, const struct report *r, FILE *f)
{
	char o[64], n[64], ci[64], d[128], w[256], a[512], b[512];
	char *s = repro_sentence(p);

	/* names and facts from the sets reach the terminal as text (termesc.h) */
	fprintf(f, "reproduce: original %s -> reproduction %s (tolerance ±%g %%)\n",
		termesc(r->sets[p->orig].shown, a, sizeof(a)),
		termesc(r->sets[p->rep].shown, b, sizeof(b)), p->tol_pct);
	for (size_t i = 0; i < p->n; i++) {
		const struct repro_row *row = &p->rows[i];
		fmt_side(row, &row->o, o, sizeof(o));
		fmt_side(row, &row->n, n, sizeof(n));
		fmt_ci(row, ci, sizeof(ci));
		fprintf(f, "  %-12s %s: %s, %s: original %s, reproduction %s, ratio %.3f (CI %s)\n",
			repro_verdict_words[row->v], termesc(row->device, d, sizeof(d)),
			termesc(row->workload, w, sizeof(w)), metric_names[row->m],
			o, n, row->ratio, ci);
	}
	fprintf(f, "%s\n", s ? termesc(s, a, sizeof(a)) : "");
	free(s);
	if (p->count[RV_SAME] != p->n) {
		if (!p->nenv)
			fprintf(f, "no difference between the two environments was recorded\n");
		else
			fprintf(f, "differences that could explain it:\n");
		for (size_t i = 0; i < p->nenv; i++)
			fprintf(f, "  %s\n", termesc(p->env[i], a, sizeof(a)));
	}
}

cJSON *repro_context(const struct repro *p, const struct report *r)
{
	cJSON *o = cJSON_CreateObject(), *rows, *env;
	char buf[96], a[64], b[64];
	char *s = repro_sentence(p);

	if (!o)
		return NULL;
	snprintf(buf, sizeof(buf), "%g", p->tol_pct);
	jsonw_text(o, "tolerance", buf);
	jsonw_text(o, "sentence", s);
	free(s);
	jsonw_text(o, "original", r->sets[p->orig].shown);
	jsonw_text(o, "reproduction", r->sets[p->rep].shown);
	rows = cJSON_AddArrayToObject(o, "rows");
	for (size_t i = 0; rows && i < p->n; i++) {
		const struct repro_row *w = &p->rows[i];
		cJSON *t = cJSON_CreateObject();
		fmt_side(w, &w->o, a, sizeof(a));
		fmt_side(w, &w->n, b, sizeof(b));
		jsonw_text(t, "device", w->device);
		jsonw_text(t, "workload", w->workload);
		jsonw_text(t, "metric", metric_names[w->m]);
		jsonw_text(t, "original", a);
		jsonw_text(t, "reproduction", b);
		snprintf(buf, sizeof(buf), "%.3f", w->ratio);
		jsonw_text(t, "ratio", buf);
		fmt_ci(w, buf, sizeof(buf));
		jsonw_text(t, "ci", buf);
		jsonw_text(t, "verdict", repro_verdict_words[w->v]);
		jsonw_text(t, "cls", verdict_cls[w->v]);
		cJSON_AddItemToArray(rows, t);
	}
	env = cJSON_AddArrayToObject(o, "env");
	for (size_t i = 0; env && i < p->nenv; i++)
		cJSON_AddItemToArray(env, cJSON_CreateString(p->env[i]));
	if (repro_missed(p))
		cJSON_AddTrueToObject(o, "missed");
	return o;
}

