/*
 * archive.c - find result sets, order them by date, and reduce each to the
 * compact record history and site work from (archive.h).
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
#include "util/sbuf.h"
#include "util/sha256.h"
#include "util/units.h"
#include "model/section.h"
#include "model/report.h"
#include "resultset/rset.h"
#include "resultset/setwalk.h"
#include "resultset/sums.h"
#include "suite/keys.h"
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

/* ---- scanning ---- */

/* Bumped whenever what a record holds changes meaning (stamp_of). */
#define ARC_RECORD_FORMAT 2

struct refs {
	struct arc_ref *v;
	size_t n, alloc;
	bool all;          /* the repository's own sets too */
	size_t hidden;     /* those left out */
};

/* Newest ctime and total size of the files in dir/cells: a byte changed
 * in place changes a file's ctime (which touch -r cannot set back), not
 * the directory's mtime. */
static void cells_stamp(const char *dir, long long *ctime_ns, long long *bytes)
{
	char p[PATH_MAX];
	int fd;
	DIR *d;
	struct dirent *e;

	*ctime_ns = *bytes = 0;
	if (snprintf(p, sizeof(p), "%s/cells", dir) >= (int)sizeof(p) ||
	    (fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		long long t = (long long)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
		if (t > *ctime_ns)
			*ctime_ns = t;
		*bytes += (long long)st.st_size;
	}
	closedir(d);
}

/* The stamp: sha256 of the times and sizes of what a set's record is made
 * from (the manifest, cells/ and each file in it, SHA256SUMS, the report):
 * a change to any of them makes a new stamp. */
static void stamp_of(const char *dir, char *buf, size_t len)
{
	static const char *const files[] = { "manifest.json", "cells", "report/report.html",
					     SUMS_FILE };
	char p[PATH_MAX], all[512];
	size_t off = 0;
	long long ct, bytes;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct stat st;
		snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
		if (stat(p, &st) < 0)
			memset(&st, 0, sizeof(st));
		off += (size_t)snprintf(all + off, sizeof(all) - off, "%lld.%09ld:%lld.%09ld:%lld/",
					(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
					(long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec,
					(long long)st.st_size);
		if (off >= sizeof(all))
			off = sizeof(all) - 1;
	}
	cells_stamp(dir, &ct, &bytes);
	/* and the record's format: a cached record of an older rule (the
	 * identity key before the device name joined it) is read again */
	snprintf(all + off, sizeof(all) - off, "%lld:%lld:%d", ct, bytes, ARC_RECORD_FORMAT);
	char hex[65];
	sha256_hex(all, strlen(all), hex);
	snprintf(buf, len, "%s", hex);
}

/* The date a set sorts by: started_at, else the date its name starts with. */
static char *set_date(const char *path, const char *name)
{
	char why[64];
	struct rset rs;
	rset_load_manifest(path, &rs, why, sizeof(why));
	char *out = rs.started_at ? strdup(rs.started_at) : NULL;
	rset_release(&rs);
	if (!out) {
		/* 2026-11-30T024012Z_... -> 2026-11-30T02:40:12Z */
		int y, mo, da, h, mi, s;
		char t[32];
		if (sscanf(name, "%4d-%2d-%2dT%2d%2d%2dZ", &y, &mo, &da, &h, &mi, &s) == 6)
			snprintf(t, sizeof(t), "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, da, h, mi, s);
		else
			snprintf(t, sizeof(t), "unknown");
		out = strdup(t);
	}
	return out;
}

static int refs_add(struct refs *r, const char *path)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return 0;
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].real, real))
			return 0;   /* given twice */
	if (r->n == r->alloc) {
		size_t na = r->alloc ? r->alloc * 2 : 64;
		struct arc_ref *p = realloc(r->v, na * sizeof(*p));
		if (!p)
			return -1;
		r->v = p;
		r->alloc = na;
	}
	struct arc_ref *x = &r->v[r->n];
	memset(x, 0, sizeof(*x));
	const char *base = strrchr(path, '/');
	while (base && !base[1] && base > path) {   /* trailing slash */
		const char *q = base - 1;
		while (q > path && *q != '/')
			q--;
		base = *q == '/' ? q : NULL;
	}
	x->path = strdup(path);
	x->real = strdup(real);
	x->name = strdup(base ? base + 1 : path);
	if (x->name)
		x->name[strcspn(x->name, "/")] = 0;
	x->date = x->name ? set_date(path, x->name) : NULL;
	if (!x->path || !x->real || !x->name || !x->date) {
		free(x->real);
		free(x->path);
		free(x->name);
		free(x->date);
		return -1;
	}
	stamp_of(path, x->stamp, sizeof(x->stamp));
	r->n++;
	return 0;
}

static int scan_one(const char *set, const char *rel, void *arg)
{
	struct refs *r = arg;
	if (!r->all && resultset_repo_own(rel)) {
		r->hidden++;
		return 0;
	}
	return refs_add(r, set) < 0 ? -ENOMEM : 0;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct arc_ref *x = a, *y = b;
	int c = strcmp(x->date, y->date);
	return c ? c : strcmp(x->name, y->name);
}

int arc_scan(char **dirs, size_t ndirs, bool all, size_t *hidden,
	     struct arc_ref **out, size_t *nout, struct errlist *errs)
{
	struct refs r = { .all = all };
	int ret = 0;
	for (size_t i = 0; i < ndirs; i++) {
		struct stat st;
		if (stat(dirs[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			errlist_add(errs, dirs[i], 0, 0, "%s (give result sets or a directory "
				    "holding them, e.g. ./results)",
				    errno && stat(dirs[i], &st) < 0 ? strerror(errno) : "not a directory");
			ret = -1;
			continue;
		}
		int e = resultset_is_set(dirs[i]) ? refs_add(&r, dirs[i])
						  : resultset_walk(dirs[i], 1, scan_one, &r);
		if (e < 0) {
			errlist_add(errs, dirs[i], 0, 0, "cannot read: %s", strerror(-e));
			ret = -1;
		}
	}
	if (r.n > 1)
		qsort(r.v, r.n, sizeof(*r.v), ref_cmp);
	*out = r.v;
	*nout = r.n;
	*hidden = r.hidden;
	return ret;
}

void arc_say_hidden(size_t hidden)
{
	if (hidden)
		fprintf(stderr, "iomatrix: %zu example and reference set%s of this repository "
			"left out (--all counts them)\n", hidden, hidden == 1 ? "" : "s");
}

void arc_refs_free(struct arc_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(refs[i].real);
		free(refs[i].path);
		free(refs[i].name);
		free(refs[i].date);
	}
	free(refs);
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
	struct arc_dev *p = realloc(s->devs, (s->ndevs + 1) * sizeof(*p));
	if (!p)
		return (size_t)-1;
	s->devs = p;
	if (dev_fill(rs, &w, name, &s->devs[s->ndevs]) < 0) {
		s->ndevs++;
		return (size_t)-1;
	}
	return s->ndevs++;
}

/* The keys cell_sig() spells out itself (and size, which is not a
 * workload key but keeps series of different file sets apart). */
static bool sig_names(int k)
{
	switch (k) {
	case K_PATTERN: case K_BS: case K_IODEPTH: case K_JOBS: case K_RWMIXREAD:
	case K_ENGINE: case K_DIRECT: case K_FSYNC: case K_END_FSYNC: case K_DATA:
	case K_FILES: case K_OFFSET: case K_RUNTIME: case K_REQUESTS: case K_IO_SIZE:
		return true;
	default:
		return false;
	}
}

/* Every other key that defines the workload (batching, io_uring options,
 * placement, and any key the table gains), where it is not at its default:
 * a series must not join cells that differ there.  Old signatures stay
 * as they were, as none of these were set before the keys existed. */
static void cell_sig_rest(const struct cell *c, struct sbuf *b)
{
	struct sbuf v = SBUF_INIT;
	for (int k = 0; k < NKEYS; k++) {
		if (!cell_keys[k].workload || sig_names(k) || key_is_default(k, c))
			continue;
		sbuf_reset(&v);
		key_text(k, c, KEY_TEXT_METHOD, &v);
		if (v.len)
			sbuf_addf(b, ";%s=%s", cell_keys[k].name, sbuf_str(&v));
	}
	sbuf_release(&v);
}

static void cell_sig(const struct rset_cell *c, struct sbuf *b)
{
	char t[48];
	sbuf_addf(b, "pattern=%s", pattern_name(c->cell.pattern));
	fmt_bs(c->bs, t, sizeof(t));
	sbuf_addf(b, ";bs=%s;qd=%d;jobs=%d", t, c->iodepth, c->jobs);
	if (pattern_is_mixed(c->cell.pattern))
		sbuf_addf(b, ";rwmixread=%d", c->rwmixread);
	sbuf_addf(b, ";engine=%s;direct=%s", c->cell.engine, c->direct ? "yes" : "no");
	if (c->fsync || c->end_fsync)
		sbuf_addf(b, ";fsync=%d%s", c->fsync, c->end_fsync ? "+end" : "");
	sbuf_addf(b, ";data=%s", data_name(c->cell.data));
	if (c->compress_pct)
		sbuf_addf(b, ":%d", c->compress_pct);
	sbuf_addf(b, ";files=%d", c->files);
	if (c->size_pct > 0) {
		sbuf_addf(b, ";size=%g%%", c->size_pct);
	} else if (c->size_bytes) {
		fmt_bs(c->size_bytes, t, sizeof(t));
		sbuf_addf(b, ";size=%s", t);
	}
	if (c->offset_pct > 0)
		sbuf_addf(b, ";offset=%g%%", c->offset_pct);
	else if (c->offset_bytes)
		sbuf_addf(b, ";offset=%llu", (unsigned long long)c->offset_bytes);
	if (c->runtime_ns) {
		units_format_duration(c->runtime_ns, t, sizeof(t));
		sbuf_addf(b, ";runtime=%s", t);
	}
	if (c->requests)
		sbuf_addf(b, ";requests=%llu", (unsigned long long)c->requests);
	if (c->io_size) {
		fmt_bs(c->io_size, t, sizeof(t));
		sbuf_addf(b, ";io_size=%s", t);
	}
	cell_sig_rest(&c->cell, b);
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

static int cells_fill(struct arc_set *s, const struct rset *rs)
{
	s->cells = calloc(rs->ncells ? rs->ncells : 1, sizeof(*s->cells));
	if (!s->cells)
		return -1;
	for (size_t i = 0; i < rs->ncells; i++) {
		const struct rset_cell *c = &rs->cells[i];
		if (!c->ok)
			continue;
		size_t d = dev_index(s, rs, report_cell_host(c), c->device);
		if (d == (size_t)-1)
			return -1;
		struct arc_cell *a = &s->cells[s->ncells];
		struct sbuf b = SBUF_INIT;
		cell_sig(c, &b);
		a->dev = d;
		/* labels need not name the direction ("RND4K Q1T1" is both a
		 * random read and a random write cell in many suites) */
		size_t ll = strlen(c->label) + strlen(pattern_name(c->cell.pattern)) + 2;
		a->label = malloc(ll);
		if (a->label)
			snprintf(a->label, ll, "%s %s", c->label, pattern_name(c->cell.pattern));
		a->sig = sbuf_detach(&b);
		s->ncells++;
		if (!a->label || !a->sig)
			return -1;
		a->seq_large = !pattern_is_random(c->cell.pattern) && c->bs >= 65536;
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
		errlist_add(warns, NULL, 0, 0, "'%s' fails verification (%s): its numbers are "
			    "left out; see 'iomatrix verify %s'", ref->path, s->failed_why,
			    ref->path);
	else if (cells_fill(s, &rs) < 0)
		goto oom;
	ret = 0;
	goto out;
oom:
	errlist_add(errs, ref->path, 0, 0, "out of memory");
out:
	rset_release(&rs);
	return ret;
}

static void dev_release(struct arc_dev *d)
{
	free(d->name);
	free(d->host);
	free(d->path);
	free(d->model);
	free(d->ident);
	for (int k = 0; k < ARC_NENV; k++)
		free(d->env[k]);
}

void arc_set_release(struct arc_set *s)
{
	for (size_t i = 0; i < s->ndevs; i++)
		dev_release(&s->devs[i]);
	for (size_t i = 0; i < s->ncells; i++) {
		free(s->cells[i].label);
		free(s->cells[i].sig);
	}
	free(s->devs);
	free(s->cells);
	free(s->name);
	free(s->path);
	free(s->date);
	free(s->suite);
	free(s->title);
	free(s->host);
	free(s->status);
	free(s->failed_why);
	free(s->source);
	memset(s, 0, sizeof(*s));
}

/* ---- JSON round trip (the site's cache of unchanged sets) ---- */

cJSON *arc_set_to_json(const struct arc_set *s)
{
	cJSON *o = cJSON_CreateObject();
	jsonw_str(o, "name", s->name);
	jsonw_str(o, "path", s->path);
	jsonw_str(o, "date", s->date);
	jsonw_str(o, "suite", s->suite);
	jsonw_str(o, "title", s->title);
	jsonw_str(o, "host", s->host);
	jsonw_str(o, "status", s->status);
	jsonw_str(o, "source", s->source);
	cJSON_AddNumberToObject(o, "scale", s->scale);
	double cn[3] = { s->cells_done, s->cells_total, s->cells_failed };
	cJSON_AddItemToObject(o, "cells_n", cJSON_CreateDoubleArray(cn, 3));
	cJSON_AddBoolToObject(o, "has_report", s->has_report);
	cJSON_AddBoolToObject(o, "no_sums", s->no_sums);
	if (s->failed_verify)
		jsonw_str(o, "failed_verify", s->failed_why);
	cJSON *devs = cJSON_AddArrayToObject(o, "devs");
	for (size_t i = 0; i < s->ndevs; i++) {
		const struct arc_dev *d = &s->devs[i];
		cJSON *a = cJSON_CreateArray();
		const char *v[5] = { d->name, d->path, d->model, d->ident, d->host };
		for (int k = 0; k < 5; k++)
			cJSON_AddItemToArray(a, v[k] ? cJSON_CreateString(v[k]) : cJSON_CreateNull());
		for (int k = 0; k < ARC_NENV; k++)
			cJSON_AddItemToArray(a, d->env[k] ? cJSON_CreateString(d->env[k]) : cJSON_CreateNull());
		cJSON_AddItemToArray(devs, a);
	}
	cJSON *cells = cJSON_AddArrayToObject(o, "cells");
	for (size_t i = 0; i < s->ncells; i++) {
		const struct arc_cell *c = &s->cells[i];
		cJSON *a = cJSON_CreateArray();
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)c->dev));
		cJSON_AddItemToArray(a, cJSON_CreateString(c->label));
		cJSON_AddItemToArray(a, cJSON_CreateString(c->sig));
		cJSON_AddItemToArray(a, cJSON_CreateBool(c->seq_large));
		for (int m = 0; m < ARC_NMETRIC; m++) {
			double v[4] = { c->m[m].mean, c->m[m].stddev, c->m[m].ci95, c->m[m].n };
			cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(v, 4));
		}
		cJSON_AddItemToArray(cells, a);
	}
	return o;
}

/* The archive's own index (arc_set_to_json), not a set: read back here. */
static char *jdup(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? strdup(v->valuestring) : NULL;
}

static double jnum_at(const cJSON *a, int i)
{
	const cJSON *v = cJSON_GetArrayItem(a, i);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static char *jstr_at(const cJSON *a, int i)
{
	const cJSON *v = cJSON_GetArrayItem(a, i);
	return cJSON_IsString(v) ? strdup(v->valuestring) : NULL;
}

int arc_set_from_json(const cJSON *o, struct arc_set *s)
{
	memset(s, 0, sizeof(*s));
	s->name = jdup(o, "name");
	s->path = jdup(o, "path");
	s->date = jdup(o, "date");
	s->suite = jdup(o, "suite");
	s->title = jdup(o, "title");
	s->host = jdup(o, "host");
	s->status = jdup(o, "status");
	s->source = jdup(o, "source");
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(o, "scale");
	s->scale = cJSON_IsNumber(sc) ? sc->valuedouble : 1;
	const cJSON *cn = cJSON_GetObjectItemCaseSensitive(o, "cells_n");
	s->cells_done = (int)jnum_at(cn, 0);
	s->cells_total = (int)jnum_at(cn, 1);
	s->cells_failed = (int)jnum_at(cn, 2);
	s->has_report = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "has_report"));
	s->no_sums = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "no_sums"));
	s->failed_why = jdup(o, "failed_verify");
	s->failed_verify = s->failed_why != NULL;
	if (!s->name || !s->path || !s->date || !s->suite || !s->host || !s->status || !s->source)
		goto bad;
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(o, "devs");
	const cJSON *cells = cJSON_GetObjectItemCaseSensitive(o, "cells");
	int nd = cJSON_GetArraySize(devs), nc = cJSON_GetArraySize(cells);
	s->devs = calloc(nd > 0 ? (size_t)nd : 1, sizeof(*s->devs));
	s->cells = calloc(nc > 0 ? (size_t)nc : 1, sizeof(*s->cells));
	if (!s->devs || !s->cells)
		goto bad;
	const cJSON *a;
	cJSON_ArrayForEach(a, devs) {
		struct arc_dev *d = &s->devs[s->ndevs++];
		d->name = jstr_at(a, 0);
		d->path = jstr_at(a, 1);
		d->model = jstr_at(a, 2);
		d->ident = jstr_at(a, 3);
		d->host = jstr_at(a, 4);
		for (int k = 0; k < ARC_NENV; k++)
			d->env[k] = jstr_at(a, 5 + k);
		if (!d->name || !d->ident || !d->host)
			goto bad;
	}
	cJSON_ArrayForEach(a, cells) {
		struct arc_cell *c = &s->cells[s->ncells++];
		double dev = jnum_at(a, 0);
		c->label = jstr_at(a, 1);
		c->sig = jstr_at(a, 2);
		c->seq_large = cJSON_IsTrue(cJSON_GetArrayItem(a, 3));
		if (!c->label || !c->sig || !(dev >= 0 && dev < (double)s->ndevs))
			goto bad;
		c->dev = (size_t)dev;
		for (int m = 0; m < ARC_NMETRIC; m++) {
			const cJSON *v = cJSON_GetArrayItem(a, 4 + m);
			c->m[m] = (struct arc_val){ jnum_at(v, 0), jnum_at(v, 1), jnum_at(v, 2),
						    (int)jnum_at(v, 3) };
		}
	}
	return 0;
bad:
	arc_set_release(s);
	return -1;
}

/* ---- streaming with loader threads ---- */


#define STREAM_WINDOW 8   /* sets loaded ahead: bounds memory */

struct slot {
	struct arc_set s;
	struct errlist errs, warns;
	int rc;
	bool ready;
};

struct arc_stream;
struct worker_arg {
	struct arc_stream *st;
	int k;
};

struct arc_stream {
	const struct arc_ref *refs;
	struct worker_arg wa[2];
	size_t n, next;            /* next: index the consumer takes next */
	struct slot slot[STREAM_WINDOW];
	pthread_t th[2];
	int nth;
	bool stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *stream_worker(void *arg)
{
	struct worker_arg *wa = arg;
	struct arc_stream *st = wa->st;
	for (size_t i = (size_t)wa->k; i < st->n; i += (size_t)st->nth) {
		struct slot *sl = &st->slot[i % STREAM_WINDOW];
		pthread_mutex_lock(&st->mu);
		/* the slot is free once the consumer took index i - WINDOW */
		while (!st->stop && (i >= st->next + STREAM_WINDOW || sl->ready))
			pthread_cond_wait(&st->cv, &st->mu);
		bool stop = st->stop;
		pthread_mutex_unlock(&st->mu);
		if (stop)
			break;
		struct slot tmp = { .errs = ERRLIST_INIT, .warns = ERRLIST_INIT };
		tmp.rc = arc_set_load(&st->refs[i], &tmp.s, &tmp.errs, &tmp.warns);
		pthread_mutex_lock(&st->mu);
		*sl = tmp;
		sl->ready = true;
		pthread_cond_broadcast(&st->cv);
		pthread_mutex_unlock(&st->mu);
	}
	return NULL;
}

static void slots_release(struct arc_stream *st)
{
	for (int k = 0; k < STREAM_WINDOW; k++)
		if (st->slot[k].ready) {
			arc_set_release(&st->slot[k].s);
			errlist_release(&st->slot[k].errs);
			errlist_release(&st->slot[k].warns);
			st->slot[k].ready = false;
		}
}

struct arc_stream *arc_stream_start(const struct arc_ref *refs, size_t n)
{
	struct arc_stream *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->refs = refs;
	st->n = n;
	pthread_mutex_init(&st->mu, NULL);
	pthread_cond_init(&st->cv, NULL);
	/* two loaders: the machine this is measured on has two cores; more
	 * would only add memory */
	st->nth = n > 1 ? 2 : 0;
	for (int k = 0; k < st->nth; k++) {
		st->wa[k] = (struct worker_arg){ st, k };
		if (pthread_create(&st->th[k], NULL, stream_worker, &st->wa[k]) != 0) {
			/* no threads: stop what started and load in the consumer */
			pthread_mutex_lock(&st->mu);
			st->stop = true;
			pthread_cond_broadcast(&st->cv);
			pthread_mutex_unlock(&st->mu);
			for (int j = 0; j < k; j++)
				pthread_join(st->th[j], NULL);
			slots_release(st);
			st->stop = false;
			st->nth = 0;
			break;
		}
	}
	return st;
}

int arc_stream_next(struct arc_stream *st, struct arc_set *s, int *rc,
		    struct errlist *errs, struct errlist *warns)
{
	if (st->next >= st->n)
		return 1;
	if (!st->nth) {
		*rc = arc_set_load(&st->refs[st->next++], s, errs, warns);
		return 0;
	}
	struct slot *sl = &st->slot[st->next % STREAM_WINDOW];
	pthread_mutex_lock(&st->mu);
	while (!sl->ready)
		pthread_cond_wait(&st->cv, &st->mu);
	*s = sl->s;
	*rc = sl->rc;
	for (size_t i = 0; i < sl->errs.n; i++)
		errlist_add(errs, NULL, 0, 0, "%s", sl->errs.msgs[i]);
	for (size_t i = 0; i < sl->warns.n; i++)
		errlist_add(warns, NULL, 0, 0, "%s", sl->warns.msgs[i]);
	errlist_release(&sl->errs);
	errlist_release(&sl->warns);
	sl->ready = false;
	st->next++;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
	return 0;
}

void arc_stream_stop(struct arc_stream *st)
{
	if (!st)
		return;
	pthread_mutex_lock(&st->mu);
	st->stop = true;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
	for (int k = 0; k < st->nth; k++)
		pthread_join(st->th[k], NULL);
	slots_release(st);
	pthread_mutex_destroy(&st->mu);
	pthread_cond_destroy(&st->cv);
	free(st);
}
