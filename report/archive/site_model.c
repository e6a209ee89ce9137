/*
 * site_model.c - the model behind `iomatrix site` and the template
 * contexts of its index, device and suite pages (site.h).  Strings stay
 * raw here; the template engine escapes them for HTML.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"
#include "model/report.h"
#include "site.h"
#include "util/array.h"
#include "util/freemany.h"
#include "util/jsonw.h"

void site_init(struct site *s, const struct hist_opts *opt)
{
	memset(s, 0, sizeof(*s));
	history_init(&s->h, opt);
}

void site_slug(const char *text, const char *key, char *buf, size_t len)
{
	char slug[64], hex[65];
	escape_slug(text, slug, sizeof(slug));
	sha256_hex(key, strlen(key), hex);
	snprintf(buf, len, "%s-%.8s", slug, hex);
}

static struct site_suite *suite_get(struct site *s, const struct arc_set *set)
{
	for (size_t i = 0; i < s->nsuites; i++)
		if (!strcmp(s->suites[i].name, set->suite))
			return &s->suites[i];
	struct site_suite *u = ARRAY_ADD(s->suites, s->nsuites);
	char slug[128];
	if (!u)
		return NULL;
	site_slug(set->suite, set->suite, slug, sizeof(slug));
	sha256_init(&u->hash);
	if (!(u->name = strdup(set->suite)) || !(u->slug = strdup(slug))) {
		free(u->name);
		s->nsuites--;   /* a suite without its name is none: suite_get reads it */
		return NULL;
	}
	return u;
}

static void entry_cells_free(struct site_entry *e)
{
	for (size_t i = 0; i < e->ncells; i++) {
		free(e->cells[i].label);
		free(e->cells[i].sig);
	}
	free(e->cells);
	e->cells = NULL;
	e->ncells = 0;
}

/* The newest full-size set of a suite per device replaces the older one. */
static int suite_take(struct site_suite *u, const struct arc_set *set, size_t si)
{
	for (size_t d = 0; d < set->ndevs; d++) {
		const struct arc_dev *dv = &set->devs[d];
		size_t k;
		for (k = 0; k < u->ne; k++)
			if (!strcmp(u->e[k].ident, dv->ident))
				break;
		if (k == u->ne) {
			struct site_entry *p = ARRAY_ADD(u->e, u->ne);
			if (!p || !(p->ident = strdup(dv->ident))) {
				u->ne -= p != NULL;   /* found by its identity: none, none */
				return -1;
			}
		}
		struct site_entry *e = &u->e[k];
		size_t n = 0;
		for (size_t c = 0; c < set->ncells; c++)
			n += set->cells[c].dev == d;
		if (!n)
			continue;   /* every cell of it failed: keep the older set */
		if (set->scale != 1 && e->ncells && e->scale == 1)
			continue;   /* a rehearsal never replaces a full-size run */
		entry_cells_free(e);
		e->set = si;
		e->scale = set->scale;
		e->cells = calloc(n, sizeof(*e->cells));
		if (!e->cells)
			return -1;
		for (size_t c = 0; c < set->ncells; c++) {
			const struct arc_cell *src = &set->cells[c];
			if (src->dev != d)
				continue;
			struct arc_cell *dst = &e->cells[e->ncells++];
			*dst = *src;
			dst->label = strdup(src->label);
			dst->sig = NULL;
			if (!dst->label)
				return -1;
		}
	}
	return 0;
}

/* The slot of slug in s->slug_tab: the set holding it, or the empty slot
 * where it goes (FNV-1a; cap is a power of two, never full). */
static size_t slug_slot(const struct site *s, const char *slug)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)slug; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	size_t k = (size_t)h & (s->slug_cap - 1);
	while (s->slug_tab[k] != SIZE_MAX && strcmp(s->sets[s->slug_tab[k]].slug, slug))
		k = (k + 1) & (s->slug_cap - 1);
	return k;
}

/* Room for one more slug (the table at most half full): 0, or -1. */
static int slug_reserve(struct site *s)
{
	if ((s->nsets + 1) * 2 <= s->slug_cap)
		return 0;
	size_t cap = s->slug_cap ? s->slug_cap * 2 : 256;
	size_t *t = malloc(cap * sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < cap; i++)
		t[i] = SIZE_MAX;
	free(s->slug_tab);
	s->slug_tab = t;
	s->slug_cap = cap;
	for (size_t i = 0; i < s->nsets; i++)
		if (s->sets[i].slug)
			t[slug_slot(s, s->sets[i].slug)] = i;
	return 0;
}

int site_add(struct site *s, const struct arc_set *set, const char *stamp)
{
	if (slug_reserve(s) < 0)
		return -1;
	if (history_add(&s->h, set) < 0)
		return -1;
	struct site_set *x = ARRAY_PUSH(s->sets, s->sets_alloc, s->nsets, 64);
	if (!x)
		return -1;
	/* a set's folder is its own name when that is a safe file name (as
	 * run's names are), else a slug with a hash */
	char slug[128];
	size_t safe = strspn(set->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789._-");
	if (!set->name[safe] && safe < 100 && set->name[0] != '.' && set->name[0] != '-')
		snprintf(slug, sizeof(slug), "%s", set->name);
	else
		site_slug(set->name, set->path, slug, sizeof(slug));
	x->slug = NULL;   /* not in the table until it is whole */
	if (s->slug_tab[slug_slot(s, slug)] != SIZE_MAX)   /* the same name twice */
		site_slug(set->name, set->path, slug, sizeof(slug));
	x->name = strdup(set->name);
	x->slug = strdup(slug);
	if (x->slug)
		s->slug_tab[slug_slot(s, x->slug)] = s->nsets - 1;
	x->path = strdup(set->path);
	x->date = strdup(set->date);
	x->suite = strdup(set->suite);
	x->host = strdup(set->host);
	x->status = strdup(set->status);
	x->source = strdup(set->source);
	snprintf(x->stamp, sizeof(x->stamp), "%s", stamp);
	x->scale = set->scale;
	x->cells_done = set->cells_done;
	x->cells_total = set->cells_total;
	x->cells_failed = set->cells_failed;
	x->has_report = set->has_report;
	if (set->failed_verify && !(x->failed_why = strdup(set->failed_why)))
		return -1;
	x->devs = calloc(set->ndevs + 1, sizeof(char *));
	x->dev_idents = calloc(set->ndevs + 1, sizeof(char *));
	if (!x->name || !x->slug || !x->path || !x->date || !x->suite || !x->host ||
	    !x->status || !x->source || !x->devs || !x->dev_idents)
		return -1;
	for (size_t d = 0; d < set->ndevs; d++) {
		x->devs[d] = strdup(set->devs[d].name);
		x->dev_idents[d] = strdup(set->devs[d].ident);
		x->ndevs++;
		if (!x->devs[d] || !x->dev_idents[d])
			return -1;
	}
	struct site_suite *u = suite_get(s, set);
	if (!u)
		return -1;
	if (!u->title && set->title)
		u->title = strdup(set->title);
	u->nsets++;
	sha256_update(&u->hash, set->name, strlen(set->name) + 1);
	sha256_update(&u->hash, stamp, strlen(stamp) + 1);
	if (suite_take(u, set, s->nsets - 1) < 0)
		return -1;
	return 0;
}

/* Canonical history identity of an identity key; SIZE_MAX if unknown
 * (a device whose cells all failed). */
static size_t ident_of(const struct site *s, const char *key)
{
	for (size_t i = 0; i < s->h.nidents; i++)
		if (!strcmp(s->h.idents[i].key, key))
			return s->h.idents[i].canon;
	return SIZE_MAX;
}

int site_finish(struct site *s, struct errlist *errs)
{
	if (history_finish(&s->h, errs) < 0)
		return -1;
	s->ident_slug = calloc(s->h.nidents ? s->h.nidents : 1, sizeof(char *));
	if (!s->ident_slug)
		return -1;
	for (size_t i = 0; i < s->h.nidents; i++) {
		const struct hist_ident *id = &s->h.idents[i];
		char text[256], slug[128];
		snprintf(text, sizeof(text), "%s-%s", id->host, id->device);
		site_slug(text, s->h.idents[id->canon].key, slug, sizeof(slug));
		if (!(s->ident_slug[i] = strdup(slug)))
			return -1;
	}
	/* a joined identity's page is its canonical one's */
	for (size_t i = 0; i < s->h.nidents; i++)
		if (s->h.idents[i].canon != i) {
			free(s->ident_slug[i]);
			s->ident_slug[i] = strdup(s->ident_slug[s->h.idents[i].canon]);
			if (!s->ident_slug[i])
				return -1;
		}
	return 0;
}

void site_release(struct site *s)
{
	for (size_t i = 0; i < s->nsets; i++) {
		struct site_set *x = &s->sets[i];
		free_strv(x->devs, x->ndevs);
		free_strv(x->dev_idents, x->ndevs);
		FREE_MANY(x->name, x->slug, x->path, x->date, x->suite, x->host, x->status, x->source,
			  x->failed_why);
	}
	for (size_t i = 0; i < s->nsuites; i++) {
		struct site_suite *u = &s->suites[i];
		for (size_t k = 0; k < u->ne; k++) {
			entry_cells_free(&u->e[k]);
			free(u->e[k].ident);
		}
		FREE_MANY(u->e, u->name, u->title, u->slug);
	}
	free_strv(s->ident_slug, s->h.nidents);
	FREE_MANY(s->sets, s->suites, s->slug_tab);
	history_release(&s->h);
	memset(s, 0, sizeof(*s));
}

/* ---- page contexts ---- */

/* "2026-01-20 03:00" */
static void short_date(const char *iso, char *buf, size_t len)
{
	snprintf(buf, len, "%.16s", iso);
	char *t = strchr(buf, 'T');
	if (t)
		*t = ' ';
}

static char *ident_name(const struct site *s, size_t i)
{
	return history_ident_name(&s->h, i);
}

/* First and last date and number of distinct sets of an identity. */
static size_t ident_span(const struct site *s, size_t ident, size_t *first, size_t *last)
{
	unsigned char *seen = calloc(s->h.nsets ? s->h.nsets : 1, 1);
	size_t n = 0;
	*first = SIZE_MAX;
	*last = 0;
	for (size_t i = 0; seen && i < s->h.nseries; i++) {
		const struct hist_series *r = &s->h.series[i];
		if (r->ident != ident)
			continue;
		for (size_t k = 0; k < r->n; k++) {
			size_t set = r->pts[k].set;
			n += !seen[set];
			seen[set] = 1;
			if (set < *first)
				*first = set;
			if (set > *last)
				*last = set;
		}
	}
	free(seen);
	return n;
}

static void dev_card(const struct site *s, size_t i, cJSON *o)
{
	const struct hist_ident *id = &s->h.idents[i];
	char *name = ident_name(s, i), d1[32] = "?", d2[32] = "?";
	size_t first, last, n = ident_span(s, i, &first, &last);
	int nch = 0;
	for (size_t k = 0; k < s->h.nseries; k++)
		if (s->h.series[k].ident == i)
			nch += s->h.series[k].nchanges;
	if (n) {
		short_date(s->h.sets[first].date, d1, sizeof(d1));
		short_date(s->h.sets[last].date, d2, sizeof(d2));
	}
	jsonw_str(o, "name", name);
	jsonw_str(o, "model", id->model);
	jsonw_str(o, "what", id->model ? id->model : id->path);
	jsonw_str(o, "path", id->path);
	jsonw_fmt(o, "href", "devices/%s.html", s->ident_slug[i]);
	cJSON_AddNumberToObject(o, "nsets", (double)n);
	jsonw_fmt(o, "nsets_text", "%zu set%s", n, n == 1 ? "" : "s");
	cJSON_AddNumberToObject(o, "nchanges", nch);
	if (nch)
		jsonw_fmt(o, "nchanges_text", "%d change point%s", nch, nch == 1 ? "" : "s");
	jsonw_str(o, "first", d1);
	jsonw_str(o, "last", d2);
	free(name);
}

cJSON *site_index_context(const struct site *s, const char *title)
{
	cJSON *ctx = cJSON_CreateObject();
	char first[32], last[32], d[32];
	jsonw_str(ctx, "title", title);
	cJSON_AddNumberToObject(ctx, "nsets", (double)s->nsets);
	short_date(s->nsets ? s->sets[0].date : "?", first, sizeof(first));
	jsonw_str(ctx, "first", first);
	short_date(s->nsets ? s->sets[s->nsets - 1].date : "?", last, sizeof(last));
	jsonw_str(ctx, "last", last);
	cJSON *sets = cJSON_AddArrayToObject(ctx, "sets");
	cJSON **rows = calloc(s->nsets ? s->nsets : 1, sizeof(*rows));
	if (!rows) {
		cJSON_Delete(ctx);
		return NULL;
	}
	for (size_t i = s->nsets; i-- > 0;) {   /* newest first */
		const struct site_set *x = &s->sets[i];
		cJSON *o = rows[i] = cJSON_CreateObject();
		short_date(x->date, d, sizeof(d));
		jsonw_str(o, "date", d);
		jsonw_str(o, "date_iso", x->date);
		jsonw_str(o, "suite", x->suite);
		for (size_t u = 0; u < s->nsuites; u++)
			if (!strcmp(s->suites[u].name, x->suite))
				jsonw_fmt(o, "suite_href", "suites/%s.html", s->suites[u].slug);
		jsonw_str(o, "host", x->host);
		cJSON *devs = cJSON_AddArrayToObject(o, "devices");
		for (size_t k = 0; k < x->ndevs; k++) {
			size_t id = ident_of(s, x->dev_idents[k]);
			if (id == SIZE_MAX)
				continue;   /* no successful cell: no page */
			cJSON *dv = cJSON_CreateObject();
			jsonw_str(dv, "name", x->devs[k]);
			jsonw_fmt(dv, "href", "devices/%s.html", s->ident_slug[id]);
			cJSON_AddItemToArray(devs, dv);
		}
		jsonw_str(o, "status", x->status);
		if (x->failed_why)   /* its numbers are not on the site */
			jsonw_str(o, "verify_failed", x->failed_why);
		if (strcmp(x->source, "iomatrix"))
			jsonw_str(o, "source", x->source);
		jsonw_fmt(o, "scale", "%g", x->scale);
		if (x->scale != 1)
			cJSON_AddTrueToObject(o, "rehearsal");
		cJSON_AddNumberToObject(o, "cells_done", x->cells_done);
		if (x->cells_failed)
			jsonw_fmt(o, "cells", "%d/%d (%d failed)", x->cells_done, x->cells_total,
			      x->cells_failed);
		else
			jsonw_fmt(o, "cells", "%d/%d", x->cells_done, x->cells_total);
		jsonw_fmt(o, "report_href", "sets/%s/report.html", x->slug);
		cJSON_AddItemToArray(sets, o);
	}
	int rc = site_repro_links(s, rows);
	free(rows);
	if (rc < 0) {
		cJSON_Delete(ctx);
		return NULL;
	}
	cJSON *devs = cJSON_AddArrayToObject(ctx, "devices");
	size_t ndev = 0;
	for (size_t i = 0; i < s->h.nidents; i++) {
		if (s->h.idents[i].canon != i)
			continue;
		size_t f, l;
		if (!ident_span(s, i, &f, &l))
			continue;
		cJSON *o = cJSON_CreateObject();
		dev_card(s, i, o);
		cJSON_AddItemToArray(devs, o);
		ndev++;
	}
	cJSON_AddNumberToObject(ctx, "ndevices", (double)ndev);
	jsonw_fmt(ctx, "counts", "%zu result set%s from %s to %s; %zu device%s, %zu suite%s",
	      s->nsets, s->nsets == 1 ? "" : "s", first, last, ndev, ndev == 1 ? "" : "s",
	      s->nsuites, s->nsuites == 1 ? "" : "s");
	cJSON *suites = cJSON_AddArrayToObject(ctx, "suites");
	for (size_t i = 0; i < s->nsuites; i++) {
		cJSON *o = cJSON_CreateObject();
		jsonw_str(o, "name", s->suites[i].name);
		jsonw_fmt(o, "href", "suites/%s.html", s->suites[i].slug);
		size_t ns = s->suites[i].nsets, nd = 0;
		for (size_t k = 0; k < s->suites[i].ne; k++)
			nd += s->suites[i].e[k].ncells > 0;
		jsonw_fmt(o, "counts", "%zu set%s, %zu device%s", ns, ns == 1 ? "" : "s", nd,
		      nd == 1 ? "" : "s");
		cJSON_AddItemToArray(suites, o);
	}
	cJSON_AddNumberToObject(ctx, "nsuites", (double)s->nsuites);
	return ctx;
}

static void change_text(const struct cp_result *cp, char *buf, size_t len)
{
	if (cp->kind != CP_NONE)
		snprintf(buf, len, "%+.1f %% %s", cp->change_pct, cp_kind_name(cp->kind));
	else
		buf[0] = 0;
}

static char *env_text(const struct hist_point *p)
{
	struct sbuf b = SBUF_INIT;
	for (size_t e = 0; e < p->nenv_changes; e++)
		sbuf_addf(&b, "%s%s", e ? "; " : "", p->env_changes[e]);
	return b.len ? sbuf_detach(&b) : NULL;
}

static cJSON *series_obj(const struct site *s, size_t si, size_t k, const char *chart,
			 const char *lattime, cJSON *changes)
{
	const struct hist_series *r = &s->h.series[si];
	cJSON *o = cJSON_CreateObject();
	char anchor[32], d[32], v[64], c[80];
	snprintf(anchor, sizeof(anchor), "w%zu", k + 1);
	jsonw_str(o, "anchor", anchor);
	jsonw_str(o, "workload", r->workload);
	jsonw_str(o, "metric", arc_metric_units[r->metric]);
	if (r->apart)
		jsonw_str(o, "apart", r->apart);
	if (chart)
		jsonw_str(o, "chart", chart);
	if (lattime && r->n) {
		jsonw_str(o, "lattime", lattime);
		jsonw_str(o, "lattime_set", s->sets[r->pts[r->n - 1].set].name);
		jsonw_fmt(o, "lattime_href", "%s/report.html#lattime",
			  s->sets[r->pts[r->n - 1].set].slug);
	}
	cJSON_AddNumberToObject(o, "nchanges", r->nchanges);
	if (r->nchanges || !chart)
		cJSON_AddTrueToObject(o, "open");
	jsonw_fmt(o, "npoints_text", "%zu set%s", r->n, r->n == 1 ? "" : "s");
	cJSON *pts = cJSON_AddArrayToObject(o, "points");
	for (size_t i = r->n; i-- > 0;) {   /* newest first, as the index */
		const struct hist_point *p = &r->pts[i];
		const struct site_set *x = &s->sets[p->set];
		cJSON *q = cJSON_CreateObject();
		short_date(x->date, d, sizeof(d));
		fmt_stat(p->v.mean, p->v.ci95, p->v.n, 1, v, sizeof(v));
		change_text(&p->cp, c, sizeof(c));
		char *env = env_text(p);
		jsonw_str(q, "date", d);
		jsonw_str(q, "value", v);
		cJSON_AddNumberToObject(q, "n", p->v.n);
		if (c[0])
			jsonw_str(q, "change", c);
		jsonw_str(q, "env", env);
		jsonw_str(q, "set", x->name);
		jsonw_fmt(q, "href", "../sets/%s/report.html", x->slug);
		cJSON_AddItemToArray(pts, q);
		if (c[0]) {
			cJSON *ch = cJSON_CreateObject();
			jsonw_str(ch, "date", d);
			jsonw_str(ch, "workload", r->workload);
			jsonw_str(ch, "anchor", anchor);
			jsonw_str(ch, "text", c);
			jsonw_str(ch, "env", env);
			cJSON_AddItemToArray(changes, ch);
		}
		free(env);
	}
	return o;
}

cJSON *site_device_context(const struct site *s, size_t ident, const char *title,
			   const char *const *charts, const char *const *lattime,
			   double threshold)
{
	cJSON *ctx = cJSON_CreateObject();
	jsonw_str(ctx, "title", title);
	dev_card(s, ident, ctx);
	jsonw_fmt(ctx, "threshold", "%g", threshold);
	cJSON *changes = cJSON_AddArrayToObject(ctx, "changes");
	cJSON *series = cJSON_AddArrayToObject(ctx, "series");
	size_t k = 0;
	for (size_t i = 0; i < s->h.nseries; i++) {
		if (s->h.series[i].ident != ident)
			continue;
		cJSON_AddItemToArray(series, series_obj(s, i, k, charts ? charts[i] : NULL,
							lattime ? lattime[i] : NULL, changes));
		k++;
	}
	return ctx;
}

void site_device_hash(const struct site *s, size_t ident, const char *salt, char hex[65])
{
	struct sha256 h;
	unsigned char out[32];
	sha256_init(&h);
	sha256_update(&h, salt, strlen(salt) + 1);
	sha256_update(&h, s->h.idents[ident].key, strlen(s->h.idents[ident].key) + 1);
	for (size_t i = 0; i < s->h.nseries; i++) {
		const struct hist_series *r = &s->h.series[i];
		if (r->ident != ident)
			continue;
		sha256_update(&h, r->workload, strlen(r->workload) + 1);
		for (size_t k = 0; k < r->n; k++) {
			const struct site_set *x = &s->sets[r->pts[k].set];
			sha256_update(&h, x->name, strlen(x->name) + 1);
			sha256_update(&h, x->stamp, strlen(x->stamp) + 1);
		}
	}
	sha256_final(&h, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
}

void site_suite_hash(const struct site *s, size_t suite, const char *salt, char hex[65])
{
	struct sha256 h = s->suites[suite].hash;   /* a copy: final() ends it */
	unsigned char out[32];
	sha256_update(&h, salt, strlen(salt) + 1);
	sha256_final(&h, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
}

void site_index_hash(const struct site *s, const char *salt, char hex[65])
{
	struct sha256 h;
	unsigned char out[32];
	sha256_init(&h);
	sha256_update(&h, salt, strlen(salt) + 1);
	for (size_t i = 0; i < s->nsets; i++) {
		sha256_update(&h, s->sets[i].path, strlen(s->sets[i].path) + 1);
		sha256_update(&h, s->sets[i].stamp, strlen(s->sets[i].stamp) + 1);
	}
	sha256_final(&h, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
}

/* ---- suite page: OpenBenchmarking-style ranking ---- */

struct srow {
	size_t ident, entry;        /* canonical identity, index into suite.e */
	double score;               /* geometric mean of ratios */
};

static const struct arc_cell *entry_cell(const struct site_entry *e, const char *label)
{
	for (size_t i = 0; i < e->ncells; i++)
		if (!strcmp(e->cells[i].label, label))
			return &e->cells[i];
	return NULL;
}

static int metric_of(const struct arc_cell *c)
{
	return c->seq_large ? ARC_MBS : ARC_IOPS;
}

/* Ratio of a to b on one workload, higher is better. */
static double cell_ratio(const struct arc_cell *a, const struct arc_cell *b)
{
	int m = metric_of(a);
	double x = a->m[m].mean, y = b->m[m].mean;
	if (!(x > 0 && y > 0))
		return NAN;
	return arc_metric_lower_better(m) ? y / x : x / y;
}

static int srow_cmp(const void *a, const void *b)
{
	const struct srow *x = a, *y = b;
	return x->score > y->score ? -1 : x->score < y->score ? 1 :
	       (x->ident > y->ident) - (x->ident < y->ident);
}

/* Rows: one per canonical identity (its newest entry). */
static size_t suite_rows(const struct site *s, const struct site_suite *u, struct srow *rows)
{
	size_t n = 0;
	for (size_t k = 0; k < u->ne; k++) {
		size_t id = ident_of(s, u->e[k].ident);
		if (id == SIZE_MAX || !u->e[k].ncells)
			continue;
		size_t j;
		for (j = 0; j < n; j++)
			if (rows[j].ident == id)
				break;
		if (j == n)
			rows[n++] = (struct srow){ id, k, 0 };
		else if (u->e[k].set > u->e[rows[j].entry].set)
			rows[j].entry = k;
	}
	return n;
}

/* Workloads every row has, in the first row's order. */
static size_t suite_common(const struct site_suite *u, const struct srow *rows, size_t n,
			   const char **labels, cJSON *others)
{
	size_t nc = 0;
	const struct site_entry *e0 = &u->e[rows[0].entry];
	for (size_t i = 0; i < e0->ncells; i++) {
		size_t have = 0;
		for (size_t r = 0; r < n; r++)
			have += entry_cell(&u->e[rows[r].entry], e0->cells[i].label) != NULL;
		if (have == n)
			labels[nc++] = e0->cells[i].label;
	}
	for (size_t r = 1; r < n; r++) {
		const struct site_entry *e = &u->e[rows[r].entry];
		for (size_t i = 0; i < e->ncells; i++)
			if (!entry_cell(e0, e->cells[i].label))
				cJSON_AddItemToArray(others, cJSON_CreateString(e->cells[i].label));
	}
	for (size_t i = 0; i < e0->ncells; i++) {
		size_t k;
		for (k = 0; k < nc && strcmp(labels[k], e0->cells[i].label); k++)
			;
		if (k == nc)
			cJSON_AddItemToArray(others, cJSON_CreateString(e0->cells[i].label));
	}
	return nc;
}

static bool row_is(const struct site *s, size_t ident, const char *name)
{
	const struct hist_ident *id = &s->h.idents[ident];
	for (size_t i = 0; i < s->h.nidents; i++) {
		if (s->h.idents[i].canon != ident)
			continue;
		for (size_t k = 0; k < s->h.idents[i].nalias; k++)
			if (!strcmp(s->h.idents[i].alias[k], name))
				return true;
	}
	return !strcmp(id->device, name);
}

static void suite_matrix(const struct site *s, const struct site_suite *u,
			 const struct srow *rows, size_t n, size_t base,
			 const char **labels, size_t nc, cJSON *ctx)
{
	cJSON *mx = cJSON_AddArrayToObject(ctx, "matrix");
	for (size_t w = 0; w < nc; w++) {
		cJSON *o = cJSON_CreateObject();
		const struct arc_cell *bc = entry_cell(&u->e[rows[base].entry], labels[w]);
		int m = metric_of(bc);
		jsonw_str(o, "workload", labels[w]);
		jsonw_str(o, "unit", arc_metric_units[m]);
		size_t best = 0;
		for (size_t r = 1; r < n; r++)
			if (cell_ratio(entry_cell(&u->e[rows[r].entry], labels[w]),
				       entry_cell(&u->e[rows[best].entry], labels[w])) > 1)
				best = r;
		cJSON *cells = cJSON_AddArrayToObject(o, "cells");
		for (size_t r = 0; r < n; r++) {
			const struct arc_cell *c = entry_cell(&u->e[rows[r].entry], labels[w]);
			cJSON *q = cJSON_CreateObject();
			char v[64], rt[40];
			fmt_stat(c->m[m].mean, c->m[m].ci95, c->m[m].n, 1, v, sizeof(v));
			jsonw_str(q, "value", v);
			double ratio = cell_ratio(c, bc);
			if (n > 1 && isfinite(ratio)) {
				fmt_ratio(ratio, rt, sizeof(rt));
				jsonw_str(q, "ratio", rt);
			}
			if (n > 1 && r == best)
				cJSON_AddTrueToObject(q, "best");
			cJSON_AddItemToArray(cells, q);
		}
		cJSON_AddItemToArray(mx, o);
	}
	(void)s;
}

cJSON *site_suite_context(const struct site *s, size_t suite, const char *title,
			  const char *baseline)
{
	const struct site_suite *u = &s->suites[suite];
	cJSON *ctx = cJSON_CreateObject();
	struct srow *rows = calloc(u->ne + 1, sizeof(*rows));
	const char **labels = NULL;
	jsonw_str(ctx, "title", title);
	jsonw_str(ctx, "suite", u->name);
	jsonw_str(ctx, "suite_title", u->title);
	cJSON_AddNumberToObject(ctx, "nsets", (double)u->nsets);
	cJSON *others = cJSON_AddArrayToObject(ctx, "others");
	size_t n = rows ? suite_rows(s, u, rows) : 0, nc = 0;
	if (n)
		labels = calloc(u->e[rows[0].entry].ncells + 1, sizeof(*labels));
	if (n && labels)
		nc = suite_common(u, rows, n, labels, others);
	cJSON_AddNumberToObject(ctx, "ncommon", (double)nc);
	jsonw_fmt(ctx, "counts", "%zu set%s, %zu device%s, %zu workload%s in common",
	      u->nsets, u->nsets == 1 ? "" : "s", n, n == 1 ? "" : "s", nc, nc == 1 ? "" : "s");
	/* scores against the first row rank the same as against any other */
	for (size_t r = 0; r < n; r++) {
		double lsum = 0;
		size_t k = 0;
		for (size_t w = 0; w < nc; w++) {
			double q = cell_ratio(entry_cell(&u->e[rows[r].entry], labels[w]),
					      entry_cell(&u->e[rows[0].entry], labels[w]));
			if (isfinite(q) && q > 0) {
				lsum += log(q);
				k++;
			}
		}
		rows[r].score = k ? exp(lsum / (double)k) : 1;
	}
	if (n > 1)
		qsort(rows, n, sizeof(*rows), srow_cmp);
	/* baseline: the one asked for, else the last ranked (ratios >= 1) */
	size_t base = n ? n - 1 : 0;
	for (size_t r = 0; baseline && r < n; r++)
		if (row_is(s, rows[r].ident, baseline))
			base = r;
	double bscore = n ? rows[base].score : 1;
	double rscale = 1;
	for (size_t r = 0; r < n; r++)
		if (u->e[rows[r].entry].scale != 1)
			rscale = u->e[rows[r].entry].scale;
	if (rscale != 1)
		jsonw_fmt(ctx, "rehearsal", "%g", rscale);
	cJSON *jr = cJSON_AddArrayToObject(ctx, "rows");
	for (size_t r = 0; r < n; r++) {
		cJSON *o = cJSON_CreateObject();
		char *name = ident_name(s, rows[r].ident), rt[40], d[32];
		const struct site_set *x = &s->sets[u->e[rows[r].entry].set];
		cJSON_AddNumberToObject(o, "rank", (double)(r + 1));
		jsonw_str(o, "device", name);
		jsonw_fmt(o, "href", "../devices/%s.html", s->ident_slug[rows[r].ident]);
		fmt_ratio(rows[r].score / bscore, rt, sizeof(rt));
		jsonw_str(o, "geomean", n > 1 ? rt : "—");
		short_date(x->date, d, sizeof(d));
		jsonw_str(o, "set_date", d);
		jsonw_fmt(o, "set_href", "../sets/%s/report.html", x->slug);
		cJSON_AddItemToArray(jr, o);
		if (r == base)
			jsonw_str(ctx, "baseline", name);
		free(name);
	}
	if (n && labels)
		suite_matrix(s, u, rows, n, base, labels, nc, ctx);
	free(rows);
	free(labels);
	return ctx;
}
