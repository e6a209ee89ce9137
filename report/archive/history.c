/*
 * history.c - series of one device identity and workload across dated sets,
 * their change points and environment changes (history.h), and the text,
 * CSV and JSON outputs of `iomatrix history`.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/escape.h"
#include "history.h"
#include "suite/workload.h"
#include "suite/keys.h"
#include "util/array.h"
#include "util/freemany.h"
#include "model/report.h"

void history_init(struct history *h, const struct hist_opts *opt)
{
	memset(h, 0, sizeof(*h));
	h->opt = *opt;
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* s into h eight bytes at a time, its length last (so "ab"+"c" and
 * "a"+"bc" differ).  A byte at a time (FNV) was 5 % of the CPU of reading
 * 10,000 sets: a cell's signature is some 200 bytes.  Only the table's
 * probe order hangs on it, never an output. */
static uint64_t mix(const char *s, uint64_t h)
{
	size_t n = strlen(s), len = n;
	uint64_t w;
	for (; n >= 8; n -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w ^ ((uint64_t)len << 48)) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

static uint64_t series_hash(size_t ident, const char *label, const char *sig, double scale)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (ident * 0x9e3779b97f4a7c15ull);
	h = mix(label, h);
	h = mix(sig, h);
	return h ^ (uint64_t)(scale * 1e6);
}

static bool series_is(const struct hist_series *s, size_t ident, const char *label,
		      const char *sig, double scale)
{
	return s->ident == ident && s->scale == scale && !strcmp(s->label, label) &&
	       !strcmp(s->sig, sig);
}

/* An empty hash table of h's series: cap (a power of two) slots, each
 * SIZE_MAX or a series' index; NULL OOM. */
static size_t *hash_new(size_t cap)
{
	size_t *t = malloc(cap * sizeof(*t));
	for (size_t i = 0; t && i < cap; i++)
		t[i] = SIZE_MAX;
	return t;
}

/* The slot of t (cap slots) that holds the series (ident, label, sig,
 * scale), else the empty one where it goes (linear probing). */
static size_t hash_slot(const struct history *h, const size_t *t, size_t cap, size_t ident,
			const char *label, const char *sig, double scale)
{
	size_t k = series_hash(ident, label, sig, scale) & (cap - 1);
	while (t[k] != SIZE_MAX && !series_is(&h->series[t[k]], ident, label, sig, scale))
		k = (k + 1) & (cap - 1);
	return k;
}

/* h's series are distinct: each finds an empty slot. */
static int hash_rebuild(struct history *h, size_t cap)
{
	size_t *t = hash_new(cap);
	if (!t)
		return -1;
	for (size_t i = 0; i < h->nseries; i++) {
		const struct hist_series *s = &h->series[i];
		t[hash_slot(h, t, cap, s->ident, s->label, s->sig, s->scale)] = i;
	}
	free(h->hash);
	h->hash = t;
	h->hash_cap = cap;
	return 0;
}

/* The series of (ident, label, sig, scale), created when new; NULL OOM. */
static struct hist_series *series_get(struct history *h, size_t ident, const struct arc_cell *c,
				      double scale)
{
	if (h->nseries * 2 >= h->hash_cap && hash_rebuild(h, h->hash_cap ? h->hash_cap * 2 : 256) < 0)
		return NULL;
	size_t k = hash_slot(h, h->hash, h->hash_cap, ident, c->label, c->sig, scale);
	if (h->hash[k] != SIZE_MAX)
		return &h->series[h->hash[k]];
	struct hist_series *s = ARRAY_PUSH(h->series, h->series_alloc, h->nseries, 16);
	if (!s)
		return NULL;
	s->ident = ident;
	s->scale = scale;
	s->label = strdup(c->label);
	s->sig = strdup(c->sig);
	s->metric = h->opt.metric >= 0 ? h->opt.metric : c->seq_large ? ARC_MBS : ARC_IOPS;
	if (!s->label || !s->sig)
		return NULL;   /* history_release frees it */
	h->hash[k] = h->nseries - 1;
	return s;
}

static int alias_add(struct hist_ident *id, const char *host, const char *dev)
{
	size_t len = strlen(host) + strlen(dev) + 2;
	char *a = malloc(len);
	if (!a)
		return -1;
	snprintf(a, len, "%s:%s", host, dev);
	for (size_t i = 0; i < id->nalias; i++)
		if (!strcmp(id->alias[i], a)) {
			free(a);
			return 0;
		}
	return array_add_str(&id->alias, &id->nalias, a);
}

/* Identity index of a device of set s (created when new); SIZE_MAX OOM. */
static size_t ident_get(struct history *h, const struct arc_dev *d)
{
	size_t i;
	for (i = 0; i < h->nidents; i++)
		if (!strcmp(h->idents[i].key, d->ident))
			break;
	if (i == h->nidents) {
		struct hist_ident *p = ARRAY_ADD(h->idents, h->nidents);
		if (!p || !(p->key = strdup(d->ident)))
			return SIZE_MAX;
		p->canon = i;
	}
	struct hist_ident *id = &h->idents[i];
	/* sets come in date order: the names shown are the latest */
	free(id->host);
	free(id->device);
	free(id->model);
	free(id->path);
	id->host = strdup(d->host);
	id->device = strdup(d->name);
	id->model = xstrdup(d->model);
	id->path = xstrdup(d->path);
	id->nsets++;
	if (!id->host || !id->device || alias_add(id, d->host, d->name) < 0)
		return SIZE_MAX;
	return i;
}

static bool device_wanted(const struct history *h, const struct arc_dev *d)
{
	const char *want = h->opt.device;
	if (!want)
		return true;
	if (!strcmp(want, d->name))
		return true;
	size_t hl = strlen(d->host);
	return !strncmp(want, d->host, hl) && want[hl] == ':' && !strcmp(want + hl + 1, d->name);
}

/* --workload matches the whole "LABEL PATTERN" or the label alone. */
static bool workload_wanted(const struct history *h, const char *w)
{
	const char *want = h->opt.workload;
	size_t n = want ? strlen(want) : 0;
	return !want || !strcmp(want, w) || (!strncmp(want, w, n) && w[n] == ' ' &&
					     !strchr(w + n + 1, ' '));
}

int history_add(struct history *h, const struct arc_set *s)
{
	struct hist_set *hs = ARRAY_PUSH(h->sets, h->sets_alloc, h->nsets, 16);
	if (!hs)
		return -1;
	hs->name = strdup(s->name);
	hs->date = strdup(s->date);
	hs->suite = strdup(s->suite);
	hs->scale = s->scale;
	if (!hs->name || !hs->date || !hs->suite)
		return -1;   /* history_release frees what was made */
	size_t set = h->nsets - 1;
	for (size_t di = 0; di < s->ndevs; di++) {
		const struct arc_dev *d = &s->devs[di];
		if (!device_wanted(h, d))
			continue;
		size_t ident = ident_get(h, d);
		if (ident == SIZE_MAX)
			return -1;
		char *(*pe)[ARC_NENV] = ARRAY_PUSH(h->envs, h->envs_alloc, h->nenvs, 16);
		if (!pe)
			return -1;
		size_t env = h->nenvs - 1;
		for (int k = 0; k < ARC_NENV; k++)
			(*pe)[k] = xstrdup(d->env[k]);
		for (size_t ci = 0; ci < s->ncells; ci++) {
			const struct arc_cell *c = &s->cells[ci];
			if (c->dev != di || !workload_wanted(h, c->label))
				continue;
			struct hist_series *sr = series_get(h, ident, c, s->scale);
			if (!sr)
				return -1;
			if (!c->m[sr->metric].n)
				continue;
			struct hist_point *pp = ARRAY_PUSH(sr->pts, sr->alloc, sr->n, 16);
			if (!pp)
				return -1;
			*pp = (struct hist_point){ .set = set, .env = env, .v = c->m[sr->metric] };
		}
	}
	return 0;
}

char *history_ident_name(const struct history *h, size_t ident)
{
	const struct hist_ident *id = &h->idents[ident];
	if (id->display)
		return strdup(id->display);
	size_t len = strlen(id->host) + strlen(id->device) + 8;
	char *s = malloc(len);
	if (s)
		snprintf(s, len, "%s · %s", id->host, id->device);
	return s;
}

/* What tells a twin apart: a model device's keys (archive.c: "model",
 * host, "model;model_latency=2ms", name), else its path, its disk's
 * model or the key's start. */
static void twin_note(const struct hist_ident *id, struct sbuf *b)
{
	static const char pre[] = "model\x1f";
	const char *k = id->key, *keys = NULL, *end = NULL;
	if (!strncmp(k, pre, sizeof(pre) - 1) && (keys = strchr(k + sizeof(pre) - 1, '\x1f')))
		end = strchr(++keys, '\x1f');
	if (end) {
		/* "model;model_latency=2ms": the keys; "model" alone: defaults */
		size_t n = (size_t)(end - keys);
		if (n > 6 && !strncmp(keys, "model;", 6))
			sbuf_addf(b, " (%.*s)", (int)(n - 6), keys + 6);
		else
			sbuf_adds(b, " (the model's defaults)");
		return;
	}
	sbuf_addf(b, " (%s)", id->path && *id->path ? id->path : id->model ? id->model : id->key);
}

/* Two identities that read alike ("vm · disk" on two paths) get their
 * path, or model, or key's start added. */
static int ident_displays(struct history *h)
{
	for (size_t i = 0; i < h->nidents; i++) {
		struct hist_ident *id = &h->idents[i];
		bool twin = false;
		for (size_t j = 0; j < h->nidents && !twin; j++)
			twin = j != i && h->idents[j].canon == j && id->canon == i &&
			       !strcmp(h->idents[j].host, id->host) &&
			       !strcmp(h->idents[j].device, id->device);
		struct sbuf b = SBUF_INIT;
		sbuf_addf(&b, "%s · %s", id->host, id->device);
		if (twin)
			twin_note(id, &b);
		id->display = sbuf_detach(&b);
		if (!id->display)
			return -1;
	}
	return 0;
}

static size_t canon_of(struct history *h, size_t i)
{
	while (h->idents[i].canon != i)
		i = h->idents[i].canon;
	return i;
}

static size_t ident_by_alias(const struct history *h, const char *name, size_t skip, size_t *count)
{
	size_t found = SIZE_MAX;
	*count = 0;
	for (size_t i = 0; i < h->nidents; i++)
		for (size_t k = 0; k < h->idents[i].nalias; k++)
			if (!strcmp(h->idents[i].alias[k], name) && i != skip) {
				if (found == SIZE_MAX)
					found = i;
				(*count)++;
				break;
			}
	return found;
}

/* --same A=B: every identity seen as B joins the one seen as A. */
static int same_apply(struct history *h, struct errlist *errs)
{
	for (size_t i = 0; i < h->opt.same.n; i++) {
		const char *arg = h->opt.same.v[i];
		const char *eq = strchr(arg, '=');
		if (!eq || eq == arg || !eq[1]) {
			errlist_add(errs, NULL, 0, 0, "bad --same '%s' (give HOST:DEVICE=HOST:DEVICE, "
				    "names as 'iomatrix history' prints them)", arg);
			return -1;
		}
		char *a = strndup(arg, (size_t)(eq - arg));
		if (!a)
			return -1;
		size_t n;
		size_t ia = ident_by_alias(h, a, SIZE_MAX, &n);
		if (ia == SIZE_MAX) {
			errlist_add(errs, NULL, 0, 0, "--same '%s': no device '%s' in these sets "
				    "(names are HOST:DEVICE, e.g. 'web1:ssd')", arg, a);
			free(a);
			return -1;
		}
		free(a);
		bool any = false;
		for (size_t j = 0; j < h->nidents; j++)
			for (size_t k = 0; k < h->idents[j].nalias; k++)
				if (!strcmp(h->idents[j].alias[k], eq + 1)) {
					h->idents[canon_of(h, j)].canon = canon_of(h, ia);
					any = true;
					break;
				}
		if (!any) {
			errlist_add(errs, NULL, 0, 0, "--same '%s': no device '%s' in these sets "
				    "(names are HOST:DEVICE, e.g. 'web1:ssd')", arg, eq + 1);
			return -1;
		}
	}
	for (size_t j = 0; j < h->nidents; j++)
		h->idents[j].canon = canon_of(h, j);
	return 0;
}

static int point_cmp(const void *a, const void *b)
{
	const struct hist_point *x = a, *y = b;
	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return (x->env > y->env) - (x->env < y->env);
}

static void series_free(struct hist_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_strv(s->pts[i].env_changes, s->pts[i].nenv_changes);
	FREE_MANY(s->pts, s->label, s->sig, s->apart, s->workload);
}

/* Re-key series to canonical identities and merge those that meet,
 * found by their hash (linear in series; a search of the earlier series
 * for each was n squared). */
static int hist_series_merge(struct history *h)
{
	for (size_t i = 0; i < h->nseries; i++)
		h->series[i].ident = h->idents[h->series[i].ident].canon;
	size_t w = 0, cap = 256;
	while (cap < 2 * h->nseries)
		cap *= 2;
	size_t *t = hash_new(cap);
	if (!t)
		return -1;
	for (size_t i = 0; i < h->nseries; i++) {
		struct hist_series *s = &h->series[i];
		size_t k = hash_slot(h, t, cap, s->ident, s->label, s->sig, s->scale);
		size_t j = t[k] == SIZE_MAX ? w : t[k];
		if (j < w && s->n) {
			struct hist_series *d = &h->series[j];
			struct hist_point *p = realloc(d->pts, (d->n + s->n) * sizeof(*p));
			if (!p) {
				free(t);
				return -1;
			}
			memcpy(p + d->n, s->pts, s->n * sizeof(*p));
			d->pts = p;
			d->n += s->n;
			d->alloc = d->n;
			s->n = 0;
		}
		if (j < w || !s->n) {
			series_free(s);
			continue;
		}
		t[k] = w;
		h->series[w++] = *s;
	}
	free(t);
	h->nseries = w;
	for (size_t i = 0; i < w; i++)
		qsort(h->series[i].pts, h->series[i].n, sizeof(struct hist_point), point_cmp);
	return hash_rebuild(h, h->hash_cap ? h->hash_cap : 256);
}

/* The value of key "k=" (kl bytes with the '=') in a "k=v;k=v" signature,
 * its length in *vl; NULL when the signature has no such key. */
static const char *sig_value(const char *sig, const char *k, size_t kl, size_t *vl)
{
	for (const char *m = sig; m && *m;) {
		if (!strncmp(m, k, kl) && (m == sig || m[-1] == ';')) {
			*vl = strcspn(m + kl, ";");
			return m + kl;
		}
		m = strchr(m, ';');
		m = m ? m + 1 : NULL;
	}
	*vl = 0;
	return NULL;
}

/* The value a workload key (suite/workload.h) leaves unspelled: the
 * key's default ("iodepth_batch" 1), as the key spells values; "none"
 * for a name that is no key. */
static void sig_default(const char *name, size_t len, struct sbuf *b)
{
	char key[64];
	struct cell c;
	snprintf(key, sizeof(key), "%.*s", (int)(len < sizeof(key) ? len : sizeof(key) - 1), name);
	int k = key_find(key);
	cell_init(&c);
	if (k < 0)
		sbuf_adds(b, "none");
	else
		workload_value(k, &c, b);
}

/* "bs 8K (main series: 4K), iodepth 32 (main series: 1)"; a key only one
 * of the two spells (a newer key the other holds at its default, or a key
 * that counts for one side only, as io_uring's options beside libaio)
 * reads as that default on its side, whichever of the two is the main
 * series, and is left out where the default is the value spelled (it
 * tells nothing apart). */
static void sig_diff_key(struct sbuf *b, const char *name, size_t nl, const char *v,
			 size_t vl, const char *ov, size_t ol, bool main_spells)
{
	struct sbuf d = SBUF_INIT;
	if (!ov) {
		sig_default(name, nl, &d);
		if (d.len == vl && !memcmp(sbuf_str(&d), v, vl)) {
			sbuf_release(&d);
			return;
		}
		ov = sbuf_str(&d);
		ol = d.len;
	}
	sbuf_addf(b, "%s%.*s ", b->len ? ", " : "", (int)nl, name);
	if (main_spells)
		sbuf_addf(b, "%.*s (main series: %.*s)", (int)ol, ov, (int)vl, v);
	else
		sbuf_addf(b, "%.*s (main series: %.*s)", (int)vl, v, (int)ol, ov);
	sbuf_release(&d);
}

static char *sig_diff(const char *sig, const char *main_sig)
{
	struct sbuf b = SBUF_INIT;
	for (int side = 0; side < 2; side++) {
		const char *own = side ? main_sig : sig, *other = side ? sig : main_sig;
		for (const char *kv = own; kv && *kv;) {
			size_t len = strcspn(kv, ";");
			const char *eq = memchr(kv, '=', len);
			if (eq) {
				size_t kl = (size_t)(eq - kv) + 1, vl = len - kl, ol;
				const char *ov = sig_value(other, kv, kl, &ol);
				if (side == 0 && !(ov && ol == vl && !strncmp(ov, eq + 1, vl)))
					sig_diff_key(&b, kv, kl - 1, eq + 1, vl, ov, ol, false);
				else if (side == 1 && !ov) /* only the main series spells it */
					sig_diff_key(&b, kv, kl - 1, eq + 1, vl, NULL, 0, true);
			}
			kv += len;
			kv = *kv ? kv + 1 : NULL;
		}
	}
	if (!b.len)
		sbuf_adds(&b, "parameters differ");
	return sbuf_detach(&b);
}

/* Series indices in (identity, label) order, then in index order: each
 * run is the series of one (identity, label).  Sorting is n log n in
 * series: pairing every series with every other made most of the cost of
 * a history of 16,000 workloads.  NULL out of memory. */
static int label_order_cmp(const void *x, const void *y, void *arg)
{
	const struct history *h = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct hist_series *a = &h->series[i], *b = &h->series[j];
	if (a->ident != b->ident)
		return a->ident < b->ident ? -1 : 1;
	int d = strcmp(a->label, b->label);
	return d ? d : i < j ? -1 : i > j;
}

static size_t *label_order(struct history *h)
{
	size_t *o = malloc((h->nseries ? h->nseries : 1) * sizeof(*o));
	for (size_t i = 0; o && i < h->nseries; i++)
		o[i] = i;
	if (o && h->nseries)
		qsort_r(o, h->nseries, sizeof(*o), label_order_cmp, h);
	return o;
}

/* The length of the run of one (identity, label) at o[i]. */
static size_t label_run(const struct history *h, const size_t *o, size_t i)
{
	size_t len = 1;
	const struct hist_series *s = &h->series[o[i]];
	while (i + len < h->nseries && h->series[o[i + len]].ident == s->ident &&
	       !strcmp(h->series[o[i + len]].label, s->label))
		len++;
	return len;
}

/* Series i's reason to be kept apart from main (SIZE_MAX: none), and the
 * workload text it is listed by.  0, or -1 out of memory. */
static int apart_say(struct history *h, size_t i, size_t main)
{
	struct hist_series *s = &h->series[i];
	struct sbuf b = SBUF_INIT;
	if (s->scale != 1) {
		sbuf_addf(&b, "rehearsal, --scale %g", s->scale);
		s->apart = sbuf_detach(&b);
	} else if (main != i && main != SIZE_MAX) {
		char *d = sig_diff(s->sig, h->series[main].sig);
		if (d)
			sbuf_addf(&b, "parameters differ: %s", d);
		free(d);
		s->apart = sbuf_detach(&b);
	}
	if (s->apart) {
		size_t len = strlen(s->label) + strlen(s->apart) + 4;
		s->workload = malloc(len);
		if (s->workload)
			snprintf(s->workload, len, "%s [%s]", s->label, s->apart);
	} else {
		s->workload = strdup(s->label);
	}
	return s->workload ? 0 : -1;
}

/* Main series of each (identity, label): full-scale, newest (then the
 * longest, then the first); the others are kept apart with the reason. */
static int apart_mark(struct history *h)
{
	size_t *o = label_order(h);
	int rc = o ? 0 : -1;
	for (size_t i = 0, len; !rc && i < h->nseries; i += len) {
		size_t main = SIZE_MAX;
		len = label_run(h, o, i);
		for (size_t k = i; k < i + len; k++) {
			const struct hist_series *t = &h->series[o[k]];
			if (t->scale != 1)
				continue;
			const struct hist_series *m = main == SIZE_MAX ? NULL : &h->series[main];
			if (!m || t->pts[t->n - 1].set > m->pts[m->n - 1].set ||
			    (t->pts[t->n - 1].set == m->pts[m->n - 1].set && t->n > m->n))
				main = o[k];
		}
		for (size_t k = i; !rc && k < i + len; k++)
			rc = apart_say(h, o[k], main);
	}
	free(o);
	return rc;
}

static int env_changes(struct history *h, struct hist_point *p, const struct hist_point *prev)
{
	char *const *a = h->envs[prev->env], *const *b = h->envs[p->env];
	for (int k = 0; k < ARC_NENV; k++) {
		if ((!a[k] && !b[k]) || (a[k] && b[k] && !strcmp(a[k], b[k])))
			continue;
		/* "unknown" both ways: a fingerprint that lacks a field is not a change
		 * of the environment, unless the other side knows it */
		size_t len = strlen(arc_env_names[k]) + (a[k] ? strlen(a[k]) : 7) +
			     (b[k] ? strlen(b[k]) : 7) + 8;
		char *s = malloc(len);
		if (s)
			snprintf(s, len, "%s %s → %s", arc_env_names[k], a[k] ? a[k] : "unknown",
				 b[k] ? b[k] : "unknown");
		if (array_add_str(&p->env_changes, &p->nenv_changes, s) < 0)
			return -1;
	}
	return 0;
}

static int series_detect(struct history *h, struct hist_series *s)
{
	struct cp_point *x = malloc(s->n * sizeof(*x));
	struct cp_result *r = malloc(s->n * sizeof(*r));
	int found = -1;
	if (!x || !r)
		goto out;
	for (size_t i = 0; i < s->n; i++)
		x[i] = (struct cp_point){ s->pts[i].v.mean, s->pts[i].v.stddev, s->pts[i].v.n, NULL };
	found = cp_detect(x, s->n, h->opt.threshold, r);
	for (size_t i = 0; found >= 0 && i < s->n; i++) {
		s->pts[i].cp = r[i];
		if (i && env_changes(h, &s->pts[i], &s->pts[i - 1]) < 0)
			found = -1;
	}
out:
	free(x);
	free(r);
	return found;
}

struct sort_ctx {
	char **names;      /* per identity */
	size_t *first;     /* per series: first series index of its (ident, label) */
};
static struct sort_ctx *g_sort;   /* qsort has no context argument in C11 */

static int series_cmp(const void *a, const void *b)
{
	const struct hist_series *x = a, *y = b;
	int c = strcmp(g_sort->names[x->ident], g_sort->names[y->ident]);
	if (c)
		return c;
	if (x->ident != y->ident)
		return x->ident < y->ident ? -1 : 1;
	/* alloc holds each series' original index while sorting */
	size_t fx = g_sort->first[x->alloc], fy = g_sort->first[y->alloc];
	if (fx != fy)
		return fx < fy ? -1 : 1;
	if (!x->apart != !y->apart)
		return x->apart ? 1 : -1;
	return (x->alloc > y->alloc) - (x->alloc < y->alloc);
}

static int series_sort(struct history *h)
{
	struct sort_ctx sc = { calloc(h->nidents ? h->nidents : 1, sizeof(char *)),
			       calloc(h->nseries ? h->nseries : 1, sizeof(size_t)) };
	int ret = -1;
	if (!sc.names || !sc.first)
		goto out;
	for (size_t i = 0; i < h->nidents; i++)
		if (!(sc.names[i] = history_ident_name(h, i)))
			goto out;
	/* a series' first of its (identity, label): the run's first */
	size_t *o = label_order(h);
	if (!o)
		goto out;
	for (size_t i = 0, len; i < h->nseries; i += len) {
		len = label_run(h, o, i);
		for (size_t k = i; k < i + len; k++)
			sc.first[o[k]] = o[i];
	}
	free(o);
	for (size_t i = 0; i < h->nseries; i++)
		h->series[i].alloc = i;   /* original index; alloc is not needed any more */
	g_sort = &sc;
	if (h->nseries)   /* qsort of a NULL array is undefined, even of 0 items */
		qsort(h->series, h->nseries, sizeof(*h->series), series_cmp);
	g_sort = NULL;
	for (size_t i = 0; i < h->nseries; i++)
		h->series[i].alloc = h->series[i].n;
	ret = hash_rebuild(h, h->hash_cap ? h->hash_cap : 256);
out:
	for (size_t i = 0; sc.names && i < h->nidents; i++)
		free(sc.names[i]);
	free(sc.names);
	free(sc.first);
	return ret;
}

int history_finish(struct history *h, struct errlist *errs)
{
	if (same_apply(h, errs) < 0)
		return -1;
	if (hist_series_merge(h) < 0 || apart_mark(h) < 0 || ident_displays(h) < 0)
		goto oom;
	for (size_t i = 0; i < h->nseries; i++) {
		int n = series_detect(h, &h->series[i]);
		if (n < 0)
			goto oom;
		h->series[i].nchanges = n;
		h->nchanges += (size_t)n;
	}
	if (series_sort(h) < 0)
		goto oom;
	return 0;
oom:
	errlist_add(errs, NULL, 0, 0, "out of memory");
	return -1;
}

void history_release(struct history *h)
{
	for (size_t i = 0; i < h->nfailed; i++)
		FREE_MANY(h->failed[i].set, h->failed[i].path, h->failed[i].problems);
	for (size_t i = 0; i < h->nsets; i++)
		FREE_MANY(h->sets[i].name, h->sets[i].date, h->sets[i].suite);
	for (size_t i = 0; i < h->nidents; i++) {
		struct hist_ident *id = &h->idents[i];
		FREE_MANY(id->key, id->host, id->device, id->model, id->path, id->display);
		free_strv(id->alias, id->nalias);
	}
	for (size_t i = 0; i < h->nenvs; i++)
		for (int k = 0; k < ARC_NENV; k++)
			free(h->envs[i][k]);
	for (size_t i = 0; i < h->nseries; i++)
		series_free(&h->series[i]);
	FREE_MANY(h->failed, h->sets, h->idents, h->envs, h->series, h->hash);
	errlist_release(&h->warns);
	memset(h, 0, sizeof(*h));
}

/* ---- outputs ---- */

/* Terminal-safe: control characters from a result set become '?'. */
static void put_safe(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static void fmt_date(const char *iso, char *buf, size_t len)
{
	snprintf(buf, len, "%.16s", iso);
	char *t = strchr(buf, 'T');
	if (t)
		*t = ' ';
}

static void fmt_change(const struct cp_result *cp, char *buf, size_t len)
{
	if (cp->kind == CP_NONE)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "%+.1f %% %s", cp->change_pct, cp_kind_name(cp->kind));
}

void history_write_text(const struct history *h, FILE *f)
{
	size_t main = 0;
	for (size_t i = 0; i < h->nseries; i++)
		main += !h->series[i].apart;
	fprintf(f, "history: %zu set%s, %zu series (%zu kept apart), %zu change point%s "
		"(threshold %g %%, family-wise error %g)\n", h->nsets, h->nsets == 1 ? "" : "s",
		h->nseries, h->nseries - main, h->nchanges, h->nchanges == 1 ? "" : "s",
		h->opt.threshold, CP_ALPHA);
	if (!h->nseries)
		fprintf(f, "no matching cells%s\n", h->opt.device || h->opt.workload ?
			" (check --device and --workload against 'iomatrix list')" : "");
	for (size_t i = 0; i < h->nseries; i++) {
		const struct hist_series *s = &h->series[i];
		const struct hist_ident *id = &h->idents[s->ident];
		fputc('\n', f);
		put_safe(f, id->display);
		if (id->model) {
			fputs(" (", f);
			put_safe(f, id->model);
			fputc(')', f);
		}
		fputs(" — ", f);
		put_safe(f, s->workload);
		fprintf(f, " — %s — %d change point%s\n", arc_metric_units[s->metric], s->nchanges,
			s->nchanges == 1 ? "" : "s");
		fprintf(f, "  %-16s  %-22s  %3s  %-24s  %s\n", "DATE", "VALUE", "N", "CHANGE", "SET");
		for (size_t k = 0; k < s->n; k++) {
			const struct hist_point *p = &s->pts[k];
			char d[32], v[64], c[64];
			fmt_date(h->sets[p->set].date, d, sizeof(d));
			fmt_stat(p->v.mean, p->v.ci95, p->v.n, 1, v, sizeof(v));
			fmt_change(&p->cp, c, sizeof(c));
			fprintf(f, "  %-16s  %-22s  %3d  %-24s  ", d, v, p->v.n, c);
			put_safe(f, h->sets[p->set].name);
			for (size_t e = 0; e < p->nenv_changes; e++) {
				fputs(e ? "; " : "  ", f);
				put_safe(f, p->env_changes[e]);
			}
			fputc('\n', f);
		}
	}
}

void history_write_csv(const struct history *h, FILE *f)
{
	struct sbuf b = SBUF_INIT;
	sbuf_adds(&b, "host,device,workload,metric,set,date,value,ci95,n,change,change_pct,env_changes\n");
	for (size_t i = 0; i < h->nseries; i++) {
		const struct hist_series *s = &h->series[i];
		const struct hist_ident *id = &h->idents[s->ident];
		for (size_t k = 0; k < s->n; k++) {
			const struct hist_point *p = &s->pts[k];
			const char *f1[] = { id->host, id->device, s->workload, arc_metric_names[s->metric],
					     h->sets[p->set].name, h->sets[p->set].date };
			for (size_t j = 0; j < 6; j++) {
				escape_append(&b, f1[j], ESC_CSV);
				sbuf_addc(&b, ',');
			}
			sbuf_addf(&b, "%.17g,%.17g,%d,%s,", p->v.mean, p->v.ci95, p->v.n,
				  p->cp.kind ? cp_kind_name(p->cp.kind) : "");
			if (p->cp.kind)
				sbuf_addf(&b, "%.3f", p->cp.change_pct);
			sbuf_addc(&b, ',');
			struct sbuf e = SBUF_INIT;
			for (size_t x = 0; x < p->nenv_changes; x++)
				sbuf_addf(&e, "%s%s", x ? "; " : "", p->env_changes[x]);
			escape_append(&b, sbuf_str(&e), ESC_CSV);
			sbuf_release(&e);
			sbuf_addc(&b, '\n');
		}
		if (b.len > 1 << 16) {
			fwrite(sbuf_str(&b), 1, b.len, f);
			sbuf_reset(&b);
		}
	}
	fwrite(sbuf_str(&b), 1, b.len, f);
	sbuf_release(&b);
}
