/*
 * archive.c - reduce a result set to the compact record history and site
 * work from (setarchive.h): the devices' identities and environments, and
 * one value per metric and workload.  arcscan.c finds and orders the sets
 * and streams their records, from the files or the index (archdb.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "setarchive.h"
#include "util/fsutil.h"
#include "util/array.h"
#include "util/freemany.h"
#include "util/ramkind.h"
#include "util/sbuf.h"
#include "util/sha256.h"
#include "util/units.h"
#include "model/section.h"
#include "model/report.h"
#include "resultset/rset.h"
#include "resultset/setwalk.h"
#include "resultset/sums.h"
#include "suite/keys.h"
#include "suite/workload.h"
#include "util/jsonw.h"

const char *const arc_metric_names[ARC_NMETRIC] = { "iops", "mbs", "lat_mean", "lat_p99" };
const char *const arc_metric_units[ARC_NMETRIC] = { "IOPS", "MB/s", "mean latency (µs)",
						    "p99 latency (µs)" };
const char *const arc_env_names[ARC_NENV] = {
	"kernel", "iomatrix", "firmware", "scheduler", "mount options",
	"filesystem", "governor", "virtualisation",
};

bool arc_metric_lower_better(enum arc_metric m)
{
	return m == ARC_LAT_MEAN || m == ARC_LAT_P99;
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static const char *js(const struct rset_obj *o, const char *k)
{
	return o ? rset_obj_str(o, k) : NULL;
}

/* ---- one set to a record ---- */

/* Where a device ran: the set's host, or for a fleet set (`run --hosts`)
 * the host a cell ran on, with that host's own fingerprints. */
struct where {
	const char *hostname;
	const struct rset_obj *host, *tool;
	const struct rset_fleet_host *fleet_host; /* NULL: the set's devices */
};

static void where_of(const struct rset *rs, const char *given, struct where *w)
{
	*w = (struct where){ rs->hostname, &rs->host, &rs->tool, NULL };
	if (!given)
		return;
	w->hostname = given;            /* "all": the fleet's aggregate */
	for (size_t i = 0; i < rs->fleet.nhosts; i++) {
		const struct rset_fleet_host *h = &rs->fleet.hosts[i];
		if (!h->name || strcmp(h->name, given))
			continue;
		w->hostname = h->hostname ? h->hostname : given;
		w->host = &h->host;
		w->tool = &h->tool;
		w->fleet_host = h;
	}
}

static void dev_env(const struct rset *rs, const struct where *w,
		    const struct rset_obj *fp, char **env)
{
	const char *tool = js(w->tool, "version");
	char buf[160];

	env[ARC_ENV_KERNEL] = xstrdup(js(w->host, "kernel"));
	if (tool && (!js(w->tool, "name") || !strcmp(js(w->tool, "name"), "iomatrix"))) {
		env[ARC_ENV_TOOL] = xstrdup(tool);
	} else if (rs->source_kind && strcmp(rs->source_kind, "iomatrix")) {
		/* an import: the tool that measured it */
		snprintf(buf, sizeof(buf), "%s %s", rs->source_kind,
			 js(&rs->source, "version") ? js(&rs->source, "version") : "");
		env[ARC_ENV_TOOL] = xstrdup(buf);
	}
	env[ARC_ENV_FIRMWARE] = xstrdup(js(fp, "firmware"));
	env[ARC_ENV_SCHED] = xstrdup(js(fp, "scheduler"));
	env[ARC_ENV_MOUNT] = xstrdup(js(fp, "mount_options"));
	env[ARC_ENV_FS] = xstrdup(js(fp, "fs_type"));
	env[ARC_ENV_GOVERNOR] = xstrdup(js(w->host, "governor"));
	const struct rset_value *v = rset_obj_get(w->host, "virtualization");
	env[ARC_ENV_VIRT] = xstrdup(v && v->type == RSET_V_STR ? v->str :
				    v && v->type == RSET_V_NULL ? "none" : NULL);
}

static int dev_fill(const struct rset *rs, const struct where *w, const char *name,
		    struct arc_dev *d)
{
	const struct rset_obj *fp = NULL;
	const char *path = NULL;

	if (w->fleet_host && w->fleet_host->ndevices) {
		for (size_t i = 0; i < w->fleet_host->ndevices; i++) {
			const struct rset_fleet_dev *x = &w->fleet_host->devices[i];
			if (x->name && !strcmp(x->name, name)) {
				fp = &x->fp;
				path = x->path;
			}
		}
	} else {
		const struct rset_device *info = rset_device_find(rs, name);
		fp = info ? &info->fp : NULL;
		path = info ? info->path : NULL;
	}
	const char *serial = js(fp, "serial_sha256"), *model = js(fp, "model");
	struct sbuf b = SBUF_INIT;

	memset(d, 0, sizeof(*d));
	d->name = strdup(name);
	d->host = strdup(w->hostname);
	d->path = xstrdup(path);
	d->model = xstrdup(model);
	/* the separator \x1f keeps two different tuples from giving one key.
	 * The device name is part of the key even with a serial: two targets
	 * of one set on one disk (dir1 and dir2 as a and b) are two series,
	 * never one with two points a set; --same joins a device
	 * renamed between sets. */
	if (serial && *serial)
		sbuf_addf(&b, "serial\x1f%s\x1f%s\x1f%s\x1f%s", w->hostname, model ? model : "",
			  serial, name);
	else
		sbuf_addf(&b, "name\x1f%s\x1f%s\x1f%s", w->hostname, name, path ? path : "");
	d->ident = sbuf_detach(&b);
	const struct rset_value *vk = rset_obj_get(fp, "virtual_kind");
	d->ram = vk && vk->type == RSET_V_STR ? ram_kind_is(vk->str) :
		 vk && vk->type == RSET_V_NULL ? 0 : -1;
	dev_env(rs, w, fp, d->env);
	return d->name && d->host && d->ident ? 0 : -1;
}

/* Index of device `name` on host `given` (NULL: the set's host). */
static size_t dev_index(struct arc_set *s, const struct rset *rs, const char *given,
			const char *name)
{
	struct where w;
	where_of(rs, given, &w);
	for (size_t i = 0; i < s->ndevs; i++)
		if (!strcmp(s->devs[i].name, name) && !strcmp(s->devs[i].host, w.hostname))
			return i;
	struct arc_dev *d = ARRAY_ADD(s->devs, s->ndevs);
	if (!d || dev_fill(rs, &w, name, d) < 0)
		return (size_t)-1;   /* arc_set_release frees a half-filled one */
	return s->ndevs - 1;
}

/* The workload key (history's series, the index's cells.workload): the
 * workload identity's, with what an importer guessed spelled as guessed. */
void arc_workload_key(const struct rset_cell *c, struct sbuf *b)
{
	workload_key_inferred(&c->cell, c->inferred, WORKLOAD_ALL, b);
}

/* One metric over the directions: throughput adds up (spreads in
 * quadrature); latency is the report's one definition (report_cell_lat:
 * every IO of every repetition, not a mean of per-repetition means), in
 * µs. */
static void cell_metric(const struct rset_cell *c, enum arc_metric m, struct arc_val *v)
{
	double sum = 0, var = 0, ci2 = 0;
	int n = 0;
	memset(v, 0, sizeof(*v));
	if (m == ARC_LAT_MEAN || m == ARC_LAT_P99) {
		struct rset_stat l;
		report_cell_lat(c, m == ARC_LAT_P99, &l);
		if (l.n) {
			v->mean = l.mean * 1e-3;
			v->stddev = l.stddev * 1e-3;
			v->ci95 = l.ci95 * 1e-3;
			v->n = l.n;
		}
		return;
	}
	for (int k = 0; k < DIR__COUNT; k++) {
		const struct rset_dir *d = &c->dir[k];
		const struct rset_stat *st = m == ARC_IOPS ? &d->iops : &d->bw;
		if (!d->present || !st->n)
			continue;
		double scale = m == ARC_MBS ? 1e-6 : 1;
		sum += st->mean * scale;
		var += pow(st->stddev * scale, 2);
		ci2 += pow(st->ci95 * scale, 2);
		n = n ? (st->n < n ? st->n : n) : st->n;
	}
	if (!n)
		return;
	v->mean = sum;
	v->stddev = sqrt(var);
	v->ci95 = sqrt(ci2);
	v->n = n;
}

/* A model device is what its keys make it (host/devident.h): its
 * identity holds them, so a model whose keys changed between sets is
 * another device's series, never a change point of one.  After
 * cells_fill: the measured cells bucketed by device, linear.  0, or -1
 * out of memory. */
static int devs_model(struct arc_set *s, const struct rset *rs)
{
	size_t nd = s->ndevs ? s->ndevs : 1;
	size_t *at = calloc(nd + 1, sizeof(*at));
	const struct cell **cells = malloc((s->ncells ? s->ncells : 1) * sizeof(*cells));
	int rc = at && cells ? 0 : -1;
	for (size_t k = 0; !rc && k < s->ncells; k++)
		at[s->cells[k].dev + 1]++;
	for (size_t d = 0; !rc && d < s->ndevs; d++)
		at[d + 1] += at[d];
	/* s->cells are rs's measured cells, in order */
	for (size_t i = 0, k = 0; !rc && i < rs->ncells; i++)
		if (rs->cells[i].ok)
			cells[at[s->cells[k++].dev]++] = &rs->cells[i].cell;
	for (size_t d = 0, first = 0; !rc && d < s->ndevs; first = at[d++]) {
		struct arc_dev *v = &s->devs[d];
		struct sbuf b = SBUF_INIT;
		sbuf_addf(&b, "model\x1f%s\x1f", v->host);
		if (workload_model_target(cells + first, at[d] - first, &b)) {
			sbuf_addf(&b, "\x1f%s", v->name);
			if (b.oom) {
				rc = -1;
			} else {
				free(v->ident);
				v->ident = sbuf_detach(&b);
			}
		}
		sbuf_release(&b);
	}
	free(at);
	free(cells);
	return rc;
}

static int cells_fill(struct arc_set *s, const struct rset *rs)
{
	s->cells = calloc(rs->ncells ? rs->ncells : 1, sizeof(*s->cells));
	if (!s->cells)
		return -1;
	for (size_t i = 0; i < rs->ncells; i++) {
		const struct rset_cell *c = &rs->cells[i];
		if (!c->ok)
			continue;
		size_t d = dev_index(s, rs, report_cell_host(c), c->cell.device);
		if (d == (size_t)-1)
			return -1;
		struct arc_cell *a = &s->cells[s->ncells];
		struct sbuf b = SBUF_INIT;
		/* a series is one workload: the one identity, its key */
		arc_workload_key(c, &b);
		a->dev = d;
		/* labels need not name the direction ("RND4K Q1T1" is both a
		 * random read and a random write cell in many suites) */
		/* an import's guessed pattern is said as one, never as sequential */
		const char *guess = c->inferred >> K_PATTERN & 1 ? " (pattern not recorded)" : "";
		size_t ll = strlen(c->cell.label) + strlen(pattern_name(c->cell.pattern)) +
			    strlen(guess) + 2;
		a->label = malloc(ll);
		if (a->label)
			snprintf(a->label, ll, "%s %s%s", c->cell.label, pattern_name(c->cell.pattern),
				 guess);
		a->sig = sbuf_detach(&b);
		s->ncells++;
		if (!a->label || !a->sig)
			return -1;
		a->seq_large = !pattern_is_random(c->cell.pattern) &&
			       cell_judged_by_bw(&c->cell);
		for (int m = 0; m < ARC_NMETRIC; m++)
			cell_metric(c, m, &a->m[m]);
	}
	return 0;
}

/* The set's SHA256SUMS: failed_verify and failed_why (the first few
 * problems).  0, or -1 out of memory. */
static int set_verify(struct arc_set *s)
{
	int st = sums_verify_dir(s->path, SUMS_SET, &s->failed_why);
	if (st < 0)
		return -1;
	s->no_sums = st == SUMS_NONE;
	s->failed_verify = st == SUMS_FAILED;
	return 0;
}

int arc_set_load(const struct arc_ref *ref, struct arc_set *s,
		 struct errlist *errs, struct errlist *warns)
{
	struct rset rs;
	char p[PATH_MAX];
	struct stat st;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	if (rset_load_summaries(ref->path, &rs, errs) < 0)
		goto out;
	for (size_t i = 0; i < rs.warnings.n; i++)
		errlist_add(warns, NULL, 0, 0, "%s", rs.warnings.msgs[i]);
	s->name = strdup(ref->name);
	s->path = strdup(ref->path);
	s->date = strdup(ref->date);
	s->suite = strdup(rs.suite_name ? rs.suite_name : "unknown");
	s->title = xstrdup(rs.suite_title);
	s->host = strdup(rs.hostname);
	s->status = strdup(rs.status);
	s->source = strdup(rs.source_kind);
	s->scale = rs.scale > 0 && isfinite(rs.scale) ? rs.scale : 1;
	s->cells_done = (int)rs.ncells;
	s->cells_total = rs.cells_total;
	s->cells_failed = (int)rs.ncells_failed;
	snprintf(p, sizeof(p), "%s/report/report.html", ref->path);
	s->has_report = lstat(p, &st) == 0 && S_ISREG(st.st_mode);
	if (!s->name || !s->path || !s->date || !s->suite || !s->host || !s->status ||
	    !s->source)
		goto oom;
	/* every device of the manifest, even one whose cells all failed (a
	 * fleet set's come with its cells: each host has its own) */
	for (size_t i = 0; !rs.fleet.present && i < rs.ndevices; i++)
		if (dev_index(s, &rs, NULL, rs.devices[i].name) == (size_t)-1)
			goto oom;
	if (set_verify(s) < 0)
		goto oom;
	if (s->failed_verify)
		arc_warn_failed(warns, ref->path, s->failed_why);
	else if (cells_fill(s, &rs) < 0 || devs_model(s, &rs) < 0)
		goto oom;
	ret = 0;
	goto out;
oom:
	errlist_add(errs, ref->path, 0, 0, "out of memory");
out:
	rset_release(&rs);
	return ret;
}

void arc_warn_failed(struct errlist *warns, const char *path, const char *why)
{
	errlist_add(warns, NULL, 0, 0, "'%s' fails verification (%s): its numbers are "
		    "left out; see 'iomatrix verify %s'", path, why, path);
}

static void dev_release(struct arc_dev *d)
{
	FREE_MANY(d->name, d->host, d->path, d->model, d->ident);
	for (int k = 0; k < ARC_NENV; k++)
		free(d->env[k]);
}

void arc_set_release(struct arc_set *s)
{
	for (size_t i = 0; i < s->ndevs; i++)
		dev_release(&s->devs[i]);
	for (size_t i = 0; i < s->ncells; i++)
		FREE_MANY(s->cells[i].label, s->cells[i].sig);
	FREE_MANY(s->devs, s->cells, s->name, s->path, s->date, s->suite, s->title, s->host,
		  s->status, s->failed_why, s->source);
	memset(s, 0, sizeof(*s));
}

