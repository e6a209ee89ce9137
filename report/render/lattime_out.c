/*
 * lattime_out.c - the "Latency over time" section's template context
 * (section_out.h): per cell shown, its device, workload, what the charts
 * are drawn from, the spike sentence and the two charts.
 */
#include <stdio.h>
#include <string.h>

#include "model/lattime.h"
#include "model/qos.h"
#include "section_out.h"
#include "util/jsonw.h"

static cJSON *cell_json(const struct report *r, const struct lattime_report *s, size_t i,
			const struct chart_set *cs, bool html)
{
	const struct lattime_cell *l = &s->c[i];
	cJSON *o = cJSON_CreateObject();
	char iv[32], p99[32], b[256];

	jsonw_text(o, "device", r->devs[l->dev].display);
	jsonw_text(o, "workload", r->groups[l->group].title);
	lattime_fmt_time(l->iv_s, iv, sizeof(iv));
	qos_fmt_lat(l->run_p99, p99, sizeof(p99));
	snprintf(b, sizeof(b), "%s of the first repetition, %zu intervals of %s; its p99 "
		 "over the whole run: %s", l->reads && l->writes ? "Reads and writes together" :
		 l->reads ? "Reads" : "Writes", l->n, iv, p99);
	jsonw_text(o, "what", b);
	if (l->spike)
		jsonw_text(o, "spike", l->spike);
	/* the two charts by name (lattime_chart.c draws them in this order),
	 * the heatmap's figure with an anchor of its own */
	snprintf(b, sizeof(b), "lattime-%zu-%zu", l->group + 1, l->entry + 1);
	jsonw_text(o, "anchor", b);
	int nth = 0;
	for (size_t k = 0; cs && k < cs->n; k++)
		if (cs->c[k].section && !strcmp(cs->c[k].section, "lattime") &&
		    cs->c[k].section_dev == i && nth < 2)
			cJSON_AddItemToObject(o, nth++ ? "heatmap" : "percentiles",
					      chart_json(&cs->c[k], html));
	return o;
}

void lattime_context(const struct report *r, const struct chart_set *cs, bool html,
		     cJSON *ctx)
{
	const struct lattime_report *s = r->lattime;
	cJSON *a = NULL;

	for (size_t i = 0; s && i < s->n; i++) {
		bool drawn = false;
		for (size_t k = 0; cs && k < cs->n && !drawn; k++)
			drawn = cs->c[k].section && !strcmp(cs->c[k].section, "lattime") &&
				cs->c[k].section_dev == i;
		if (!s->c[i].shown && !drawn)
			continue;
		if (!a && !(a = cJSON_AddArrayToObject(ctx, "lattime")))
			return;
		cJSON_AddItemToArray(a, cell_json(r, s, i, cs, html));
	}
}
