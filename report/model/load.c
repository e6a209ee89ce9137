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
#include "engines/engine.h"
#include "suite/keys.h"

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
	struct rdev *p = realloc(r->devs, (r->ndevs + 1) * sizeof(*p));
	if (!p)
		return -1;
	r->devs = p;
	struct rdev *d = &r->devs[r->ndevs];
	memset(d, 0, sizeof(*d));
	d->set = set;
	d->name = name;
	d->host = host;
	d->info = rset_device_find(&r->sets[set], name);
	d->imported = strcmp(r->sets[set].source_kind, "iomatrix") != 0;
	d->color = (int)(r->ndevs % REPORT_COLORS);
	r->ndevs++;
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
				      fmt_str("%s #%zu", d->label, d->set + 1)) : strdup(d->label);
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
		else
			d->display = fmt_str("%s@%s#%zu", d->name,
					       r->sets[d->set].hostname, d->set + 1);
		if (!d->display)
			return -1;
	}
	return 0;
}

/* ---- groups ---- */

/*
 * Workload parameters.  Two cells are one workload only when every key the
 * key table marks as defining the workload matches (key_same): a sysbench
 * run with 4 threads, 4 files and an fsync every 100 requests is not the
 * iomatrix cell with 1 job and 1 file, and a ratio between them would be
 * meaningless.  Engines compare by class (libaio and io_uring both submit
 * asynchronously; psync waits for each IO), and the row notes the engine
 * when a group mixes them.  The words below are how a title speaks of
 * them; P_EOPTS gathers every other workload key (batching, io_uring,
 * placement, and any key the table gains later).
 */
enum wparam { P_BS, P_QD, P_JOBS, P_RWMIX, P_ENGINE, P_DIRECT, P_FSYNC, P_DATA,
	      P_FILES, P_OFFSET, P_STOP, P_EOPTS, P__N };

/* The title word of workload key k; -1: the pattern, which splits groups
 * before any of these. */
static int wparam_of(int k)
{
	switch (k) {
	case K_PATTERN: return -1;
	case K_BS: return P_BS;
	case K_IODEPTH: return P_QD;
	case K_JOBS: return P_JOBS;
	case K_RWMIXREAD: return P_RWMIX;
	case K_ENGINE: return P_ENGINE;
	case K_DIRECT: return P_DIRECT;
	case K_FSYNC: case K_END_FSYNC: return P_FSYNC;
	case K_DATA: return P_DATA;
	case K_FILES: return P_FILES;
	case K_OFFSET: return P_OFFSET;
	case K_RUNTIME: case K_REQUESTS: case K_IO_SIZE: return P_STOP;
	default: return P_EOPTS;
	}
}

/* The P_EOPTS keys that differ from their defaults, as a title says them:
 * "iodepth_batch 32, fixedbufs"; another engine's options are not said.
 * Returns false (nothing added) when all are at their defaults. */
static bool eopts_note(const struct cell *c, struct sbuf *b)
{
	size_t len0 = b->len;
	struct sbuf part = SBUF_INIT;
	for (int k = 0; k < NKEYS; k++) {
		if (!cell_keys[k].workload || wparam_of(k) != P_EOPTS ||
		    (cell_keys[k].engine && strcmp(c->engine, cell_keys[k].engine)))
			continue;
		sbuf_reset(&part);
		key_text(k, c, KEY_TEXT_NOTE, &part);
		if (part.len)
			sbuf_addf(b, "%s%s", b->len > len0 ? ", " : "", sbuf_str(&part));
	}
	sbuf_release(&part);
	return b->len > len0;
}

static bool wparam_eq(const struct rset_cell *a, const struct rset_cell *b, int p)
{
	for (int k = 0; k < NKEYS; k++)
		if (cell_keys[k].workload && wparam_of(k) == p &&
		    !key_same(k, &a->cell, &b->cell))
			return false;
	return true;
}

/* Short text of a parameter for a title or key: "buffered", "QD64".
 * measured_s > 0: the cell was imported without its stop rule (sysbench
 * logs lack --time), so say how long it ran rather than "one pass". */
static void param_note(const struct rset_cell *c, int p, double measured_s, struct sbuf *b)
{
	char t[32];
	switch (p) {
	case P_BS: fmt_bs(c->cell.bs, t, sizeof(t)); sbuf_addf(b, "bs %s", t); break;
	case P_QD: sbuf_addf(b, "QD%u", c->cell.iodepth); break;
	case P_JOBS: sbuf_addf(b, "%u job%s", c->cell.jobs, c->cell.jobs == 1 ? "" : "s"); break;
	case P_RWMIX: sbuf_addf(b, "%u%% reads", c->cell.rwmixread); break;
	case P_ENGINE: sbuf_adds(b, c->cell.engine); break;
	case P_DIRECT: sbuf_adds(b, c->cell.direct ? "direct" : "buffered"); break;
	case P_FSYNC:
		if (c->cell.fsync)
			sbuf_addf(b, "fsync every %u", c->cell.fsync);
		else
			sbuf_adds(b, c->cell.end_fsync ? "end fsync" : "no fsync");
		break;
	case P_DATA: sbuf_addf(b, "%s data", data_name(c->cell.data)); break;
	case P_FILES: sbuf_addf(b, "%u file%s", c->cell.files, c->cell.files == 1 ? "" : "s"); break;
	case P_STOP:
		if (c->cell.runtime_ns) {
			units_format_duration(c->cell.runtime_ns, t, sizeof(t));
			sbuf_addf(b, "%s run", t);
		}
		if (c->cell.requests)
			sbuf_addf(b, "%s%llu requests", c->cell.runtime_ns ? ", " : "",
				  (unsigned long long)c->cell.requests);
		if (c->cell.io_size) {
			fmt_bs(c->cell.io_size, t, sizeof(t));
			sbuf_addf(b, "%s%s io", c->cell.runtime_ns || c->cell.requests ? ", " : "", t);
		}
		if (!c->cell.runtime_ns && !c->cell.requests && !c->cell.io_size) {
			if (measured_s > 0)
				sbuf_addf(b, "stop rule not recorded, ran %.1f s", measured_s);
			else
				sbuf_adds(b, "one pass");
		}
		break;
	case P_EOPTS:
		if (!eopts_note(&c->cell, b))
			sbuf_adds(b, "fio's engine defaults");
		break;
	case P_OFFSET:
		if (c->cell.offset_pct > 0) {
			sbuf_addf(b, "offset %g%%", c->cell.offset_pct);
		} else {
			fmt_bs(c->cell.offset, t, sizeof(t));
			sbuf_addf(b, "offset %s", c->cell.offset ? t : "0");
		}
		break;
	}
}

/* The measured length of an imported cell without a stop rule, else 0. */
static double imported_stop_s(const struct report *r, size_t dev, const struct rset_cell *c)
{
	if (!r->devs[dev].imported || c->cell.runtime_ns || c->cell.requests || c->cell.io_size)
		return 0;
	return c->runtime_mean_ns > 0 ? c->runtime_mean_ns / 1e9 : 0;
}

static char *group_key(const struct report *r, size_t dev, const struct rset_cell *c)
{
	struct sbuf b = SBUF_INIT;
	sbuf_adds(&b, pattern_name(c->cell.pattern));
	for (int p = 0; p < P__N; p++) {
		sbuf_addc(&b, '|');
		if (p == P_RWMIX && !pattern_is_mixed(c->cell.pattern))
			continue;
		/* fsync changes nothing a read-only workload measures */
		if (p == P_FSYNC && !pattern_writes(c->cell.pattern))
			continue;
		if (p == P_ENGINE) {
			sbuf_adds(&b, key_engine_class(c->cell.engine));
			continue;
		}
		/* an imported run of unknown stop rule matches no other cell */
		if (p == P_STOP && imported_stop_s(r, dev, c) > 0) {
			sbuf_addf(&b, "imported-%p", (const void *)c);
			continue;
		}
		param_note(c, p, 0, &b);
	}
	return sbuf_detach(&b);
}

/* Per-row note: the source tool of imported rows when the report mixes
 * sources, the engine when a group mixes libaio and io_uring. */
static char *entry_note(const struct report *r, const struct rgroup *g, const struct rentry *e)
{
	struct sbuf b = SBUF_INIT;
	const struct rdev *d = &r->devs[e->dev];
	bool engines = false;

	bool sources = false;   /* a note only where sources are mixed */
	for (size_t k = 0; k < r->ndevs; k++)
		sources |= strcmp(r->sets[r->devs[k].set].source_kind, r->sets[d->set].source_kind) != 0;
	for (size_t k = 0; k < g->n; k++)
		engines |= strcmp(g->e[k].cell->cell.engine, g->proto->cell.engine) != 0;
	if (d->imported && sources)
		sbuf_addf(&b, "%s", r->sets[d->set].source_kind);
	if (engines)
		sbuf_addf(&b, "%s%s", b.len ? ", " : "", e->cell->cell.engine);
	if (!b.len) {
		sbuf_release(&b);
		return NULL;
	}
	return sbuf_detach(&b);
}

/* What a title must say: a parameter is named where it differs from its
 * most common value among the workloads (a suite's one psync fsync cell
 * says "psync"; the other 40 do not say "libaio"). */
struct varies {
	bool qd, jobs;
	const struct rset_cell *modal[P__N];   /* a cell with the modal value */
};

static void compute_varies(const struct report *r, struct varies *v)
{
	memset(v, 0, sizeof(*v));
	if (!r->ngroups)
		return;
	const struct rset_cell *a = r->groups[0].proto;
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct rset_cell *b = r->groups[i].proto;
		v->qd |= a->cell.iodepth != b->cell.iodepth;
		v->jobs |= a->cell.jobs != b->cell.jobs;
	}
	for (int p = 0; p < P__N; p++) {
		size_t best = 0;
		for (size_t i = 0; i < r->ngroups; i++) {
			size_t n = 0;
			for (size_t k = 0; k < r->ngroups; k++)
				n += wparam_eq(r->groups[k].proto, r->groups[i].proto, p);
			if (n > best) {
				best = n;
				v->modal[p] = r->groups[i].proto;
			}
		}
	}
}

static bool unusual(const struct varies *v, const struct rset_cell *c, int p)
{
	return v->modal[p] && !wparam_eq(c, v->modal[p], p);
}

/*
 * What a title says beyond pattern, block size, queue depth, jobs and mix.
 * A title names what a reader tells the workload by: an offset (zone reads
 * at 0 %, 50 % and 95 % are named by their offsets, 0 % included), the
 * engine, buffering, fsync, data, files or engine options where they are
 * unusual.  The stop rule (runtime, requests, bytes) is named only where it
 * is what separates two workloads that would otherwise read alike, and then
 * only the part that differs ("3s run", not "3s run, 51M io"); the
 * workload with the usual stop rule keeps the plain name.  all: every
 * parameter, when nothing shorter is unique.
 */
struct tname {
	bool all;
	bool offset, offset_pct;     /* an offset family: say it, in % if they do */
	bool rt, rq, io;             /* stop-rule parts to say */
};

/* The stop-rule parts of c named in t, or the whole rule when c has none of
 * them (its sibling stops by bytes, c by time: say c's time). */
static void stop_note(const struct rset_cell *c, const struct tname *t, struct sbuf *b)
{
	char s[32];
	size_t len0 = b->len;

	if (t->rt && c->cell.runtime_ns) {
		units_format_duration(c->cell.runtime_ns, s, sizeof(s));
		sbuf_addf(b, "%s run", s);
	}
	if (t->rq && c->cell.requests)
		sbuf_addf(b, "%s%llu requests", b->len > len0 ? ", " : "",
			  (unsigned long long)c->cell.requests);
	if (t->io && c->cell.io_size) {
		fmt_bs(c->cell.io_size, s, sizeof(s));
		sbuf_addf(b, "%s%s io", b->len > len0 ? ", " : "", s);
	}
	if (b->len == len0)
		param_note(c, P_STOP, 0, b);
}

/* The title of a group without the label: "4K random read, QD1, 4 jobs". */
static void group_extra(const struct report *r, const struct rgroup *g,
			const struct varies *v, const struct tname *t, struct sbuf *extra)
{
	const struct rset_cell *c = g->proto;
	double ms = imported_stop_s(r, g->e[0].dev, c);
	bool all = t->all;

	if (all || v->qd || v->jobs || c->cell.iodepth > 1 || c->cell.jobs > 1)
		sbuf_addf(extra, ", QD%u", c->cell.iodepth);
	if (all || v->jobs || c->cell.jobs > 1)
		sbuf_addf(extra, ", %u job%s", c->cell.jobs, c->cell.jobs == 1 ? "" : "s");
	if (g->mixed)
		sbuf_addf(extra, ", %u%% reads", c->cell.rwmixread);
	if (all || unusual(v, c, P_ENGINE))
		sbuf_addf(extra, ", %s", c->cell.engine);
	if (all || unusual(v, c, P_DIRECT))
		sbuf_adds(extra, c->cell.direct ? ", direct" : ", buffered");
	/* "no fsync" is the usual case: only say when there is one, and
	 * never on a workload that writes nothing (an fsync there syncs
	 * nothing: a read test is not "fsync every 100") */
	if (pattern_writes(c->cell.pattern) &&
	    (c->cell.fsync || c->cell.end_fsync || (all && unusual(v, c, P_FSYNC)))) {
		sbuf_adds(extra, ", ");
		param_note(c, P_FSYNC, 0, extra);
	}
	if (all || unusual(v, c, P_DATA) || c->cell.data != DATA_RANDOM)
		sbuf_addf(extra, ", %s data", data_name(c->cell.data));
	if (all || unusual(v, c, P_FILES) || c->cell.files > 1)
		sbuf_addf(extra, ", %u file%s", c->cell.files, c->cell.files == 1 ? "" : "s");
	/* batching and io_uring settings common to every cell are in the
	 * method, not each title */
	if (all || unusual(v, c, P_EOPTS)) {
		struct sbuf e = SBUF_INIT;
		if (eopts_note(&c->cell, &e))
			sbuf_addf(extra, ", %s", sbuf_str(&e));
		sbuf_release(&e);
	}
	if (c->cell.offset || c->cell.offset_pct > 0) {
		sbuf_adds(extra, ", ");
		param_note(c, P_OFFSET, 0, extra);
	} else if (t->offset) {
		sbuf_adds(extra, t->offset_pct ? ", offset 0%" : ", offset 0");
	}
	if (all || ms > 0) {
		sbuf_adds(extra, ", ");
		param_note(c, P_STOP, ms, extra);
	} else if (t->rt || t->rq || t->io) {
		sbuf_adds(extra, ", ");
		stop_note(c, t, extra);
	}
}

/* Groups a title must tell apart: same pattern and block size. */
static bool title_siblings(const struct rgroup *a, const struct rgroup *b)
{
	return a != b && a->proto->cell.bs == b->proto->cell.bs &&
	       report_cell_pattern(a->proto) == report_cell_pattern(b->proto);
}

/* b differs from a in offset and in nothing else a workload is made of. */
static bool offset_family(const struct rset_cell *a, const struct rset_cell *b)
{
	for (int p = 0; p < P__N; p++)
		if (wparam_eq(a, b, p) != (p != P_OFFSET))
			return false;
	return true;
}

/* The stop-rule parts in which c differs from o (only those where c is not
 * the usual one when usual_quiet: the usual workload keeps its plain name). */
static bool stop_parts(const struct varies *v, const struct rset_cell *c,
		       const struct rset_cell *o, bool usual_quiet, struct tname *t)
{
	const struct rset_cell *m = v->modal[P_STOP];
	bool rt = c->cell.runtime_ns != o->cell.runtime_ns, rq = c->cell.requests != o->cell.requests,
	     io = c->cell.io_size != o->cell.io_size;

	if (usual_quiet && m) {
		rt &= c->cell.runtime_ns != m->cell.runtime_ns;
		rq &= c->cell.requests != m->cell.requests;
		io &= c->cell.io_size != m->cell.io_size;
	}
	t->rt |= rt;
	t->rq |= rq;
	t->io |= io;
	return rt || rq || io;
}

/* Fill ex[i] with the title extra of every group under names t[i]. */
static void extras_build(const struct report *r, const struct varies *v,
			 const struct tname *t, struct sbuf *ex)
{
	for (size_t i = 0; i < r->ngroups; i++) {
		sbuf_reset(&ex[i]);
		group_extra(r, &r->groups[i], v, &t[i], &ex[i]);
	}
}

/* Index of a sibling of group i whose extra reads like i's, or -1. */
static ptrdiff_t extra_clash(const struct report *r, const struct sbuf *ex, size_t i)
{
	for (size_t k = 0; k < r->ngroups; k++)
		if (title_siblings(&r->groups[i], &r->groups[k]) &&
		    !strcmp(sbuf_str(&ex[k]), sbuf_str(&ex[i])))
			return (ptrdiff_t)k;
	return -1;
}

/* Choose what each title says (struct tname): offsets of a family first,
 * then the stop parts that separate look-alikes, then everything. */
static void titles_choose(const struct report *r, const struct varies *v,
			  struct tname *t, struct sbuf *ex)
{
	for (size_t i = 0; i < r->ngroups; i++)
		for (size_t k = 0; k < r->ngroups; k++) {
			const struct rset_cell *a = r->groups[i].proto, *b = r->groups[k].proto;
			if (!title_siblings(&r->groups[i], &r->groups[k]) || !offset_family(a, b))
				continue;
			t[i].offset = true;
			t[i].offset_pct |= a->cell.offset_pct > 0 || b->cell.offset_pct > 0;
		}
	extras_build(r, v, t, ex);
	for (size_t i = 0; i < r->ngroups; i++)
		for (size_t k = 0; k < r->ngroups; k++) {
			const struct rset_cell *a = r->groups[i].proto, *b = r->groups[k].proto;
			struct tname other = { 0 };
			if (!title_siblings(&r->groups[i], &r->groups[k]) ||
			    strcmp(sbuf_str(&ex[k]), sbuf_str(&ex[i])) ||
			    stop_parts(v, a, b, true, &t[i]))
				continue;
			/* neither of the two has the usual stop rule: both say theirs */
			if (!stop_parts(v, b, a, true, &other))
				stop_parts(v, a, b, false, &t[i]);
		}
	extras_build(r, v, t, ex);
	/* two workloads must never read alike: spell every parameter out
	 * where the chosen words still clash */
	bool again = false;
	for (size_t i = 0; i < r->ngroups; i++)
		if (extra_clash(r, ex, i) >= 0) {
			t[i].all = true;
			again = true;
		}
	if (again)
		extras_build(r, v, t, ex);
}

static int group_titles(struct report *r)
{
	struct varies v;
	struct tname *t = calloc(r->ngroups ? r->ngroups : 1, sizeof(*t));
	struct sbuf *ex = calloc(r->ngroups ? r->ngroups : 1, sizeof(*ex));

	if (!t || !ex) {
		free(t);
		free(ex);
		return -1;
	}
	compute_varies(r, &v);
	titles_choose(r, &v, t, ex);
	for (size_t i = 0; i < r->ngroups; i++) {
		struct rgroup *g = &r->groups[i];
		const struct rset_cell *c = g->proto;
		struct sbuf tt = SBUF_INIT, w = SBUF_INIT;
		const char *extra = sbuf_str(&ex[i]);
		char bs[32];

		fmt_bs(c->cell.bs, bs, sizeof(bs));
		sbuf_addf(&tt, "%s %s%s", bs, report_pattern_words(report_cell_pattern(c), false), extra);
		if (c->cell.label[0])
			sbuf_addf(&tt, " (%s)", c->cell.label);
		sbuf_addf(&w, "%s %s", bs, report_pattern_words(report_cell_pattern(c), true));
		if (*extra && !strncmp(extra, ", QD", 4))
			sbuf_addf(&w, " at %s", extra + 2);
		else if (*extra)
			sbuf_addf(&w, " (%s)", extra + 2);
		g->title = sbuf_detach(&tt);
		g->words = sbuf_detach(&w);
	}
	for (size_t i = 0; i < r->ngroups; i++)
		sbuf_release(&ex[i]);
	free(ex);
	free(t);
	return 0;
}

/* Workloads that differ only in a per-device parameter (a buffered tmpfs
 * next to a direct disk) are separate groups; keep them next to each
 * other, in the order the first of them appeared. */
static void groups_order(struct report *r)
{
	size_t n = r->ngroups;
	for (size_t i = 1; i < n; i++) {
		struct rgroup g = r->groups[i];
		size_t first = i;
		for (size_t k = 0; k < i; k++)
			if (g.proto->cell.bs == r->groups[k].proto->cell.bs &&
			    g.proto->cell.pattern == r->groups[k].proto->cell.pattern &&
			    !strcmp(g.proto->cell.label, r->groups[k].proto->cell.label)) {
				first = k;
				break;
			}
		if (first == i)
			continue;
		/* move group i to just after the last group of its kind */
		size_t at = first + 1;
		while (at < i && r->groups[at].proto->cell.bs == g.proto->cell.bs &&
		       g.proto->cell.pattern == r->groups[at].proto->cell.pattern &&
		       !strcmp(g.proto->cell.label, r->groups[at].proto->cell.label))
			at++;
		memmove(&r->groups[at + 1], &r->groups[at], (i - at) * sizeof(g));
		r->groups[at] = g;
	}
}

static int groups_build(struct report *r)
{
	for (size_t s = 0; s < r->nsets; s++) {
		struct rset *rs = &r->sets[s];
		for (size_t ci = 0; ci < rs->ncells; ci++) {
			const struct rset_cell *c = &rs->cells[ci];
			size_t dv = dev_index(r, s, report_cell_host(c), c->cell.device);
			char *key = group_key(r, dv, c);
			if (!key)
				return -1;
			struct rgroup *g = NULL;
			for (size_t i = r->ngroups; i-- > 0;) {
				if (!strcmp(r->groups[i].key, key)) {
					g = &r->groups[i];
					break;
				}
			}
			if (!g) {
				struct rgroup *p = realloc(r->groups, (r->ngroups + 1) * sizeof(*p));
				if (!p) {
					free(key);
					return -1;
				}
				r->groups = p;
				g = &r->groups[r->ngroups++];
				memset(g, 0, sizeof(*g));
				g->key = key;
				g->proto = c;
				g->mixed = pattern_is_mixed(report_cell_pattern(c));
			} else {
				free(key);
			}
			bool dup = false;
			for (size_t k = 0; k < g->n; k++)
				dup |= g->e[k].dev == dv;
			if (dup) {
				errlist_add(&rs->warnings, rs->dir, 0, 0,
					    "cell %d repeats an earlier cell of device '%s' with the same "
					    "parameters; only the first is reported", c->id, c->cell.device);
				continue;
			}
			if (g->n == g->alloc) {
				size_t na = g->alloc ? g->alloc * 2 : 4;
				struct rentry *p = realloc(g->e, na * sizeof(*p));
				if (!p)
					return -1;
				g->e = p;
				g->alloc = na;
			}
			g->e[g->n].dev = dv;
			g->e[g->n].cell = c;
			g->e[g->n].note = NULL;
			g->n++;
		}
	}
	/* rows in device order */
	for (size_t i = 0; i < r->ngroups; i++) {
		struct rgroup *g = &r->groups[i];
		for (size_t a = 1; a < g->n; a++)
			for (size_t b = a; b > 0 && g->e[b - 1].dev > g->e[b].dev; b--) {
				struct rentry t = g->e[b];
				g->e[b] = g->e[b - 1];
				g->e[b - 1] = t;
			}
	}
	groups_order(r);
	for (size_t i = 0; i < r->ngroups; i++) {
		struct rgroup *g = &r->groups[i];
		for (size_t k = 0; k < g->n; k++)
			g->e[k].note = entry_note(r, g, &g->e[k]);
	}
	return group_titles(r);
}

/* ---- load ---- */

static int load_sets(struct report *r, char **dirs, size_t ndirs,
		     const char *baseline, const char *title, const char *const *labels,
		     const struct report_section *const *sections, struct errlist *errs);

int report_load(struct report *r, char **dirs, size_t ndirs,
		const char *baseline, const char *title,
		const struct report_section *const *sections, struct errlist *errs)
{
	return load_sets(r, dirs, ndirs, baseline, title, NULL, sections, errs);
}

int report_load_labelled(struct report *r, char **dirs, size_t ndirs,
			 const char *const *labels,
			 const struct report_section *const *sections, struct errlist *errs)
{
	return load_sets(r, dirs, ndirs, NULL, NULL, labels, sections, errs);
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

static int load_sets(struct report *r, char **dirs, size_t ndirs,
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
		if (rset_load(dirs[i], &r->sets[i], errs) < 0) {
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
	if (sets_verify(r) < 0 || dev_names(r) < 0 || groups_build(r) < 0)
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
	for (size_t i = 0; i < r->nsets; i++) {
		rset_release(&r->sets[i]);
		if (r->unverified)
			free(r->unverified[i]);
	}
	free(r->unverified);
	free(r->verified);
	free(r->sets);
	for (size_t i = 0; i < r->ndevs; i++) {
		free(r->devs[i].display);
		free(r->devs[i].label);
	}
	free(r->devs);
	for (size_t i = 0; i < r->ngroups; i++) {
		free(r->groups[i].key);
		free(r->groups[i].title);
		free(r->groups[i].words);
		for (size_t k = 0; k < r->groups[i].n; k++)
			free(r->groups[i].e[k].note);
		free(r->groups[i].e);
	}
	free(r->groups);
	for (size_t i = 0; i < r->nwarns; i++)
		free(r->warns[i].text);
	free(r->warns);
	for (size_t i = 0; i < r->nsummary; i++)
		free(r->summary[i]);
	free(r->summary);
	for (size_t i = 0; i < r->nalerts; i++)
		free(r->alerts[i]);
	free(r->alerts);
	free(r->title);
	memset(r, 0, sizeof(*r));
}
