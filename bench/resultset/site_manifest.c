/*
 * site_manifest.c - site_manifest.h: the site's manifest and each set
 * page's lattime.json, parsed once here into structs and checked whole
 * (the only place the site reads JSON), and written from the structs.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "resultset/jsonread.h"
#include "resultset/schema.h"
#include "util/array.h"
#include "util/fsutil.h"
#include "site_manifest.h"

bool site_manifest_rel_ok(const char *rel)
{
	size_t n = strlen(rel), comp = 0;

	if (!n || n >= PATH_MAX || rel[0] == '/' || rel[n - 1] == '/')
		return false;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || rel[i] == '/') {
			const char *c = rel + i - comp;
			if (!comp || comp > NAME_MAX || (comp == 1 && c[0] == '.') ||
			    (comp == 2 && c[0] == '.' && c[1] == '.'))
				return false;
			comp = 0;
		} else if ((unsigned char)rel[i] < 0x20 || rel[i] == 0x7f) {
			return false;
		} else {
			comp++;
		}
	}
	return true;
}

static bool site_manifest_hex_ok(const char *s)
{
	size_t i = 0;
	for (; s[i] && i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 64 && !s[i];
}

/* A set's key: its folder's name below SITE/sets/, one plain name. */
static bool site_manifest_set_ok(const char *s)
{
	return site_manifest_rel_ok(s) && !strchr(s, '/');
}

int site_manifest_add(struct site_manifest_map *m, const char *name, const char *hex)
{
	struct site_manifest_ent *p = array_grow(m->v, &m->alloc, m->n, sizeof(*p), 256);
	if (!p)
		return -1;
	m->v = p;
	if (!(p[m->n].name = strdup(name)))
		return -1;
	snprintf(p[m->n].hex, sizeof(p[m->n].hex), "%s", hex);
	m->n++;
	return 0;
}

static int site_manifest_cmp(const void *a, const void *b)
{
	const struct site_manifest_ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x < y ? -1 : 1;   /* equal names: in the order added */
}

void site_manifest_sort(struct site_manifest_map *m)
{
	size_t k = 0;
	if (m->n < 2)
		return;
	qsort(m->v, m->n, sizeof(*m->v), site_manifest_cmp);
	for (size_t i = 0; i < m->n; i++) {
		if (i + 1 < m->n && !strcmp(m->v[i].name, m->v[i + 1].name)) {
			free(m->v[i].name);    /* a later one of the same name wins */
			continue;
		}
		m->v[k++] = m->v[i];
	}
	m->n = k;
}

const char *site_manifest_get(const struct site_manifest_map *m, const char *name)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(m->v[mid].name, name);
		if (!c)
			return m->v[mid].hex;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void site_manifest_map_release(struct site_manifest_map *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

void site_manifest_release(struct site_manifest *m)
{
	site_manifest_map_release(&m->sets);
	site_manifest_map_release(&m->pages);
	site_manifest_map_release(&m->files);
	m->version = 0;
}

/* One map of the manifest into dst: an object of names (checked by
 * name_ok) to hashes (64 hex, or "" where empty_ok), each name once. */
static int site_manifest_map_read(struct site_manifest_map *dst, const cJSON *obj,
				  const char *what, bool (*name_ok)(const char *),
				  bool empty_ok, char *why, size_t whylen)
{
	const cJSON *e;
	if (!cJSON_IsObject(obj)) {
		snprintf(why, whylen, "%s is not an object", what);
		return -1;
	}
	cJSON_ArrayForEach(e, obj) {
		if (!e->string || !name_ok(e->string)) {
			snprintf(why, whylen, "%s: '%.80s' is not a name inside the site", what,
				 e->string ? e->string : "");
			return -1;
		}
		if (!cJSON_IsString(e) || !e->valuestring ||
		    !(site_manifest_hex_ok(e->valuestring) || (empty_ok && !e->valuestring[0]))) {
			snprintf(why, whylen, "%s: '%.80s' has no sha256 (64 hex digits)", what,
				 e->string);
			return -1;
		}
		if (site_manifest_add(dst, e->string, e->valuestring) < 0) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
	}
	size_t n = dst->n;
	site_manifest_sort(dst);
	if (dst->n != n) {
		snprintf(why, whylen, "%s names one entry twice", what);
		return -1;
	}
	return 0;
}

static int site_manifest_version(const cJSON *v, char *why, size_t whylen)
{
	if (!v) {
		snprintf(why, whylen, "no version (written before %d)", SITE_MANIFEST_VERSION);
		return -1;
	}
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 1 ||
	    v->valuedouble > INT_MAX || v->valuedouble != floor(v->valuedouble)) {
		snprintf(why, whylen, "version is not a whole number from 1");
		return -1;
	}
	if (v->valuedouble != SITE_MANIFEST_VERSION) {
		snprintf(why, whylen, "%s version %d (this build reads %d)",
			 v->valuedouble > SITE_MANIFEST_VERSION ? "newer" : "older",
			 (int)v->valuedouble, SITE_MANIFEST_VERSION);
		return -1;
	}
	return (int)v->valuedouble;
}

int site_manifest_parse(struct site_manifest *m, const char *buf, size_t len, char *why,
			size_t whylen)
{
	static const char *const known[] = { "version", "generator", "sets", "pages", "files" };
	cJSON *root = rset_parse_json(buf, len, why, whylen);
	const cJSON *e;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (!root)
		return -1;
	if (!cJSON_IsObject(root)) {
		snprintf(why, whylen, "not a JSON object");
		goto out;
	}
	unsigned seen = 0;
	cJSON_ArrayForEach(e, root) {
		size_t i = 0, nk = sizeof(known) / sizeof(known[0]);
		while (i < nk && !(e->string && !strcmp(e->string, known[i])))
			i++;
		if (i == nk || (seen & 1u << i)) {
			snprintf(why, whylen, "%s field '%.80s'", i == nk ? "unknown" : "a second",
				 e->string ? e->string : "");
			goto out;
		}
		seen |= 1u << i;
	}
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(root, "generator");
	if (g && !cJSON_IsString(g)) {
		snprintf(why, whylen, "generator is not a string");
		goto out;
	}
	int v = site_manifest_version(cJSON_GetObjectItemCaseSensitive(root, "version"), why,
				      whylen);
	if (v < 0 ||
	    site_manifest_map_read(&m->sets, cJSON_GetObjectItemCaseSensitive(root, "sets"), "sets",
				   site_manifest_set_ok, true, why, whylen) < 0 ||
	    site_manifest_map_read(&m->pages, cJSON_GetObjectItemCaseSensitive(root, "pages"),
				   "pages", site_manifest_rel_ok, false, why, whylen) < 0 ||
	    site_manifest_map_read(&m->files, cJSON_GetObjectItemCaseSensitive(root, "files"),
				   "files", site_manifest_rel_ok, false, why, whylen) < 0)
		goto out;
	m->version = v;
	rc = 0;
out:
	cJSON_Delete(root);
	if (rc < 0)
		site_manifest_release(m);
	return rc;
}

int site_manifest_read_at(struct site_manifest *m, int dirfd, char *why, size_t whylen)
{
	size_t len;
	memset(m, 0, sizeof(*m));
	char *buf = fsutil_read_at(dirfd, SITE_MANIFEST_NAME, RESULTSET_MAX_FILE_BYTES, 0, &len);
	if (!buf) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, whylen, "cannot read: %s", strerror(errno));
		return -1;
	}
	int r = site_manifest_parse(m, buf, len, why, whylen);
	free(buf);
	return r < 0 ? -1 : 1;
}

static cJSON *site_manifest_map_json(struct site_manifest_map *m)
{
	cJSON *o = cJSON_CreateObject();
	site_manifest_sort(m);
	for (size_t i = 0; o && i < m->n; i++)
		if (!cJSON_AddStringToObject(o, m->v[i].name, m->v[i].hex)) {
			cJSON_Delete(o);
			return NULL;
		}
	return o;
}

char *site_manifest_print(struct site_manifest *m, const char *generator)
{
	cJSON *root = cJSON_CreateObject();
	struct site_manifest_map *maps[] = { &m->sets, &m->pages, &m->files };
	static const char *const names[] = { "sets", "pages", "files" };
	char *text = NULL;
	bool ok = root && cJSON_AddNumberToObject(root, "version", SITE_MANIFEST_VERSION) &&
		  cJSON_AddStringToObject(root, "generator", generator);

	for (size_t i = 0; ok && i < 3; i++) {
		cJSON *o = site_manifest_map_json(maps[i]);
		ok = o != NULL;
		if (ok)
			cJSON_AddItemToObject(root, names[i], o);
	}
	if (ok)
		text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

/* ---- lattime.json ---- */

int site_lattime_add(struct site_lattime *l, const char *device, const char *label,
		     const char *chart)
{
	struct site_lattime_ent *p = array_grow(l->v, &l->alloc, l->n, sizeof(*p), 8);
	if (!p)
		return -1;
	l->v = p;
	/* one block: device, label and chart one after the other */
	size_t nd = strlen(device) + 1, nl = strlen(label) + 1, nc = strlen(chart) + 1;
	char *b = malloc(nd + nl + nc);
	if (!b)
		return -1;
	p += l->n++;
	p->device = memcpy(b, device, nd);
	p->label = memcpy(b + nd, label, nl);
	p->chart = memcpy(b + nd + nl, chart, nc);
	return 0;
}

void site_lattime_release(struct site_lattime *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].device);   /* the entry's one block */
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* A chart a set page lists: one plain file below its charts folder. */
static bool site_lattime_chart_ok(const char *c)
{
	size_t n = strlen(SITE_LATTIME_PREFIX);
	return !strncmp(c, SITE_LATTIME_PREFIX, n) && site_manifest_rel_ok(c) &&
	       !strchr(c + n, '/');
}

int site_lattime_parse(struct site_lattime *l, const char *buf, size_t len, char *why,
		       size_t whylen)
{
	cJSON *a = rset_parse_json(buf, len, why, whylen);
	const cJSON *e, *list = cJSON_IsArray(a) ? a : NULL;
	int rc = list ? 0 : -1;

	memset(l, 0, sizeof(*l));
	if (a && !list)
		snprintf(why, whylen, "not a JSON array");
	cJSON_ArrayForEach(e, list) {
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "device");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "label");
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "chart");
		if (!cJSON_IsObject(e) || cJSON_GetArraySize(e) != 3 || !cJSON_IsString(d) ||
		    !cJSON_IsString(b) || !cJSON_IsString(c) ||
		    !site_lattime_chart_ok(c->valuestring)) {
			snprintf(why, whylen, "entry %zu is not {device, label, chart below %s}",
				 l->n + 1, SITE_LATTIME_PREFIX);
			rc = -1;
			break;
		}
		if (site_lattime_add(l, d->valuestring, b->valuestring, c->valuestring) < 0) {
			snprintf(why, whylen, "out of memory");
			rc = -1;
			break;
		}
	}
	cJSON_Delete(a);
	if (rc < 0)
		site_lattime_release(l);
	return rc;
}

char *site_lattime_print(const struct site_lattime *l)
{
	cJSON *a = cJSON_CreateArray();
	char *text = NULL;
	bool ok = a != NULL;
	for (size_t i = 0; ok && i < l->n; i++) {
		cJSON *o = cJSON_CreateObject();
		ok = o && cJSON_AddStringToObject(o, "device", l->v[i].device) &&
		     cJSON_AddStringToObject(o, "label", l->v[i].label) &&
		     cJSON_AddStringToObject(o, "chart", l->v[i].chart);
		if (o)
			cJSON_AddItemToArray(a, o);
	}
	if (ok)
		text = cJSON_Print(a);
	cJSON_Delete(a);
	return text;
}
