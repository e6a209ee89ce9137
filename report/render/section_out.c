/*
 * section_out.c - section_out.h: a chart's template object, and a
 * section's charts as a list of them.
 */
#include "section_out.h"

#include <string.h>

#include "util/jsonw.h"

static void add_path(cJSON *o, const char *k, const char *file, const char *ext)
{
	struct sbuf b = SBUF_INIT;
	sbuf_addf(&b, "charts/%s.%s", file, ext);
	jsonw_text(o, k, sbuf_str(&b));
	sbuf_release(&b);
}

cJSON *chart_json(const struct chart *c, bool html)
{
	cJSON *o = cJSON_CreateObject();
	jsonw_text(o, "title", c->title);
	if (html && c->svg)
		jsonw_text(o, "svg", c->svg);
	if (c->png)
		add_path(o, "png", c->file, "png");
	if (c->svgfile)
		add_path(o, "svgfile", c->file, "svg");
	/* Markdown shows the PNG, else links the SVG */
	if (c->png || c->svgfile)
		add_path(o, "image", c->file, c->png ? "png" : "svg");
	return o;
}

void section_charts_json(const struct chart_set *cs, const char *section, size_t dev,
			 bool html, cJSON *into)
{
	cJSON *a = cJSON_AddArrayToObject(into, "charts");
	for (size_t i = 0; cs && i < cs->n; i++)
		if (cs->c[i].section && !strcmp(cs->c[i].section, section) &&
		    cs->c[i].section_dev == dev)
			cJSON_AddItemToArray(a, chart_json(&cs->c[i], html));
}
