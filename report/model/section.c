/*
 * section.c - section.h: what the model, the optional sections and the
 * renderer share without calling each other: the chart list, a chart's
 * template object, and the two fleet fields of a set that the model needs
 * to tell devices apart.
 */
#include "section.h"

#include <stdlib.h>
#include <string.h>

void chart_set_release(struct chart_set *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->c[i].file);
		free(cs->c[i].title);
		free(cs->c[i].svg);
	}
	free(cs->c);
	free(cs->note);
	memset(cs, 0, sizeof(*cs));
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	cJSON_AddItemToObject(o, k, cJSON_CreateString(v ? v : ""));
}

static void add_path(cJSON *o, const char *k, const char *file, const char *ext)
{
	struct sbuf b = SBUF_INIT;
	sbuf_addf(&b, "charts/%s.%s", file, ext);
	add_str(o, k, sbuf_str(&b));
	sbuf_release(&b);
}

cJSON *chart_json(const struct chart *c, bool html)
{
	cJSON *o = cJSON_CreateObject();
	add_str(o, "title", c->title);
	if (html && c->svg)
		add_str(o, "svg", c->svg);
	if (c->png)
		add_path(o, "png", c->file, "png");
	if (c->svgfile)
		add_path(o, "svgfile", c->file, "svg");
	/* Markdown shows the PNG, else links the SVG */
	if (c->png || c->svgfile)
		add_path(o, "image", c->file, c->png ? "png" : "svg");
	return o;
}

const cJSON *report_dev_fp(const struct report *r, const struct rdev *d,
			   const char **path)
{
	for (size_t i = 0; r->sections[i]; i++) {
		const cJSON *fp;
		if (r->sections[i]->dev_fp &&
		    (fp = r->sections[i]->dev_fp(r, d, path)) != NULL)
			return fp;
	}
	return NULL;
}

const char *report_cell_host(const struct rset_cell *c)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(c->json, "host");
	return cJSON_IsString(h) ? h->valuestring : NULL;
}

const cJSON *report_set_fleet(const struct rset *rs)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(rs->manifest, "fleet");
	return cJSON_IsObject(f) ? f : NULL;
}

bool report_same_host(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}
