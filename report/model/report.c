/*
 * report.c - build the aggregated report model from result sets (devices
 * disambiguated by host, cells grouped by workload) and compute the
 * warnings and summary sentences.  render.c turns the model into the
 * template context, CSV and JSON.  Strings stay raw here; the template
 * engine and the CSV writer escape.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "charts/chart.h"
#include "cli.h"
#include "render/escape.h"
#include "fleet.h"
#include "report.h"
#include "ssd.h"
#include "common/units.h"
#include "common/ramkind.h"

/* Okabe-Ito: distinguishable with colour-blindness, in print and on screen. */
const char *const report_colors[REPORT_COLORS] = {
	"#0072B2", "#E69F00", "#009E73", "#D55E00",
	"#CC79A7", "#56B4E9", "#F0E442", "#000000",
};

const char *report_pattern_words(const char *p, bool plural)
{
	static const struct { const char *pat, *one, *many; } w[] = {
		{ "read", "sequential read", "sequential reads" },
		{ "write", "sequential write", "sequential writes" },
		{ "randread", "random read", "random reads" },
		{ "randwrite", "random write", "random writes" },
		{ "readwrite", "sequential read/write", "sequential mixed reads and writes" },
		{ "randrw", "random read/write", "random mixed reads and writes" },
		{ "rewrite", "sequential rewrite", "sequential rewrites" },
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(p, w[i].pat))
			return plural ? w[i].many : w[i].one;
	return p;
}

double rentry_iops(const struct rentry *e)
{
	double s = 0;
	for (int k = 0; k < DIR__COUNT; k++)
		if (e->cell->dir[k].present)
			s += e->cell->dir[k].iops.mean;
	return s;
}

double rentry_bw(const struct rentry *e)
{
	double s = 0;
	for (int k = 0; k < DIR__COUNT; k++)
		if (e->cell->dir[k].present)
			s += e->cell->dir[k].bw.mean;
	return s;
}

double rentry_lat(const struct rentry *e)
{
	double s = 0, w = 0;
	for (int k = 0; k < DIR__COUNT; k++) {
		const struct rset_dir *d = &e->cell->dir[k];
		if (d->present && d->lat_mean.n) {
			double wt = d->iops.mean > 0 ? d->iops.mean : 1;
			s += d->lat_mean.mean * wt;
			w += wt;
		}
	}
	return w > 0 ? s / w : NAN;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	struct sbuf b = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	return sbuf_detach(&b);
}

static void warn_add(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void warn_add(struct report *r, const char *fmt, ...)
{
	struct sbuf b = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	char *s = sbuf_detach(&b);
	if (!s)
		return;
	/* one VM, two sets: say it once */
	for (size_t i = 0; i < r->nwarns; i++)
		if (!strcmp(r->warns[i].text, s)) {
			free(s);
			return;
		}
	if (r->nwarns == r->warns_alloc) {
		size_t na = r->warns_alloc ? r->warns_alloc * 2 : 16;
		struct rwarn *p = realloc(r->warns, na * sizeof(*p));
		if (!p) {
			free(s);
			return;
		}
		r->warns = p;
		r->warns_alloc = na;
	}
	r->warns[r->nwarns++].text = s;
}

/* ---- devices ---- */

/* host: a fleet cell's host (report/model/fleet.h), NULL in ordinary sets */
static bool same_host(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static size_t dev_index(struct report *r, size_t set, const char *host,
			const char *name)
{
	for (size_t i = 0; i < r->ndevs; i++)
		if (r->devs[i].set == set && !strcmp(r->devs[i].name, name) &&
		    same_host(r->devs[i].host, host))
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
			d->label = xasprintf("%s · %s", d->host, d->name);
			d->display = !d->label ? NULL : multi ?
				     (r->set_labels && r->set_labels[d->set] ?
				      xasprintf("%s (%s)", d->label, r->set_labels[d->set]) :
				      xasprintf("%s #%zu", d->label, d->set + 1)) : strdup(d->label);
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
			d->display = xasprintf("%s (%s)", d->name, r->set_labels[d->set]);
		else if (!host_clash)
			d->display = xasprintf("%s@%s", d->name, r->sets[d->set].hostname);
		else
			d->display = xasprintf("%s@%s#%zu", d->name,
					       r->sets[d->set].hostname, d->set + 1);
		if (!d->display)
			return -1;
	}
	return 0;
}

/* ---- groups ---- */

/*
 * Workload parameters.  Two cells are one workload only when every
 * parameter that changes the result matches: a sysbench run with 4 threads,
 * 4 files and an fsync every 100 requests is not the iomatrix cell with 1
 * job and 1 file, and a ratio between them would be meaningless.  Engines
 * compare by class (libaio and io_uring both submit asynchronously; psync
 * waits for each IO), and the row notes the engine when a group mixes them.
 */
enum wparam { P_BS, P_QD, P_JOBS, P_RWMIX, P_ENGINE, P_DIRECT, P_FSYNC, P_DATA,
	      P_FILES, P_OFFSET, P_STOP, P_EOPTS, P__N };

/* The batching, io_uring and placement keys (P_EOPTS) that differ from
 * fio's defaults, under fio's names: "iodepth_batch 32, fixedbufs".
 * Returns false (nothing added) when all are at their defaults. */
static bool eopts_note(const struct cell *c, struct sbuf *b)
{
	size_t len0 = b->len;
#define SEP (b->len > len0 ? ", " : "")
	if (c->iodepth_batch != 1)
		sbuf_addf(b, "%siodepth_batch %u", SEP, c->iodepth_batch);
	if (c->iodepth_batch_complete_min != 1)
		sbuf_addf(b, "%scompletions from %u", SEP, c->iodepth_batch_complete_min);
	if (c->iodepth_batch_complete_max)
		sbuf_addf(b, "%scompletions up to %u", SEP, c->iodepth_batch_complete_max);
	if (!strcmp(c->engine, "io_uring")) {
		if (c->registerfiles)
			sbuf_addf(b, "%sregisterfiles", SEP);
		if (c->fixedbufs)
			sbuf_addf(b, "%sfixedbufs", SEP);
		if (c->sqthread_poll)
			sbuf_addf(b, "%ssqthread_poll", SEP);
		if (c->sqthread_poll && c->sqthread_poll_cpu >= 0)
			sbuf_addf(b, " on CPU %d", c->sqthread_poll_cpu);
		if (c->hipri)
			sbuf_addf(b, "%shipri", SEP);
		if (c->nonvectored >= 0)
			sbuf_addf(b, "%snonvectored %d", SEP, c->nonvectored);
	}
	if (c->cpus_allowed[0])
		sbuf_addf(b, "%sCPUs %s", SEP, c->cpus_allowed);
	if (c->numa_node >= 0)
		sbuf_addf(b, "%sNUMA node %d", SEP, c->numa_node);
#undef SEP
	return b->len > len0;
}

static bool eopts_eq(const struct cell *a, const struct cell *b)
{
	return a->iodepth_batch == b->iodepth_batch &&
	       a->iodepth_batch_complete_min == b->iodepth_batch_complete_min &&
	       a->iodepth_batch_complete_max == b->iodepth_batch_complete_max &&
	       a->registerfiles == b->registerfiles && a->fixedbufs == b->fixedbufs &&
	       a->sqthread_poll == b->sqthread_poll &&
	       a->sqthread_poll_cpu == b->sqthread_poll_cpu && a->hipri == b->hipri &&
	       a->nonvectored == b->nonvectored &&
	       !strcmp(a->cpus_allowed, b->cpus_allowed) && a->numa_node == b->numa_node;
}

static const char *engine_class(const char *e)
{
	if (!strcmp(e, "libaio") || !strcmp(e, "io_uring"))
		return "async";
	return e;
}

static bool param_eq(const struct rset_cell *a, const struct rset_cell *b, int p)
{
	switch (p) {
	case P_BS: return a->bs == b->bs;
	case P_QD: return a->iodepth == b->iodepth;
	case P_JOBS: return a->jobs == b->jobs;
	case P_RWMIX: return a->rwmixread == b->rwmixread;
	case P_ENGINE: return !strcmp(engine_class(a->engine), engine_class(b->engine));
	case P_DIRECT: return a->direct == b->direct;
	case P_FSYNC: return a->fsync == b->fsync && a->end_fsync == b->end_fsync;
	case P_DATA: return !strcmp(a->data, b->data) && a->compress_pct == b->compress_pct;
	case P_FILES: return a->files == b->files;
	/* zone reads (offset 0 %, 50 %, 95 %) are different workloads */
	case P_OFFSET: return a->offset_bytes == b->offset_bytes &&
			      a->offset_pct == b->offset_pct;
	/* a 60 s latency run is not a repeat of the same cell run for 20 s */
	case P_STOP: return a->runtime_ns == b->runtime_ns &&
			    a->requests == b->requests && a->io_size == b->io_size;
	case P_EOPTS: return eopts_eq(&a->cell, &b->cell);
	}
	return true;
}

/* Short text of a parameter for a title or key: "buffered", "QD64".
 * measured_s > 0: the cell was imported without its stop rule (sysbench
 * logs lack --time), so say how long it ran rather than "one pass". */
static void param_note(const struct rset_cell *c, int p, double measured_s, struct sbuf *b)
{
	char t[32];
	switch (p) {
	case P_BS: fmt_bs(c->bs, t, sizeof(t)); sbuf_addf(b, "bs %s", t); break;
	case P_QD: sbuf_addf(b, "QD%d", c->iodepth); break;
	case P_JOBS: sbuf_addf(b, "%d job%s", c->jobs, c->jobs == 1 ? "" : "s"); break;
	case P_RWMIX: sbuf_addf(b, "%d%% reads", c->rwmixread); break;
	case P_ENGINE: sbuf_adds(b, c->engine); break;
	case P_DIRECT: sbuf_adds(b, c->direct ? "direct" : "buffered"); break;
	case P_FSYNC:
		if (c->fsync)
			sbuf_addf(b, "fsync every %d", c->fsync);
		else
			sbuf_adds(b, c->end_fsync ? "end fsync" : "no fsync");
		break;
	case P_DATA: sbuf_addf(b, "%s data", c->data); break;
	case P_FILES: sbuf_addf(b, "%d file%s", c->files, c->files == 1 ? "" : "s"); break;
	case P_STOP:
		if (c->runtime_ns) {
			units_format_duration(c->runtime_ns, t, sizeof(t));
			sbuf_addf(b, "%s run", t);
		}
		if (c->requests)
			sbuf_addf(b, "%s%llu requests", c->runtime_ns ? ", " : "",
				  (unsigned long long)c->requests);
		if (c->io_size) {
			fmt_bs(c->io_size, t, sizeof(t));
			sbuf_addf(b, "%s%s io", c->runtime_ns || c->requests ? ", " : "", t);
		}
		if (!c->runtime_ns && !c->requests && !c->io_size) {
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
		if (c->offset_pct > 0) {
			sbuf_addf(b, "offset %g%%", c->offset_pct);
		} else {
			fmt_bs(c->offset_bytes, t, sizeof(t));
			sbuf_addf(b, "offset %s", c->offset_bytes ? t : "0");
		}
		break;
	}
}

/* The measured length of an imported cell without a stop rule, else 0. */
static double imported_stop_s(const struct report *r, size_t dev, const struct rset_cell *c)
{
	if (!r->devs[dev].imported || c->runtime_ns || c->requests || c->io_size)
		return 0;
	return c->runtime_mean_ns > 0 ? c->runtime_mean_ns / 1e9 : 0;
}

static char *group_key(const struct report *r, size_t dev, const struct rset_cell *c)
{
	struct sbuf b = SBUF_INIT;
	sbuf_adds(&b, c->pattern);
	for (int p = 0; p < P__N; p++) {
		sbuf_addc(&b, '|');
		if (p == P_RWMIX && strcmp(c->pattern, "randrw") && strcmp(c->pattern, "readwrite"))
			continue;
		if (p == P_ENGINE) {
			sbuf_adds(&b, engine_class(c->engine));
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
		engines |= strcmp(g->e[k].cell->engine, g->proto->engine) != 0;
	if (d->imported && sources)
		sbuf_addf(&b, "%s", r->sets[d->set].source_kind);
	if (engines)
		sbuf_addf(&b, "%s%s", b.len ? ", " : "", e->cell->engine);
	if (!b.len) {
		sbuf_release(&b);
		return NULL;
	}
	return sbuf_detach(&b);
}

static bool is_mixed(const char *p)
{
	return !strcmp(p, "randrw") || !strcmp(p, "readwrite");
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
		v->qd |= a->iodepth != b->iodepth;
		v->jobs |= a->jobs != b->jobs;
	}
	for (int p = 0; p < P__N; p++) {
		size_t best = 0;
		for (size_t i = 0; i < r->ngroups; i++) {
			size_t n = 0;
			for (size_t k = 0; k < r->ngroups; k++)
				n += param_eq(r->groups[k].proto, r->groups[i].proto, p);
			if (n > best) {
				best = n;
				v->modal[p] = r->groups[i].proto;
			}
		}
	}
}

static bool unusual(const struct varies *v, const struct rset_cell *c, int p)
{
	return v->modal[p] && !param_eq(c, v->modal[p], p);
}

/* The title of a group without the label: "4K random read, QD1, 4 jobs". */
static void group_extra(const struct report *r, const struct rgroup *g,
			const struct varies *v, bool all, struct sbuf *extra)
{
	const struct rset_cell *c = g->proto;
	double ms = imported_stop_s(r, g->e[0].dev, c);

	if (all || v->qd || v->jobs || c->iodepth > 1 || c->jobs > 1)
		sbuf_addf(extra, ", QD%d", c->iodepth);
	if (all || v->jobs || c->jobs > 1)
		sbuf_addf(extra, ", %d job%s", c->jobs, c->jobs == 1 ? "" : "s");
	if (g->mixed)
		sbuf_addf(extra, ", %d%% reads", c->rwmixread);
	if (all || unusual(v, c, P_ENGINE))
		sbuf_addf(extra, ", %s", c->engine);
	if (all || unusual(v, c, P_DIRECT))
		sbuf_adds(extra, c->direct ? ", direct" : ", buffered");
	/* "no fsync" is the usual case: only say when there is one */
	if (c->fsync || c->end_fsync || (all && unusual(v, c, P_FSYNC))) {
		sbuf_adds(extra, ", ");
		param_note(c, P_FSYNC, 0, extra);
	}
	if (all || unusual(v, c, P_DATA) || strcmp(c->data, "random"))
		sbuf_addf(extra, ", %s data", c->data);
	if (all || unusual(v, c, P_FILES) || c->files > 1)
		sbuf_addf(extra, ", %d file%s", c->files, c->files == 1 ? "" : "s");
	/* batching and io_uring settings common to every cell are in the
	 * method, not each title */
	if (all || unusual(v, c, P_EOPTS)) {
		struct sbuf e = SBUF_INIT;
		if (eopts_note(&c->cell, &e))
			sbuf_addf(extra, ", %s", sbuf_str(&e));
		sbuf_release(&e);
	}
	if (c->offset_bytes || c->offset_pct > 0) {
		sbuf_adds(extra, ", ");
		param_note(c, P_OFFSET, 0, extra);
	}
	if (all || unusual(v, c, P_STOP) || ms > 0) {
		sbuf_adds(extra, ", ");
		param_note(c, P_STOP, ms, extra);
	}
}

static void group_titles(struct report *r)
{
	struct varies v;

	compute_varies(r, &v);
	for (size_t i = 0; i < r->ngroups; i++) {
		struct rgroup *g = &r->groups[i];
		const struct rset_cell *c = g->proto;
		struct sbuf t = SBUF_INIT, w = SBUF_INIT, extra = SBUF_INIT;
		char bs[32];

		group_extra(r, g, &v, false, &extra);
		/* two workloads must never read alike: spell every parameter out
		 * when the short title of another group is the same */
		for (size_t k = 0; k < r->ngroups; k++) {
			struct sbuf o = SBUF_INIT;
			if (k == i || r->groups[k].proto->bs != c->bs ||
			    strcmp(r->groups[k].proto->pattern, c->pattern) ||
			    strcmp(r->groups[k].proto->label, c->label))
				continue;
			group_extra(r, &r->groups[k], &v, false, &o);
			bool same = !strcmp(sbuf_str(&o), sbuf_str(&extra));
			sbuf_release(&o);
			if (same) {
				sbuf_reset(&extra);
				group_extra(r, g, &v, true, &extra);
				break;
			}
		}
		fmt_bs(c->bs, bs, sizeof(bs));
		sbuf_addf(&t, "%s %s%s", bs, report_pattern_words(c->pattern, false),
			  sbuf_str(&extra));
		if (c->label[0])
			sbuf_addf(&t, " (%s)", c->label);
		sbuf_addf(&w, "%s %s", bs, report_pattern_words(c->pattern, true));
		if (extra.len && !strncmp(sbuf_str(&extra), ", QD", 4))
			sbuf_addf(&w, " at %s", sbuf_str(&extra) + 2);
		else if (extra.len)
			sbuf_addf(&w, " (%s)", sbuf_str(&extra) + 2);
		g->title = sbuf_detach(&t);
		g->words = sbuf_detach(&w);
		sbuf_release(&extra);
	}
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
			if (g.proto->bs == r->groups[k].proto->bs &&
			    !strcmp(g.proto->pattern, r->groups[k].proto->pattern) &&
			    !strcmp(g.proto->label, r->groups[k].proto->label)) {
				first = k;
				break;
			}
		if (first == i)
			continue;
		/* move group i to just after the last group of its kind */
		size_t at = first + 1;
		while (at < i && r->groups[at].proto->bs == g.proto->bs &&
		       !strcmp(g.proto->pattern, r->groups[at].proto->pattern) &&
		       !strcmp(g.proto->label, r->groups[at].proto->label))
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
			size_t dv = dev_index(r, s, fleet_cell_host(c), c->device);
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
				g->mixed = is_mixed(c->pattern);
			} else {
				free(key);
			}
			bool dup = false;
			for (size_t k = 0; k < g->n; k++)
				dup |= g->e[k].dev == dv;
			if (dup) {
				errlist_add(&rs->warnings, rs->dir, 0, 0,
					    "cell %d repeats an earlier cell of device '%s' with the same "
					    "parameters; only the first is reported", c->id, c->device);
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
	group_titles(r);
	return 0;
}

static const struct rentry *group_entry(const struct rgroup *g, size_t dev)
{
	for (size_t k = 0; k < g->n; k++)
		if (g->e[k].dev == dev)
			return &g->e[k];
	return NULL;
}

/* ---- warnings ---- */

/* Cells of device d matching pred, as "N cells (A, B, C and N more)". */
struct cellpick {
	size_t n;
	struct sbuf names;
};

static void pick_add(struct cellpick *p, const struct rset_cell *c)
{
	if (p->n < 3) {
		if (p->n)
			sbuf_adds(&p->names, ", ");
		/* derived labels name no direction (SEQ1M Q8T1 is read and write) */
		if (c->label[0])
			sbuf_addf(&p->names, "%s %s", c->label, c->pattern);
		else
			sbuf_addf(&p->names, "cell %d", c->id);
	}
	p->n++;
}

static const char *pick_text(struct cellpick *p, struct sbuf *out)
{
	sbuf_reset(out);
	sbuf_addf(out, "%zu cell%s (%s%s", p->n, p->n == 1 ? "" : "s",
		  sbuf_str(&p->names), p->n > 3 ? ", ..." : "");
	sbuf_adds(out, ")");
	return sbuf_str(out);
}

static bool name_like_hdd(const char *n)
{
	static const char *const words[] = { "hdd", "hard", "spin", "sas", "sata",
					     "rpm", "7200", "5400", "10k", "15k" };
	char low[128];
	size_t i;

	for (i = 0; n[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)n[i]);
	low[i] = '\0';
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(low, words[i]))
			return true;
	return false;
}

static double set_mem(const struct rset *rs)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(rs->host, "mem_bytes");
	return cJSON_IsNumber(m) ? m->valuedouble : 0;
}

static void human_size(double b, char *buf, size_t len)
{
	const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int i = 0;
	while (b >= 1024 && i < 5) {
		b /= 1024;
		i++;
	}
	snprintf(buf, len, b >= 100 || i == 0 ? "%.0f %s" : "%.1f %s", b, u[i]);
}

/* " (missing: RND4K Q1T1 randread on hdd, ...)" from plan.json, or "". */
static void missing_cells(const struct rset *rs, struct sbuf *out)
{
	const cJSON *cells = cJSON_GetObjectItemCaseSensitive(rs->plan, "cells");
	const cJSON *p;
	size_t n = 0;
	int maxid = 0;

	sbuf_reset(out);
	/* which ids the set has, as a bitmap: a scan per plan cell made a
	 * 20,000-cell report quadratic */
	for (size_t i = 0; i < rs->ncells; i++)
		if (rs->cells[i].id > maxid)
			maxid = rs->cells[i].id;
	unsigned char *have = calloc((size_t)maxid / 8 + 1, 1);
	if (!have)
		return;
	for (size_t i = 0; i < rs->ncells; i++)
		if (rs->cells[i].id > 0)
			have[rs->cells[i].id / 8] |= (unsigned char)(1u << (rs->cells[i].id % 8));
	cJSON_ArrayForEach(p, cells) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(p, "id");
		/* plan.json comes from the set: an id that is no whole number
		 * in range (1e400, -3, 2.5) is not a cell */
		if (!cJSON_IsNumber(id) || !(id->valuedouble >= 1 &&
		    id->valuedouble <= RSET_MAX_CELLS) ||
		    id->valuedouble != (double)(int)id->valuedouble)
			continue;
		int v = (int)id->valuedouble;
		if (v <= maxid && (have[v / 8] & (1u << (v % 8))))
			continue;
		if (n < 3) {
			const cJSON *l = cJSON_GetObjectItemCaseSensitive(p, "label");
			const cJSON *pat = cJSON_GetObjectItemCaseSensitive(p, "pattern");
			const cJSON *dv = cJSON_GetObjectItemCaseSensitive(p, "device");
			sbuf_addf(out, "%s%s %s on %s", n ? ", " : " (missing: ",
				  cJSON_IsString(l) ? l->valuestring : "?",
				  cJSON_IsString(pat) ? pat->valuestring : "?",
				  cJSON_IsString(dv) ? dv->valuestring : "?");
		}
		n++;
	}
	free(have);
	if (n > 3)
		sbuf_addf(out, " and %zu more", n - 3);
	if (n)
		sbuf_addc(out, ')');
}

enum wkind { W_CACHE, W_BUFWRITE, W_DATA, W_NOISY, W_WILD, W_SHORT, W_FAILED, W_NULL, W__N };

/* The warnings about one device's cells and fingerprint. */
static void warnings_device(struct report *r, size_t d, struct sbuf *tmp)
{
	char a[32], b[32];
	const struct rdev *dv = &r->devs[d];
	const struct rset *rs = &r->sets[dv->set];
	struct cellpick pk[W__N];
	double mem = set_mem(rs), maxset = 0;
	const char *first_err = NULL;

	size_t ncells = 0;
	memset(pk, 0, sizeof(pk));
	for (size_t i = 0; i < rs->ncells; i++) {
		const struct rset_cell *c = &rs->cells[i];
		if (strcmp(c->device, dv->name) || !same_host(fleet_cell_host(c), dv->host))
			continue;
		ncells++;
		if (!c->ok) {
			pick_add(&pk[W_FAILED], c);
			if (!first_err)
				first_err = c->error ? c->error : c->status;
			continue;
		}
		if (!strcmp(c->engine, "null"))
			pick_add(&pk[W_NULL], c);
		double set_bytes = (double)c->size_bytes * c->files;
		if (set_bytes > maxset)
			maxset = set_bytes;
		bool reads = c->dir[DIR_READ].present, writes = c->dir[DIR_WRITE].present;
		if (!c->direct && reads && mem > 0 && set_bytes > 0 && set_bytes < mem)
			pick_add(&pk[W_CACHE], c);
		if (!c->direct && writes && !c->fsync && !c->end_fsync)
			pick_add(&pk[W_BUFWRITE], c);
		if (writes && strcmp(c->data, "random"))
			pick_add(&pk[W_DATA], c);
		bool noisy = false;
		for (int k = 0; k < DIR__COUNT; k++)
			noisy |= c->dir[k].present && c->dir[k].iops.n >= 2 &&
				 c->dir[k].iops.cv > 0.05;
		bool wild = false;
		for (int k = 0; k < DIR__COUNT; k++)
			wild |= c->dir[k].present && c->dir[k].iops.n >= 2 &&
				(c->dir[k].iops.cv > 0.5 ||
				 c->dir[k].iops.ci95 >= c->dir[k].iops.mean ||
				 c->dir[k].bw.ci95 >= c->dir[k].bw.mean ||
				 c->dir[k].lat_mean.ci95 >= c->dir[k].lat_mean.mean);
		if (wild)
			pick_add(&pk[W_WILD], c);
		else if (noisy)
			pick_add(&pk[W_NOISY], c);
		if (c->runtime_mean_ns > 0 && c->runtime_mean_ns < 5e9)
			pick_add(&pk[W_SHORT], c);
	}
	const char *nm = dv->display;
	/* the null engine never reaches the device: what the fingerprint
	 * says about the disk is beside the point for those cells */
	bool all_null = pk[W_NULL].n && pk[W_NULL].n == ncells;
	if (pk[W_NULL].n)
		warn_add(r, "%s: %s used the null engine, which does no IO: %s measure "
			 "iomatrix itself, not storage", nm, pick_text(&pk[W_NULL], tmp),
			 pk[W_NULL].n == 1 ? "its numbers" : "their numbers");
	if (pk[W_CACHE].n) {
		human_size(mem, a, sizeof(a));
		warn_add(r, "%s: %s read%s a file set smaller than the host's RAM (%s) "
			 "with buffered IO: the page cache likely served them, so the "
			 "numbers measure memory, not the device (use direct: true)",
			 nm, pick_text(&pk[W_CACHE], tmp), pk[W_CACHE].n == 1 ? "s" : "", a);
	}
	if (pk[W_BUFWRITE].n)
		warn_add(r, "%s: %s wrote%s with buffered IO and no fsync: the page cache "
			 "absorbed the writes (set fsync or end_fsync, or direct: true)",
			 nm, pick_text(&pk[W_BUFWRITE], tmp), "");
	if (pk[W_DATA].n)
		warn_add(r, "%s: %s wrote zero or compressible data: devices and "
			 "filesystems that compress or deduplicate look faster than "
			 "with real data (use data: random)", nm, pick_text(&pk[W_DATA], tmp));
	if (pk[W_NOISY].n)
		warn_add(r, "%s: %s %s noisy (IOPS varies by more than 5 %% between "
			 "repetitions): compare with care, or run longer or more "
			 "repetitions", nm, pick_text(&pk[W_NOISY], tmp),
			 pk[W_NOISY].n == 1 ? "is" : "are");
	if (pk[W_WILD].n)
		warn_add(r, "%s: %s %s by more than 50 %% between repetitions or "
			 "%s a 95 %% confidence interval as wide as the value (marked † "
			 "in the tables, shown without ±): such a mean is "
			 "not a stable number; run longer or find what disturbs it",
			 nm, pick_text(&pk[W_WILD], tmp), pk[W_WILD].n == 1 ? "varies" : "vary",
			 pk[W_WILD].n == 1 ? "has" : "have");
	if (pk[W_SHORT].n)
		warn_add(r, "%s: %s ran for less than 5 s: caches and background "
			 "work may not have settled (raise runtime)", nm,
			 pick_text(&pk[W_SHORT], tmp));
	if (pk[W_FAILED].n)
		warn_add(r, "%s: %s failed (first error: %s)", nm,
			 pick_text(&pk[W_FAILED], tmp), first_err ? first_err : "unknown");
	if (!all_null && dv->info && dv->info->size_bytes > 0 && maxset > 0 &&
	    maxset * 10 < (double)dv->info->size_bytes) {
		human_size(maxset, a, sizeof(a));
		human_size((double)dv->info->size_bytes, b, sizeof(b));
		warn_add(r, "%s: the file set (%s) is far smaller than the device (%s): %s",
			 nm, a, b, dv->info->rotational == 1 ?
			 "a hard disk is short-stroked (only its fastest tracks are used) "
			 "and disk or RAID caches may hold much of it" :
			 "device or RAID caches (DRAM, SLC) may hold much of it, so "
			 "sustained numbers may be lower");
	}
	/* RAM first and on its own: a RAM device named "hdd" gets both */
	if (!all_null && dv->info && ram_kind_is(dv->info->virt_kind))
		warn_add(r, "%s: the device is RAM (%s), not storage: " RAM_KIND_WHY, nm,
			 dv->info->virt_kind);
	if (all_null)
		;
	else if (dv->info && name_like_hdd(dv->name) &&
	    (dv->info->rotational == 0 || dv->info->virt == 1))
		warn_add(r, "%s: named like a hard disk but the kernel reports it %s: "
			 "check the path points at the disk you mean",
			 nm, dv->info->virt == 1 ? "as a virtual device" : "non-rotational");
	else if (dv->info && ram_kind_is(dv->info->virt_kind))
		; /* said above */
	else if (dv->info && dv->info->virt == 1)
		warn_add(r, "%s: the device is virtual (%s): numbers include the "
			 "host's caching", nm,
			 dv->info->virt_kind ? dv->info->virt_kind :
			 dv->info->block_device ? dv->info->block_device : "virtio, loop, ...");
	for (int k = 0; k < W__N; k++)
		sbuf_release(&pk[k].names);
}

static void warnings_compute(struct report *r)
{
	struct sbuf tmp = SBUF_INIT;

	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		for (size_t i = 0; i < rs->warnings.n; i++)
			warn_add(r, "%s", rs->warnings.msgs[i]);
		if (strcmp(rs->source_kind, "iomatrix")) {
			if (!strcmp(rs->source_kind, "synthetic"))
				warn_add(r, "%s holds SYNTHETIC numbers from a toy model, "
					 "not a measurement; do not publish them", rs->dir);
			else
				warn_add(r, "%s was imported from %s output; parameters "
					 "the tool did not record are shown with defaults",
					 rs->dir, rs->source_kind);
		}
		missing_cells(rs, &tmp);
		if (strcmp(rs->status, "complete"))
			warn_add(r, "%s is %s: only %zu of %d cells finished; this report is partial%s",
				 rs->dir, rs->status, rs->ncells, rs->cells_total, sbuf_str(&tmp));
		else if ((int)rs->ncells < rs->cells_total)
			warn_add(r, "%s: %d of %d cells %s missing; this report is partial%s",
				 rs->dir, rs->cells_total - (int)rs->ncells, rs->cells_total,
				 rs->cells_total - (int)rs->ncells == 1 ? "is" : "are", sbuf_str(&tmp));
		const cJSON *virt = cJSON_GetObjectItemCaseSensitive(rs->host, "virtualization");
		if (cJSON_IsString(virt) && virt->valuestring[0] &&
		    strcmp(virt->valuestring, "none"))
			warn_add(r, "host '%s' is a virtual machine (%s): the hypervisor's "
				 "caches and neighbours affect the numbers",
				 rs->hostname, virt->valuestring);
	}

	for (size_t d = 0; d < r->ndevs; d++)
		warnings_device(r, d, &tmp);

	/* runner warnings, counted per distinct text */
	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		const char *seen[16];
		size_t nseen = 0;
		for (size_t i = 0; i < rs->ncells && nseen < 16; i++) {
			const cJSON *w;
			cJSON_ArrayForEach(w, rs->cells[i].warnings) {
				if (!cJSON_IsString(w) || nseen >= 16)
					continue;
				bool dup = false;
				for (size_t k = 0; k < nseen; k++)
					dup |= !strcmp(seen[k], w->valuestring);
				if (dup)
					continue;
				seen[nseen++] = w->valuestring;
				size_t cnt = 0;
				for (size_t j = 0; j < rs->ncells; j++) {
					const cJSON *x;
					cJSON_ArrayForEach(x, rs->cells[j].warnings)
						if (cJSON_IsString(x) && !strcmp(x->valuestring, w->valuestring)) {
							cnt++;
							break;
						}
				}
				warn_add(r, "%s: warning recorded in %zu cell%s: %s", rs->dir,
					 cnt, cnt == 1 ? "" : "s", w->valuestring);
			}
		}
	}
	sbuf_release(&tmp);
}

/* ---- alerts: what must be read before any number ---- */

static void alert_add(struct report *r, char *s)
{
	if (!s)
		return;
	char **p = realloc(r->alerts, (r->nalerts + 1) * sizeof(*p));
	if (!p) {
		free(s);
		return;
	}
	r->alerts = p;
	r->alerts[r->nalerts++] = s;
}

static void alerts_compute(struct report *r)
{
	for (size_t s = 0; s < r->nsets; s++) {
		const struct rset *rs = &r->sets[s];
		if (rs->scale == 1 || strcmp(rs->source_kind, "iomatrix"))
			continue;
		char pct[32];
		snprintf(pct, sizeof(pct), "%.3g %%", rs->scale * 100);
		r->rehearsal = true;
		alert_add(r, xasprintf("Rehearsal, not a measurement: %s was run with --scale %g, "
				       "so file sizes, run times, request counts and pauses are %s of "
				       "what suite '%s' specifies. Run it without --scale before "
				       "publishing these numbers.", rs->dir, rs->scale, pct,
				       rs->suite_name ? rs->suite_name : "?"));
	}
	/* two names for one block device on one host: a device compared with
	 * itself (seed 000 with /mnt/hdd and /mnt/ssd absent puts both
	 * "devices" in scratch directories on the same disk) */
	for (size_t a = 0; a < r->ndevs; a++) {
		const struct rdev *da = &r->devs[a];
		if (!da->info || !da->info->block_device || da->imported)
			continue;
		struct sbuf names = SBUF_INIT;
		size_t same = 0;
		bool earlier = false;
		for (size_t b = 0; b < r->ndevs; b++) {
			const struct rdev *db = &r->devs[b];
			if (b == a || !db->info || !db->info->block_device || db->imported ||
			    strcmp(da->info->block_device, db->info->block_device) ||
			    !same_host(da->host, db->host) ||
			    strcmp(r->sets[da->set].hostname, r->sets[db->set].hostname) ||
			    !strcmp(da->name, db->name))
				continue;
			if (b < a)
				earlier = true;
			sbuf_addf(&names, "%s%s", same ? ", " : "", db->display);
			same++;
		}
		if (same && !earlier)
			alert_add(r, xasprintf("%s and %s are the same device (%s): this compares "
					       "a device with itself. Point each device at its own disk "
					       "(--device NAME=PATH).", da->display, sbuf_str(&names),
					       da->info->block_device));
		sbuf_release(&names);
	}
}

/* ---- summary sentences ---- */

struct cand {
	size_t g, fast, slow;
	double ratio;
};

static int cand_cmp(const void *a, const void *b)
{
	double x = ((const struct cand *)a)->ratio, y = ((const struct cand *)b)->ratio;
	return x < y ? 1 : x > y ? -1 : 0;
}

static void summary_add(struct report *r, char *s)
{
	if (!s)
		return;
	char **p = realloc(r->summary, (r->nsummary + 1) * sizeof(*p));
	if (!p) {
		free(s);
		return;
	}
	r->summary = p;
	r->summary[r->nsummary++] = s;
}

/* One latency, one unit that reads well: "111 µs", "8.39 ms". */
static void fmt_lat_one(double ns, char *buf, size_t len)
{
	double div;
	char v[48];
	const char *u = fmt_lat_unit(&ns, 1, &div);
	fmt_sig3(ns / div, v, sizeof(v));
	snprintf(buf, len, "%s %s", v, u);
}

/* Seed-000 style detail of one workload: "On 4K random reads: the hdd moved
 * 0.489 MB/s at 8.39 ms mean latency, the ssd 37.2 MB/s at 111 µs." */
static char *detail_sentence(const struct report *r, const struct rgroup *g)
{
	struct sbuf b = SBUF_INIT;
	size_t said = 0;

	sbuf_addf(&b, "On %s", g->words);
	for (size_t k = 0; k < g->n; k++) {
		const struct rentry *e = &g->e[k];
		double lat = rentry_lat(e);
		char mbs[48], l[64];
		if (!e->cell->ok || !isfinite(lat))
			continue;
		fmt_sig3(rentry_bw(e) / 1e6, mbs, sizeof(mbs));
		fmt_lat_one(lat, l, sizeof(l));
		if (said == 0)
			sbuf_addf(&b, ": the %s moved %s MB/s at %s mean latency",
				  r->devs[e->dev].display, mbs, l);
		else
			sbuf_addf(&b, ", the %s %s MB/s at %s", r->devs[e->dev].display, mbs, l);
		said++;
	}
	sbuf_adds(&b, ".");
	if (said < 2) {
		sbuf_release(&b);
		return NULL;
	}
	return sbuf_detach(&b);
}

/* A workload is named once in the summary, whatever its cell label. */
static bool words_used(const struct report *r, const size_t *used, size_t n, size_t g)
{
	for (size_t i = 0; i < n; i++)
		if (used[i] == g || !strcmp(r->groups[used[i]].words, r->groups[g].words))
			return true;
	return false;
}

static void gap_sentence(struct report *r, const char *lead, const struct cand *c)
{
	char q[48];
	fmt_ratio(c->ratio, q, sizeof(q));
	summary_add(r, xasprintf("%son %s, the %s did %s the IOPS of the %s.", lead,
				 r->groups[c->g].words, r->devs[c->fast].display, q,
				 r->devs[c->slow].display));
}

/*
 * One device against the baseline: who wins how many workloads, the largest
 * gap in each direction (a summary listing one side's wins hides where the
 * baseline is faster), and a plain "mixed" sentence when both sides win
 * some.  Differences under 5 % are ties.  cands is sorted, largest first.
 */
static void summary_device(struct report *r, size_t d, const struct cand *cands,
			   size_t ncand, size_t *used, size_t *nused)
{
	const size_t base = r->baseline;
	const struct cand *best_win = NULL, *best_loss = NULL;
	size_t wins = 0, losses = 0, ties = 0;
	const char *dn = r->devs[d].display, *bn = r->devs[base].display;
	char q[48];

	for (size_t i = 0; i < ncand; i++) {
		const struct cand *c = &cands[i];
		if (c->fast != d && c->slow != d)
			continue;
		if (c->ratio < 1.05)
			ties++;
		else if (c->fast == d) {
			wins++;
			if (!best_win)
				best_win = c;
		} else {
			losses++;
			if (!best_loss)
				best_loss = c;
		}
	}
	size_t total = wins + losses + ties;
	if (!total)
		return;
	struct sbuf b = SBUF_INIT;
	if (wins && losses) {
		fmt_ratio(best_loss->ratio, q, sizeof(q));
		sbuf_addf(&b, "The result is mixed: the %s wins %zu of %zu workloads; the %s wins ",
			  dn, wins, total, bn);
		if (losses <= 3) {
			size_t said = 0;
			for (size_t i = 0; i < ncand; i++) {
				const struct cand *c = &cands[i];
				if (c->fast != base || c->slow != d || c->ratio < 1.05)
					continue;
				sbuf_addf(&b, "%s%s", said == 0 ? "" : said + 1 == losses ? " and " : ", ",
					  r->groups[c->g].words);
				said++;
			}
		} else {
			sbuf_addf(&b, "%zu", losses);
		}
		sbuf_addf(&b, ", by up to %s", q);
	} else if (wins || losses) {
		if (ties)
			sbuf_addf(&b, "The %s is faster on %zu of %zu workloads", wins ? dn : bn,
				  wins + losses, total);
		else
			sbuf_addf(&b, "The %s is faster on %s%zu workload%s", wins ? dn : bn,
				  total > 1 ? "all " : "", total, total == 1 ? "" : "s");
	} else {
		sbuf_addf(&b, "The %s and the %s did about the same IOPS on all %zu workload%s",
			  dn, bn, total, total == 1 ? "" : "s");
	}
	if (ties && (wins || losses))
		sbuf_addf(&b, "; %zu %s within 5 %%", ties, ties == 1 ? "is" : "are");
	sbuf_adds(&b, ".");
	summary_add(r, sbuf_detach(&b));
	if (best_win && !words_used(r, used, *nused, best_win->g)) {
		char lead[300];
		snprintf(lead, sizeof(lead), "The largest gap in the %s's favour: ", dn);
		gap_sentence(r, lead, best_win);
		used[(*nused)++] = best_win->g;
	}
	if (best_loss && !words_used(r, used, *nused, best_loss->g)) {
		char lead[300];
		snprintf(lead, sizeof(lead), "The largest gap in the %s's favour: ", bn);
		gap_sentence(r, lead, best_loss);
		used[(*nused)++] = best_loss->g;
	}
}

static void summary_compute_sentences(struct report *r)
{
	size_t ncand = 0, alloc = 0, nused = 0;
	struct cand *cands = NULL;
	size_t *used = NULL;
	const size_t base = r->baseline;

	/* a fleet set reads as hosts, not as devices against a baseline */
	if (fleet_summary(r, summary_add))
		return;

	if (r->ndevs >= 2) {
		for (size_t gi = 0; gi < r->ngroups; gi++) {
			const struct rentry *be = group_entry(&r->groups[gi], base);
			if (!be || !be->cell->ok)
				continue;
			double bi = rentry_iops(be);
			for (size_t k = 0; k < r->groups[gi].n; k++) {
				const struct rentry *e = &r->groups[gi].e[k];
				if (e->dev == base || !e->cell->ok)
					continue;
				double di = rentry_iops(e);
				if (!(bi > 0 && di > 0))
					continue;
				if (ncand == alloc) {
					alloc = alloc ? alloc * 2 : 32;
					struct cand *p = realloc(cands, alloc * sizeof(*p));
					if (!p)
						goto out;
					cands = p;
				}
				struct cand *c = &cands[ncand++];
				c->g = gi;
				c->fast = di >= bi ? e->dev : base;
				c->slow = di >= bi ? base : e->dev;
				c->ratio = di >= bi ? di / bi : bi / di;
			}
		}
		if (ncand > 1) /* qsort(NULL, 0, ...) is undefined */
			qsort(cands, ncand, sizeof(*cands), cand_cmp);
		if (ncand == 0)
			summary_add(r, xasprintf("No workload ran with the same parameters on two "
						 "devices, so no device is compared with another here: "
						 "each table title says what its workload was."));
		used = calloc(ncand + 2 * r->ndevs + 4, sizeof(*used));
		if (!used)
			goto out;
		for (size_t d = 0; d < r->ndevs; d++)
			if (d != base)
				summary_device(r, d, cands, ncand, used, &nused);
		/* then up to two more large gaps, each on a pattern not yet named,
		 * so the summary covers reads, writes and mixes */
		size_t more = 0;
		for (size_t i = 0; i < ncand && more < 2; i++) {
			const struct cand *c = &cands[i];
			bool pat_seen = false;
			if (c->ratio < 1.05 || words_used(r, used, nused, c->g))
				continue;
			for (size_t k = 0; k < nused; k++)
				pat_seen |= !strcmp(r->groups[used[k]].proto->pattern,
						    r->groups[c->g].proto->pattern);
			if (pat_seen)
				continue;
			gap_sentence(r, "", c);
			used[nused++] = c->g;
			more++;
		}
		/* "on 4K ..." starts a sentence: capitalise it */
		for (size_t i = 0; i < r->nsummary; i++)
			if (r->summary[i][0] == 'o')
				r->summary[i][0] = 'O';
		if (ncand > 0)
			summary_add(r, detail_sentence(r, &r->groups[cands[0].g]));
	}
	/* peaks per device */
	for (size_t d = 0; d < r->ndevs; d++) {
		const struct rgroup *gi_best = NULL, *gb_best = NULL;
		double bi = 0, bb = 0;
		for (size_t gi = 0; gi < r->ngroups; gi++) {
			const struct rentry *e = group_entry(&r->groups[gi], d);
			if (!e || !e->cell->ok)
				continue;
			if (rentry_iops(e) > bi) {
				bi = rentry_iops(e);
				gi_best = &r->groups[gi];
			}
			if (rentry_bw(e) > bb) {
				bb = rentry_bw(e);
				gb_best = &r->groups[gi];
			}
		}
		if (!gi_best || !gb_best) /* a set can hold IOPS without bandwidth */
			continue;
		char i1[48], b1[48];
		fmt_sig3(bi, i1, sizeof(i1));
		fmt_sig3(bb / 1e6, b1, sizeof(b1));
		summary_add(r, xasprintf("The %s peaked at %s IOPS on %s and %s MB/s on %s.",
					 r->devs[d].display, i1, gi_best->words, b1, gb_best->words));
	}
out:
	free(used);
	free(cands);
}

void report_warn(struct report *r, const char *fmt, ...)
{
	struct sbuf b = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	warn_add(r, "%s", sbuf_str(&b));
	sbuf_release(&b);
}

void report_summary_add(struct report *r, char *s)
{
	summary_add(r, s);
}

/* ---- load ---- */

int report_load(struct report *r, char **dirs, size_t ndirs,
		const char *baseline, const char *title, struct errlist *errs)
{
	return report_load_ex(r, dirs, ndirs, baseline, title, false, errs);
}

static int load_sets(struct report *r, char **dirs, size_t ndirs,
		     const char *baseline, const char *title,
		     const char *const *labels, struct errlist *errs);

int report_load_ex(struct report *r, char **dirs, size_t ndirs,
		   const char *baseline, const char *title, bool strict_keys,
		   struct errlist *errs)
{
	(void)strict_keys;
	return load_sets(r, dirs, ndirs, baseline, title, NULL, errs);
}

int report_load_labelled(struct report *r, char **dirs, size_t ndirs,
			 const char *const *labels, struct errlist *errs)
{
	return load_sets(r, dirs, ndirs, NULL, NULL, labels, errs);
}

static int load_sets(struct report *r, char **dirs, size_t ndirs,
		     const char *baseline, const char *title,
		     const char *const *labels, struct errlist *errs)
{
	memset(r, 0, sizeof(*r));
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
		for (size_t i = 0; i < rs->ndevices && !fleet_of(rs); i++) {
			bool used = false;
			for (size_t c = 0; c < rs->ncells && !used; c++)
				used = !strcmp(rs->cells[c].device, rs->devices[i].name);
			if (used && dev_add(r, s, NULL, rs->devices[i].name) < 0)
				goto oom;
		}
		/* fleet sets: host.devices in cell order ("all" first) */
		for (size_t c = 0; c < rs->ncells; c++)
			if (dev_add(r, s, fleet_cell_host(&rs->cells[c]), rs->cells[c].device) < 0)
				goto oom;
	}
	if (dev_names(r) < 0 || groups_build(r) < 0)
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
	} else if (fleet_of(&r->sets[0])) {
		r->title = fleet_title(&r->sets[0]);
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
	if (ssd_report_load(r) < 0)
		goto oom;
	return 0;
oom:
	errlist_add(errs, NULL, 0, 0, "out of memory");
	return EXIT_RUNTIME;
}

void report_release(struct report *r)
{
	ssd_report_release(r);
	for (size_t i = 0; i < r->nsets; i++)
		rset_release(&r->sets[i]);
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
