/*
 * load.c - report_load(): build the aggregated report model from result
 * sets (devices disambiguated by host, cells grouped by workload), then
 * let warnings.c, summary.c and the optional sections (section.h) add to
 * it.  render.c turns the model into the template context, CSV and JSON.
 * Strings stay raw here; the template engine and the CSV writer escape.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cliopt.h"
#include "report.h"
#include "report_int.h"
#include "section.h"
#include "util/units.h"
#include "util/array.h"
#include "util/freemany.h"
#include "util/keyfirst.h"
#include "engines/engine.h"
#include "suite/keys.h"
#include "suite/workload.h"

/* Okabe-Ito: distinguishable with colour-blindness, in print and on screen. */
const char *const report_colors[REPORT_COLORS] = {
	"#0072B2", "#E69F00", "#009E73", "#D55E00",
	"#CC79A7", "#56B4E9", "#F0E442", "#000000",
};

/* ---- devices ---- */

static size_t dev_index(struct report *r, size_t set, const char *host,
			const char *name)
{
	for (size_t i = 0; i < r->ndevs; i++)
		if (r->devs[i].set == set && !strcmp(r->devs[i].name, name) &&
		    report_same_host(r->devs[i].host, host))
			return i;
	return (size_t)-1;
}

static int dev_add(struct report *r, size_t set, const char *host, const char *name)
{
	if (dev_index(r, set, host, name) != (size_t)-1)
		return 0;
	struct rdev *d = ARRAY_ADD(r->devs, r->ndevs);
	if (!d)
		return -1;
	d->set = set;
	d->name = name;
	d->host = host;
	d->info = rset_device_find(&r->sets[set], name);
	d->imported = strcmp(r->sets[set].source_kind, "iomatrix") != 0;
	d->color = (int)((r->ndevs - 1) % REPORT_COLORS);
	return 0;
}

/* Same device name in two sets: name@host; same host too: name@host#set. */
static int dev_names(struct report *r)
{
	for (size_t i = 0; i < r->ndevs; i++) {
		struct rdev *d = &r->devs[i];
		bool clash = false, host_clash = false;
		if (d->host) { /* fleet: host as given, then the device */
			bool multi = false;
			for (size_t j = 0; j < r->ndevs; j++)
				multi |= j != i && r->devs[j].host && !strcmp(r->devs[j].host, d->host) &&
					 !strcmp(r->devs[j].name, d->name);
			d->label = fmt_str("%s · %s", d->host, d->name);
			d->display = !d->label ? NULL : multi ?
				     (r->set_labels && r->set_labels[d->set] ?
				      fmt_str("%s (%s)", d->label, r->set_labels[d->set]) :
				      (r->set_numbers = true, fmt_str("%s #%zu", d->label, d->set + 1))) :
				     strdup(d->label);
			if (!d->display)
				return -1;
			continue;
		}
		for (size_t j = 0; j < r->ndevs; j++) {
			if (j == i || strcmp(r->devs[j].name, d->name) || r->devs[j].host)
				continue;
			clash = true;
			if (!strcmp(r->sets[r->devs[j].set].hostname,
				    r->sets[d->set].hostname))
				host_clash = true;
		}
		if (!clash)
			d->display = strdup(d->name);
		else if (r->set_labels && r->set_labels[d->set])
			d->display = fmt_str("%s (%s)", d->name, r->set_labels[d->set]);
		else if (!host_clash)
			d->display = fmt_str("%s@%s", d->name, r->sets[d->set].hostname);
		else {
			r->set_numbers = true; /* "#2": the Method says which set */
			d->display = fmt_str("%s@%s#%zu", d->name,
					       r->sets[d->set].hostname, d->set + 1);
		}
		if (!d->display)
			return -1;
	}
	return 0;
}

/* A model device is what its keys make it (host/devident.h): the keys of
 * each device whose cells all run one model.  Linear in the cells of
 * each device's set.  0, or -1 out of memory. */
static int devs_model(struct report *r)
{
	for (size_t d = 0; d < r->ndevs; d++) {
		struct rdev *v = &r->devs[d];
		const struct rset *rs = &r->sets[v->set];
		const struct cell **cells = malloc((rs->ncells ? rs->ncells : 1) * sizeof(*cells));
		size_t n = 0;
		if (!cells)
			return -1;
		for (size_t i = 0; i < rs->ncells; i++)
			if (!strcmp(rs->cells[i].cell.device, v->name) &&
			    report_same_host(report_cell_host(&rs->cells[i]), v->host))
				cells[n++] = &rs->cells[i].cell;
		struct sbuf b = SBUF_INIT;
		if (workload_model_target(cells, n, &b) && !(v->model = sbuf_detach(&b))) {
			free(cells);
			return -1;
		}
		sbuf_release(&b);
		free(cells);
	}
	return 0;
}

/* ---- groups ---- */

/*
 * Cells are grouped by workload: two are one workload exactly when
 * suite/workload.h says so (its key), a value an importer inferred never
 * with a recorded one.  Built by sorting the cells' keys, n log n: the
 * groups come in the order their first cell does, and groups of one
 * pattern, block size and label stay next to each other (a buffered tmpfs
 * beside a direct disk, in the order the first of them appeared).
 */
struct gcell {
	char *key;               /* owned: the workload key */
	const struct rset_cell *c;
	size_t set, order, dev;  /* order: in all the sets' cells */
};

static int gcell_cmp(const void *a, const void *b)
{
	const struct gcell *x = a, *y = b;
	int d = strcmp(x->key, y->key);
	if (d)
		return d;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* "cell 3 of device 'disk' is the workload of cell 2 (they differ only in
 * seed, which is not what is measured); only the first is reported" */
static void dup_warn(struct rset *rs, const struct rset_cell *c, const struct rset_cell *first)
{
	struct sbuf keys = SBUF_INIT;
	for (int k = 0; k < NKEYS; k++)
		if (k != K_LABEL && !key_same(k, &c->cell, &first->cell))
			sbuf_addf(&keys, "%s%s", keys.len ? ", " : "", cell_keys[k].name);
	if (keys.len)
		errlist_add(&rs->warnings, rs->shown, 0, 0,
			    "cell %d of device '%s' is the workload of cell %d (they differ only "
			    "in %s, which does not make another workload); only the first is "
			    "reported", c->id, c->cell.device, first->id, sbuf_str(&keys));
	else
		errlist_add(&rs->warnings, rs->shown, 0, 0,
			    "cell %d repeats an earlier cell of device '%s' with the same "
			    "parameters; only the first is reported", c->id, c->cell.device);
	sbuf_release(&keys);
}

/* Per-row note: the source tool of imported rows when the report mixes
 * sources (mixed: whether it does). */
static char *entry_note(const struct report *r, const struct rentry *e, bool mixed)
{
	const struct rdev *d = &r->devs[e->dev];
	return d->imported && mixed ? strdup(r->sets[d->set].source_kind) : NULL;
}

/* The cells of every set with their keys, sorted: one run of equal keys
 * a group.  0, or -1 out of memory (*out NULL). */
static int gcells_sorted(struct report *r, struct gcell **out, size_t *nout)
{
	size_t n = 0, k = 0;
	for (size_t s = 0; s < r->nsets; s++)
		n += r->sets[s].ncells;
	struct gcell *gc = calloc(n ? n : 1, sizeof(*gc));
	*out = gc;
	*nout = n;
	if (!gc)
		return -1;
	for (size_t s = 0; s < r->nsets; s++)
		for (size_t ci = 0; ci < r->sets[s].ncells; ci++, k++) {
			const struct rset_cell *c = &r->sets[s].cells[ci];
			struct sbuf b = SBUF_INIT;
			workload_key_inferred(&c->cell, c->inferred, WORKLOAD_ALL, &b);
			gc[k] = (struct gcell){ sbuf_detach(&b), c, s, k,
						dev_index(r, s, report_cell_host(c), c->cell.device) };
			if (!gc[k].key)
				return -1;
		}
	qsort(gc, n, sizeof(*gc), gcell_cmp);
	return 0;
}

/* Group g from the run gc[0..len): one entry per device (runs are in
 * device order), the first cell of a device kept. */
static int group_fill(struct report *r, struct rgroup *g, struct gcell *gc, size_t len)
{
	memset(g, 0, sizeof(*g));
	g->e = calloc(len, sizeof(*g->e));
	if (!g->e)
		return -1;
	g->alloc = len;
	size_t first = 0;       /* the group's first cell is its prototype */
	for (size_t k = 0; k < len; k++) {
		if (gc[k].order < gc[first].order)
			first = k;
		if (g->n && g->e[g->n - 1].dev == gc[k].dev) {
			dup_warn(&r->sets[gc[k].set], gc[k].c, g->e[g->n - 1].cell);
			continue;
		}
		g->e[g->n++] = (struct rentry){ gc[k].dev, gc[k].c, NULL };
	}
	g->proto = gc[first].c;
	g->mixed = pattern_is_mixed(report_cell_pattern(g->proto));
	g->key = gc[0].key;
	gc[0].key = NULL;
	return 0;
}

/* Group order: by the first appearance of their (pattern, block size,
 * label), then their own. */
struct gorder {
	size_t first, fam_first, i;
	char *fam;
};

static int gorder_cmp(const void *a, const void *b)
{
	const struct gorder *x = a, *y = b;
	if (x->fam_first != y->fam_first)
		return x->fam_first < y->fam_first ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int groups_order(struct report *r, const size_t *first)
{
	size_t n = r->ngroups;
	struct gorder *o = calloc(n ? n : 1, sizeof(*o));
	struct rgroup *g = calloc(n ? n : 1, sizeof(*g));
	int rc = o && g ? 0 : -1;
	for (size_t i = 0; !rc && i < n; i++) {
		const struct rset_cell *p = r->groups[i].proto;
		o[i] = (struct gorder){ first[i], 0, i,
					fmt_str("%d|%llu|%s", (int)p->cell.pattern,
						(unsigned long long)p->cell.bs, p->cell.label) };
		rc = o[i].fam ? 0 : -1;
	}
	if (!rc)
		rc = keyfirst_fill(o, n, sizeof(*o), offsetof(struct gorder, fam),
				   offsetof(struct gorder, first), offsetof(struct gorder, fam_first));
	if (!rc) {
		qsort(o, n, sizeof(*o), gorder_cmp);
		for (size_t i = 0; i < n; i++)
			g[i] = r->groups[o[i].i];
		memcpy(r->groups, g, n * sizeof(*g));
	}
	for (size_t i = 0; o && i < n; i++)
		free(o[i].fam);
	free(o);
	free(g);
	return rc;
}

static int groups_build(struct report *r)
{
	struct gcell *gc = NULL;
	size_t n = 0, *first = NULL;
	int rc = gcells_sorted(r, &gc, &n);

	if (!rc && !(r->groups = calloc(n ? n : 1, sizeof(*r->groups))))
		rc = -1;
	if (!rc && !(first = calloc(n ? n : 1, sizeof(*first))))
		rc = -1;
	for (size_t i = 0, len; !rc && i < n; i += len) {
		for (len = 1; i + len < n && !strcmp(gc[i].key, gc[i + len].key); len++)
			;
		size_t f = gc[i].order;
		for (size_t k = i; k < i + len; k++)
			f = gc[k].order < f ? gc[k].order : f;
		first[r->ngroups] = f;
		rc = group_fill(r, &r->groups[r->ngroups++], &gc[i], len);
	}
	for (size_t i = 0; gc && i < n; i++)
		free(gc[i].key);
	free(gc);
	if (!rc)
		rc = groups_order(r, first);
	free(first);
	/* a note only where sources are mixed */
	bool mixed = false;
	for (size_t k = 1; k < r->ndevs; k++)
		mixed |= strcmp(r->sets[r->devs[k].set].source_kind,
				r->sets[r->devs[0].set].source_kind) != 0;
	for (size_t i = 0; !rc && i < r->ngroups; i++) {
		struct rgroup *g = &r->groups[i];
		for (size_t k = 0; k < g->n; k++)
			g->e[k].note = entry_note(r, &g->e[k], mixed);
	}
	return rc ? rc : report_group_titles(r);
}

/* ---- load ---- */

static int load_sets(struct report *r, char **dirs, const char *const *shown, size_t ndirs,
		     const char *baseline, const char *title, const char *const *labels,
		     const struct report_section *const *sections, struct errlist *errs);

int report_load(struct report *r, char **dirs, size_t ndirs,
		const char *baseline, const char *title,
		const struct report_section *const *sections, struct errlist *errs)
{
	return load_sets(r, dirs, NULL, ndirs, baseline, title, NULL, sections, errs);
}

int report_load_shown(struct report *r, char **dirs, const char *const *shown, size_t ndirs,
		      const struct report_section *const *sections, struct errlist *errs)
{
	return load_sets(r, dirs, shown, ndirs, NULL, NULL, NULL, sections, errs);
}

int report_load_labelled(struct report *r, char **dirs, size_t ndirs,
			 const char *const *labels,
			 const struct report_section *const *sections, struct errlist *errs)
{
	return load_sets(r, dirs, NULL, ndirs, NULL, NULL, labels, sections, errs);
}

/* The first title a section has for a report of this set, or NULL. */
static char *section_title(const struct report *r, const struct rset *rs)
{
	char *t = NULL;
	for (size_t i = 0; r->sections[i] && !t; i++)
		if (r->sections[i]->title)
			t = r->sections[i]->title(rs);
	return t;
}

static int load_sets(struct report *r, char **dirs, const char *const *shown, size_t ndirs,
		     const char *baseline, const char *title, const char *const *labels,
		     const struct report_section *const *sections, struct errlist *errs)
{
	static const struct report_section *const none[] = { NULL };

	memset(r, 0, sizeof(*r));
	r->sections = sections ? sections : none;
	r->set_labels = labels;
	r->sets = calloc(ndirs, sizeof(*r->sets));
	if (!r->sets) {
		errlist_add(errs, NULL, 0, 0, "out of memory");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < ndirs; i++) {
		if (rset_load_shown(dirs[i], shown ? shown[i] : NULL, &r->sets[i], errs) < 0) {
			r->nsets = i + 1;
			return EXIT_USAGE;
		}
		r->nsets = i + 1;
	}
	/* devices: manifest order, then any only seen in cells */
	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		for (size_t i = 0; i < rs->ndevices && !report_set_fleet(rs); i++) {
			bool used = false;
			for (size_t c = 0; c < rs->ncells && !used; c++)
				used = !strcmp(rs->cells[c].cell.device, rs->devices[i].name);
			if (used && dev_add(r, s, NULL, rs->devices[i].name) < 0)
				goto oom;
		}
		/* fleet sets: host.devices in cell order ("all" first) */
		for (size_t c = 0; c < rs->ncells; c++)
			if (dev_add(r, s, report_cell_host(&rs->cells[c]), rs->cells[c].cell.device) < 0)
				goto oom;
	}
	if (sets_verify(r) < 0 || dev_names(r) < 0 || devs_model(r) < 0 || groups_build(r) < 0)
		goto oom;
	r->baseline = 0;
	if (baseline) {
		size_t found = (size_t)-1;
		for (size_t i = 0; i < r->ndevs && found == (size_t)-1; i++)
			if (!strcmp(r->devs[i].display, baseline))
				found = i;
		for (size_t i = 0; i < r->ndevs && found == (size_t)-1; i++)
			if (!strcmp(r->devs[i].name, baseline))
				found = i;
		if (found == (size_t)-1) {
			struct sbuf names = SBUF_INIT;
			for (size_t i = 0; i < r->ndevs; i++)
				sbuf_addf(&names, "%s'%s'", i ? ", " : "", r->devs[i].display);
			errlist_add(errs, NULL, 0, 0, "unknown baseline device '%s' (devices: %s)",
				    baseline, sbuf_str(&names));
			sbuf_release(&names);
			return EXIT_USAGE;
		}
		r->baseline = found;
	}
	if (title) {
		r->title = strdup(title);
	} else if (r->sets[0].suite_title) {
		r->title = strdup(r->sets[0].suite_title);
	} else if ((r->title = section_title(r, &r->sets[0])) != NULL) {
		/* the section's own words */
	} else {
		struct sbuf t = SBUF_INIT;
		for (size_t i = 0; i < r->ndevs; i++)
			sbuf_addf(&t, "%s%s", i ? " vs " : "", r->devs[i].display);
		sbuf_adds(&t, ": storage benchmark");
		r->title = sbuf_detach(&t);
	}
	if (!r->title)
		goto oom;
	warnings_compute(r);
	alerts_compute(r);
	summary_compute_sentences(r);
	for (size_t i = 0; r->sections[i]; i++)
		if (r->sections[i]->load && r->sections[i]->load(r) < 0)
			goto oom;
	return 0;
oom:
	errlist_add(errs, NULL, 0, 0, "out of memory");
	return EXIT_RUNTIME;
}

void report_release(struct report *r)
{
	for (size_t i = 0; r->sections && r->sections[i]; i++)
		if (r->sections[i]->release)
			r->sections[i]->release(r);
	for (size_t i = 0; i < r->nsets; i++)
		rset_release(&r->sets[i]);
	free_strv(r->unverified, r->nsets);
	for (size_t i = 0; i < r->ndevs; i++)
		FREE_MANY(r->devs[i].display, r->devs[i].model, r->devs[i].label);
	for (size_t i = 0; i < r->ngroups; i++) {
		struct rgroup *g = &r->groups[i];
		FREE_MANY(g->key, g->title, g->words, g->sweep_words);
		for (size_t k = 0; k < g->n; k++)
			free(g->e[k].note);
		free(g->e);
	}
	for (size_t i = 0; i < r->nwarns; i++)
		free(r->warns[i].text);
	free_strv(r->summary, r->nsummary);
	free_strv(r->alerts, r->nalerts);
	FREE_MANY(r->verified, r->sets, r->devs, r->groups, r->warns, r->title);
	memset(r, 0, sizeof(*r));
}
