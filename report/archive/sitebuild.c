/*
 * sitebuild.c - sitebuild.h, `iomatrix site`'s work: a static site of the
 * archive (site.h): index.html, devices/<slug>.html with trend charts,
 * suites/<slug>.html, sets/<slug>/report.html.  Incremental: SITE/
 * .iomatrix-site.json records each set's stamp and each page's input hash,
 * so a rerun rewrites only the pages whose inputs changed; the records come
 * from the archive's index where it is current (archdb.h).  Every
 * file is reached through sitefs (no link inside the site is followed;
 * only recorded files with their recorded hash are removed); each set's
 * folder is an outdir with its own list.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "charts/chart.h"
#include "util/cliopt.h"
#include "util/version.h"
#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/jsonw.h"
#include "render/escape.h"
#include "render/outdir.h"
#include "render/render.h"
#include "model/lattime.h"
#include "model/ratio.h"
#include "model/report.h"
#include "site.h"
#include "sitebuild.h"
#include "resultset/site_manifest.h"
#include "sitefs.h"
#include "render/template.h"
#include "render/tmplpath.h"

/* The templates of the site's pages, in tmpls.page[]. */
enum { TMPL_INDEX, TMPL_DEVICE, TMPL_SUITE, TMPL_REPORT, TMPL_N };

struct tmpls {
	struct tmpl *page[TMPL_N];
	char *css, *js;
	char salt[65];
};

static int load_templates(struct tmpls *t, const struct site_build_opts *o, char **argv, struct errlist *errs)
{
	static const char *const plain[] = { "site_index.html.tmpl", "site_device.html.tmpl",
					     "site_suite.html.tmpl", "report.html.tmpl" };
	struct sha256 h;
	unsigned char out[32];
	char *style = NULL, *site_css = NULL;

	sha256_init(&h);
	for (size_t i = 0; i < TMPL_N; i++) {
		char *text = tmplpath_read(plain[i], o->tdir, argv, errs);
		if (!text || !(t->page[i] = tmpl_parse(text, plain[i], errs))) {
			free(text);
			return -1;
		}
		sha256_update(&h, text, strlen(text) + 1);
		free(text);
	}
	if (!(style = tmplpath_read("style.css", o->tdir, argv, errs)) ||
	    !(site_css = tmplpath_read("site.css", o->tdir, argv, errs)) ||
	    !(t->js = tmplpath_read("site.js", o->tdir, argv, errs))) {
		free(style);
		free(site_css);
		return -1;
	}
	struct sbuf css = SBUF_INIT;
	sbuf_addf(&css, "%s\n%s", style, site_css);
	t->css = sbuf_detach(&css);
	free(style);
	free(site_css);
	if (!t->css)
		return -1;
	/* the salt of every page hash: what a page looks like besides its sets */
	char opt[512];
	snprintf(opt, sizeof(opt), "%s|%s|%s|%g|%d", iomatrix_version, o->title,
		 o->baseline ? o->baseline : "", o->hist.threshold, o->charts);
	sha256_update(&h, opt, strlen(opt) + 1);
	for (size_t i = 0; i < o->hist.same.n; i++)
		sha256_update(&h, o->hist.same.v[i], strlen(o->hist.same.v[i]) + 1);
	sha256_update(&h, t->css, strlen(t->css) + 1);
	sha256_update(&h, t->js, strlen(t->js) + 1);
	sha256_final(&h, out);
	for (int i = 0; i < 32; i++)
		snprintf(t->salt + 2 * i, 3, "%02x", out[i]);
	return 0;
}

static void tmpls_release(struct tmpls *t)
{
	for (size_t i = 0; i < TMPL_N; i++)
		tmpl_free(t->page[i]);
	free(t->css);
	free(t->js);
}

/* ---- each set's report, linked back to the index ---- */

/* SITE/sets/<slug>/ as an output directory: opened below the sets folder
 * without following a link, locked, its own list of names and hashes (so
 * a user's my-notes.txt there is never removed), no fsyncs.  0, or -1
 * (a link or a read-only folder marks the run refused: exit 2). */
static int set_outdir(struct sitefs *fs, const char *slug, struct outdir *od,
		      struct errlist *e)
{
	char shown[PATH_MAX];
	int setsfd = sitefs_dir(fs, "sets", true, e);
	if (setsfd < 0)
		return -1;
	snprintf(shown, sizeof(shown), "%s/sets", fs->path);
	int r = outdir_open_at(od, setsfd, shown, slug, "site", e);
	close(setsfd);
	if (r == -1)
		fs->refused = true;
	od->nosync = true;   /* a site is rebuilt from the archive, not kept */
	return r < 0 ? -1 : 0;
}

/*
 * The set's report, made here from its numbers like `iomatrix report` makes
 * it (never copied: an HTML file inside a set that came from someone else
 * could carry anything), with the way back to the index; with charts when
 * the set has a report of its own (someone wanted them), else without
 * (the device pages have the trends).  Also report.csv.
 */
/* The page of a set that fails verification: what failed, no numbers
 * (the report, its CSV and charts of an earlier build go). */
static int set_failed_page(struct sitefs *fs, const struct site_set *x,
			   const struct tmpls *t, struct errlist *errs)
{
	struct outdir od = { .fd = -1 };
	struct errlist e = ERRLIST_INIT;
	struct sbuf b = SBUF_INIT;
	int rc = -1;

	if (set_outdir(fs, x->slug, &od, &e) == 0) {
		outdir_remove(od.fd, "charts");
		sbuf_adds(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
		escape_append(&b, x->name, ESC_HTML);
		sbuf_adds(&b, ": fails verification</title>\n<style>\n");
		sbuf_adds(&b, t->css ? t->css : "");
		sbuf_adds(&b, "</style>\n</head>\n<body>\n<nav class=\"crumbs\"><a href=\"../../index.html\">"
			      "&larr; All result sets</a></nav>\n<main>\n<h1>");
		escape_append(&b, x->name, ESC_HTML);
		sbuf_adds(&b, "</h1>\n<p>This result set fails verification against its SHA256SUMS: ");
		escape_append(&b, x->failed_why, ESC_HTML);
		sbuf_adds(&b, ". Its numbers are not published here; check it with "
			      "<code>iomatrix verify</code>.</p>\n</main>\n</body>\n</html>\n");
		if (!b.oom && outdir_write(&od, "report.html", sbuf_str(&b), b.len, &e) == 0 &&
		    outdir_finish(&od, &e) == 0)
			rc = 0;
	}
	for (size_t i = 0; i < e.n; i++)
		errlist_add(errs, NULL, 0, 0, "%s", e.msgs[i]);
	errlist_release(&e);
	sbuf_release(&b);
	outdir_close(&od);
	return rc;
}

/*
 * lattime.json beside the set's page: the "Latency over time" percentiles
 * chart drawn for each cell, [{"device", "label", "chart"}] (label as the
 * archive names a workload, "LABEL PATTERN"), which the device pages read
 * for the latest set of each workload (series_lattime).  None drawn: no
 * file.  0, or -1 when writing failed.
 */
static int set_lattime_index(struct outdir *od, const struct report *r,
			     const struct chart_set *cs, struct errlist *e)
{
	struct site_lattime l = { 0 };
	char lab[CELL_LABEL_MAX + 32], ch[160];
	int rc = 0;

	for (size_t i = 0; !rc && r->lattime && i < r->lattime->n; i++) {
		const struct rset_cell *c = r->lattime->c[i].cell;
		for (size_t k = 0; cs && k < cs->n; k++) {
			const struct chart *x = &cs->c[k];
			if (!x->section || strcmp(x->section, "lattime") || x->section_dev != i ||
			    !x->svgfile)
				continue;
			snprintf(lab, sizeof(lab), "%s %s", c->cell.label, pattern_name(c->cell.pattern));
			snprintf(ch, sizeof(ch), "charts/%s.svg", x->file);
			rc = site_lattime_add(&l, c->cell.device, lab, ch);
			break;  /* the first is the percentiles over time */
		}
	}
	if (!rc && l.n) {
		char *txt = site_lattime_print(&l);
		rc = !txt || outdir_write(od, SITE_LATTIME_NAME, txt, strlen(txt), e) < 0 ? -1 : 0;
		free(txt);
	}
	site_lattime_release(&l);
	return rc;
}

static int set_report(struct sitefs *fs, const struct site_set *x, const struct tmpls *t,
		      bool charts, const struct report_section *const *sections,
		      struct errlist *errs)
{
	if (x->failed_why)
		return set_failed_page(fs, x, t, errs);

	struct outdir od = { .fd = -1 };
	struct report r;
	struct chart_set cs = { 0 };
	char *dirs[1] = { x->path };
	/* named as the site names it, by its folder in the archive: a
	 * published page shows no path of the machine that built it */
	const char *shown[1] = { x->name };
	struct errlist e = ERRLIST_INIT;
	struct sbuf b = SBUF_INIT;
	int rc = -1;
	bool loaded = false;

	if (report_load_shown(&r, dirs, shown, 1, sections, &e) != 0)
		goto out;
	loaded = true;
	if (set_outdir(fs, x->slug, &od, &e) < 0)
		goto out;
	bool draw = charts && x->has_report;
	struct chart_opts copts = { .svg = true, .png = false, .mode = CHART_SUMMARY,
				    .scale = CHART_SCALE_AUTO };
	int cr = draw ? chart_render_all(&r, &od, &copts, &cs, &e) : 0;
	if (cr == 2) {           /* charts/ is a planted link: refused */
		fs->refused = true;
		goto out;
	}
	if (cr != 0)
		cs.note = cs.note ? cs.note : strdup("charts could not be drawn");
	if (!draw)               /* charts an earlier build drew, if unchanged */
		outdir_remove(od.fd, "charts");
	const char *files[6] = { "report.html", "this report as one self-contained HTML page",
				 "report.csv", "one row per cell, device and direction: every parameter and metric" };
	size_t nf = 4;
	if (cs.n) {
		files[nf++] = "charts/";
		files[nf++] = "each chart as .svg with its gnuplot script (.gp) and data (.dat)";
	}
	if (report_write_csv(&r, &b) < 0 ||
	    outdir_write(&od, "report.csv", sbuf_str(&b), b.len, &e) < 0 ||
	    set_lattime_index(&od, &r, &cs, &e) < 0)
		goto out;
	sbuf_reset(&b);
	cJSON *ctx = report_context(&r, &cs, true, files, nf);
	if (ctx)
		cJSON_AddStringToObject(ctx, "css", t->css);
	static const char back[] = "<nav class=\"crumbs\"><a href=\"../../index.html\">"
				   "&larr; All result sets</a></nav>\n";
	int ok = ctx && tmpl_render(t->page[TMPL_REPORT], ctx, ESC_HTML, &b) == 0;
	cJSON_Delete(ctx);
	if (!ok)
		goto out;
	/* the way back to the index, right after <body> */
	const char *html = sbuf_str(&b), *bo = strstr(html, "<body");
	const char *gt = bo ? strchr(bo, '>') : NULL;
	struct sbuf o = SBUF_INIT;
	size_t head = gt ? (size_t)(gt + 1 - html) : 0;
	sbuf_add(&o, html, head);
	sbuf_addc(&o, '\n');
	sbuf_adds(&o, back);
	sbuf_add(&o, html + head, b.len - head);
	rc = outdir_write(&od, "report.html", sbuf_str(&o), o.len, &e) < 0 ? -1 : 0;
	sbuf_release(&o);
	if (rc == 0 && outdir_finish(&od, &e) < 0)
		rc = -1;
out:
	for (size_t i = 0; i < e.n; i++)
		errlist_add(errs, NULL, 0, 0, "%s", e.msgs[i]);
	errlist_release(&e);
	sbuf_release(&b);
	chart_set_release(&cs);
	outdir_close(&od);
	if (loaded)
		report_release(&r);
	return rc;
}

/* ---- reading the archive ---- */

/*
 * Feed every set to the site in date order, each from the archive's index
 * where its row is current (arc_scan found it), else from its files.  The
 * site keeps no record of a set's numbers: the index is the archive's one
 * derived store, and the sets check it.  Returns the number of sets read
 * from their files, -1 on a fatal error.
 */
static long read_sets(struct site *s, struct arc_ref *refs, size_t nrefs,
		      struct errlist *errs)
{
	long loaded = 0;
	struct arc_stream *stream = arc_stream_start(refs, nrefs);
	for (size_t i = 0; stream && i < nrefs; i++) {
		struct arc_set set;
		int rc = -1;
		struct errlist e = ERRLIST_INIT, w = ERRLIST_INIT;
		if (arc_stream_next(stream, &set, &rc, &e, &w) != 0)
			break;
		loaded += !refs[i].row;
		arc_stream_warn(stderr, &e, &w);
		if (rc == 0) {
			int r = site_add(s, &set, refs[i].stamp);
			arc_set_release(&set);
			if (r < 0) {
				loaded = -1;
				break;
			}
		}
	}
	arc_stream_stop(stream);
	if (!stream)
		loaded = -1;
	if (loaded < 0)
		errlist_add(errs, NULL, 0, 0, "out of memory");
	return loaded;
}

/* ---- pages ---- */

struct pages {
	struct site_manifest_map *hashes;     /* the new manifest's: rel -> input hash */
	const struct site_manifest_map *old;  /* the last build's */
	size_t written, total;
	bool oom;
};

/* Record a page's hash; true when it must be (re)written, else the page
 * file is kept. */
static bool page_dirty(struct pages *pg, struct sitefs *fs, const char *rel, const char *hash)
{
	const char *o = site_manifest_get(pg->old, rel);
	pg->oom |= site_manifest_add(pg->hashes, rel, hash) < 0;
	pg->total++;
	if (!o || strcmp(o, hash) || !sitefs_exists(fs, rel))
		return true;
	sitefs_keep(fs, rel);
	return false;
}

static int render(struct sitefs *fs, const char *rel, const struct tmpl *t, cJSON *ctx,
		  const struct tmpls *tp, struct pages *pg, struct errlist *errs)
{
	struct sbuf b = SBUF_INIT;
	int rc = -1;
	if (ctx) {
		cJSON_AddStringToObject(ctx, "css", tp->css);
		cJSON_AddStringToObject(ctx, "version", iomatrix_version);
		if (tmpl_render(t, ctx, ESC_HTML, &b) == 0)
			rc = sitefs_put(fs, rel, sbuf_str(&b), b.len, errs);
	}
	pg->written += rc == 0;
	sbuf_release(&b);
	cJSON_Delete(ctx);
	return rc;
}

/* site_chart_write()'s writer: into devices/<slug>/ through sitefs. */
struct chart_put {
	struct sitefs *fs;
	const char *rel;
	struct errlist *errs;
};

static int chart_put(void *ctx, const char *name, const struct sbuf *b)
{
	struct chart_put *c = ctx;
	char rel[PATH_MAX];
	if (fsutil_join(rel, sizeof(rel), c->rel, name) < 0 ||
	    sitefs_put(c->fs, rel, sbuf_str(b), b->len, c->errs) < 0) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* Run the site's one gnuplot in SITE/.cache and record what it drew (the
 * SVGs it wrote by name were claimed first: a planted link is gone). */
static int run_site_gnuplot(struct sitefs *fs, const char *gnuplot, const struct sbuf *all,
			    char **charts, size_t n, struct errlist *errs)
{
	char shown[PATH_MAX + 16], rel[PATH_MAX];
	int dfd = sitefs_dir(fs, ".cache", true, errs), rc = -1;

	snprintf(shown, sizeof(shown), "%s/.cache", fs->path);
	sitefs_claim(fs, ".cache/gnuplot.log");
	/* a log that stays there is not ours (gnuplot then writes to stderr) */
	bool own_log = !sitefs_exists(fs, ".cache/gnuplot.log");
	if (dfd >= 0 && sitefs_put(fs, ".cache/all.gp", sbuf_str(all), all->len, errs) == 0 &&
	    chart_run_gnuplot(gnuplot, dfd, shown, "all.gp", errs) == 0)
		rc = 0;
	if (dfd >= 0)
		close(dfd);
	if (own_log)
		sitefs_record(fs, ".cache/gnuplot.log");
	for (size_t i = 0; i < n; i++)
		if (charts[i] && snprintf(rel, sizeof(rel), "devices/%s", charts[i]) < (int)sizeof(rel))
			sitefs_record(fs, rel);
	return rc;
}

/* Charts of the dirty device pages, one gnuplot for all; charts[i] is the
 * path of series i's SVG from its page, NULL when none. */
static void device_charts(const struct site *s, struct sitefs *fs, const bool *dirty,
			  char **charts, struct errlist *errs)
{
	char *gnuplot = chart_find_program("gnuplot");
	struct sbuf all = SBUF_INIT;
	if (!gnuplot) {
		fprintf(stderr, "iomatrix: gnuplot not found: device pages have tables "
			"but no charts (install gnuplot-nox)\n");
		return;
	}
	for (size_t id = 0; id < s->h.nidents; id++) {
		if (!dirty[id])
			continue;
		char rel[300];
		snprintf(rel, sizeof(rel), "devices/%s", s->ident_slug[id]);
		int dfd = sitefs_dir(fs, rel, true, errs);
		if (dfd < 0)
			continue;
		close(dfd);
		struct chart_put cp = { fs, rel, errs };
		size_t k = 0;
		for (size_t i = 0; i < s->h.nseries; i++) {
			/* one point is no trend: its table says it all */
			if (s->h.series[i].ident != id || s->h.series[i].n < 2)
				continue;
			char file[32], svg[PATH_MAX];
			snprintf(file, sizeof(file), "w%zu", ++k);
			if (site_chart_write(&s->h, i, chart_put, &cp, rel, file, &all) == 0) {
				struct sbuf p = SBUF_INIT;
				sbuf_addf(&p, "%s/%s.svg", s->ident_slug[id], file);
				charts[i] = sbuf_detach(&p);
				snprintf(svg, sizeof(svg), "%s/%s.svg", rel, file);
				sitefs_claim(fs, svg);
			}
		}
	}
	if (all.len && run_site_gnuplot(fs, gnuplot, &all, charts, s->h.nseries, errs) < 0)
		for (size_t i = 0; i < s->h.nseries; i++) {
			free(charts[i]);
			charts[i] = NULL;
		}
	sbuf_release(&all);
	free(gnuplot);
}

/* Set pages the old manifest lists and the new one does not (a set
 * removed from the archive): their folders' files that each folder's list
 * names with an unchanged hash, then the folders when empty.  Everything
 * else stale (device pages and charts, suite pages, the records older
 * sites cached in .cache/sets) is
 * sitefs_finish()'s, from the site's record of names and hashes. */
static void remove_stale_sets(struct sitefs *fs, const struct site_manifest_map *old,
			      struct site_manifest_map *now)
{
	int setsfd = fsutil_open_dir_at(fs->root, "sets", false, NULL);
	if (setsfd < 0)
		return;
	site_manifest_sort(now);
	for (size_t i = 0; i < old->n; i++) {
		const char *rel = old->v[i].name;
		char slug[NAME_MAX + 1];
		if (site_manifest_get(now, rel) || strncmp(rel, "sets/", 5))
			continue;
		const char *name = rel + 5, *slash = strchr(name, '/');
		/* sets/<one name>/report.html, nothing else */
		if (!slash || strcmp(slash, "/report.html") || (size_t)(slash - name) > NAME_MAX)
			continue;
		snprintf(slug, sizeof(slug), "%.*s", (int)(slash - name), name);
		int fd = fsutil_open_dir_at(setsfd, slug, false, NULL);
		if (fd < 0)
			continue;
		outdir_remove(fd, "charts");
		close(fd);
		outdir_remove(setsfd, slug);
	}
	close(setsfd);
}

/*
 * The latency-over-time chart of series si for its device page: the one
 * that the page of the series' latest set drew for the same device and
 * workload (its lattime.json), as a path from devices/; NULL when that
 * set's page drew none (it has no report of its own, or no such cell) or
 * two cells answer (a fleet set's hosts).  The caller frees it.
 */
static char *series_lattime(struct sitefs *fs, const struct site *s, size_t si)
{
	const struct hist_series *r = &s->h.series[si];
	const struct hist_ident *id = &s->h.idents[r->ident];
	struct site_lattime l = { 0 };
	char *found = NULL, why[128], rel[PATH_MAX];
	size_t len = 0;
	int nfound = 0;

	if (!r->n || !id->device)
		return NULL;
	const struct site_set *x = &s->sets[r->pts[r->n - 1].set];
	snprintf(rel, sizeof(rel), "sets/%s/%s", x->slug, SITE_LATTIME_NAME);
	char *buf = sitefs_read(fs, rel, 1u << 20, &len);
	if (buf && site_lattime_parse(&l, buf, len, why, sizeof(why)) == 0)
		for (size_t i = 0; i < l.n; i++) {
			if (strcmp(l.v[i].device, id->device) || strcmp(l.v[i].label, r->label))
				continue;
			if (nfound++ == 0)
				found = fmt_str("../sets/%s/%s", x->slug, l.v[i].chart);
		}
	site_lattime_release(&l);
	free(buf);
	if (nfound > 1) {
		free(found);
		found = NULL;
	}
	return found;
}

/* A device page's hash with the latency-over-time charts it shows: the
 * page is written again when one appears, goes or moves. */
static void device_hash_lattime(const struct site *s, size_t id, char *const *lattime,
				char hex[65])
{
	struct sbuf b = SBUF_INIT;
	sbuf_adds(&b, hex);
	for (size_t i = 0; i < s->h.nseries; i++)
		if (s->h.series[i].ident == id && lattime[i])
			sbuf_addf(&b, "|%zu:%s", i, lattime[i]);
	if (!b.oom)
		sha256_hex(sbuf_str(&b), b.len, hex);
	sbuf_release(&b);
}

/* What one set's page said (set_reports): its result and messages. */
struct set_said {
	int rc;
	bool refused;
	struct errlist e;
};

/* Set k of todo's page, into said[k]. */
static void set_reports_one(struct site *s, struct sitefs *fs, const struct site_build_opts *o,
			    const struct tmpls *t, size_t set, struct set_said *said)
{
	said->e = (struct errlist)ERRLIST_INIT;
	bool was = fs->refused;
	said->rc = set_report(fs, &s->sets[set], t, o->charts, o->sections, &said->e);
	said->refused = fs->refused && !was;
	fs->refused = was;
}

/* The child's half, one record a page: k, rc, refused, its messages each
 * with its length.  0, or -1 when the pipe broke. */
static int set_reports_send(int fd, size_t k, const struct set_said *x)
{
	struct sbuf b = SBUF_INIT;
	size_t head[4] = { k, (size_t)(x->rc < 0), x->refused, x->e.n };
	sbuf_add(&b, head, sizeof(head));
	for (size_t i = 0; i < x->e.n; i++) {
		size_t n = strlen(x->e.msgs[i]);
		sbuf_add(&b, &n, sizeof(n));
		sbuf_add(&b, x->e.msgs[i], n);
	}
	int r = b.oom || fsutil_write_all(fd, sbuf_str(&b), b.len) < 0 ? -1 : 0;
	sbuf_release(&b);
	return r;
}

static int set_reports_recv(int fd, size_t ntodo, struct set_said *said)
{
	size_t head[4], n;
	char *msg;
	while (fsutil_read_all(fd, head, sizeof(head)) == 0) {
		if (head[0] >= ntodo || head[3] > 1u << 20)
			return -1;
		struct set_said *x = &said[head[0]];
		for (size_t i = 0; i < head[3]; i++) {
			msg = NULL;
			int r = fsutil_read_all(fd, &n, sizeof(n)) < 0 || n > 1u << 20 ||
				!(msg = calloc(1, n + 1)) ? -1 : fsutil_read_all(fd, msg, n);
			if (r == 0)
				errlist_add(&x->e, NULL, 0, 0, "%s", msg);
			free(msg);
			if (r < 0) {   /* a record cut short: the page is made again */
				errlist_release(&x->e);
				return -1;
			}
		}
		x->rc = head[1] ? -1 : 0;
		x->refused = head[2];
	}
	return 0;
}

/*
 * The pages of sets todo[0..ntodo-1], in two processes: every set's page
 * is a report made from its files (10,000 sets: 47 s of CPU, 85 % of a
 * site's first build) and shares nothing with another's but the site's
 * descriptor, so a child makes every second one and sends back what each
 * said; the messages come out in set order, as from one process.  A page
 * the child did not report is made here.  0, or -1 when a page failed.
 */
static int set_reports(struct site *s, struct sitefs *fs, const struct site_build_opts *o,
		       const struct tmpls *t, const size_t *todo, size_t ntodo, struct pages *pg,
		       struct errlist *errs)
{
	struct set_said *said = calloc(ntodo + 1, sizeof(*said));
	int p[2] = { -1, -1 }, rc = 0;
	pid_t pid = -1;
	if (!said)
		return -1;
	for (size_t k = 0; k < ntodo; k++)
		said[k].rc = 1;   /* not made yet */
	fflush(NULL);
	if (ntodo >= 16 && pipe(p) == 0 && (pid = fork()) == 0) {
		close(p[0]);
		for (size_t k = 1; k < ntodo; k += 2) {
			set_reports_one(s, fs, o, t, todo[k], &said[k]);
			if (set_reports_send(p[1], k, &said[k]) < 0)
				_exit(1);
		}
		_exit(0);
	}
	if (p[1] >= 0)
		close(p[1]);
	for (size_t k = 0; k < ntodo; k += pid > 0 ? 2 : 1)
		set_reports_one(s, fs, o, t, todo[k], &said[k]);
	if (pid > 0) {
		set_reports_recv(p[0], ntodo, said);
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (p[0] >= 0)
		close(p[0]);
	for (size_t k = 0; k < ntodo; k++) {
		if (said[k].rc > 0)   /* the child died before it: made here */
			set_reports_one(s, fs, o, t, todo[k], &said[k]);
		fs->refused |= said[k].refused;
		if (said[k].rc == 0)
			pg->written++;
		else
			rc = -1;
		for (size_t i = 0; i < said[k].e.n; i++)
			errlist_add(errs, NULL, 0, 0, "%s", said[k].e.msgs[i]);
		errlist_release(&said[k].e);
	}
	free(said);
	return rc;
}

static int write_pages(struct site *s, struct sitefs *fs, const struct site_build_opts *o,
		       const struct tmpls *t, struct pages *pg, struct errlist *errs)
{
	char hash[65], rel[PATH_MAX];
	bool *dirty = calloc(s->h.nidents + 1, sizeof(bool));
	char **charts = calloc(s->h.nseries + 1, sizeof(char *));
	char **lattime = calloc(s->h.nseries + 1, sizeof(char *));
	int rc = -1;
	if (!dirty || !charts || !lattime)
		goto out;
	/* the sets' pages first: the device pages show the latency-over-time
	 * chart their latest set's page drew (series_lattime) */
	size_t *todo = calloc(s->nsets + 1, sizeof(*todo)), ntodo = 0;
	if (!todo)
		goto out;
	for (size_t i = 0; i < s->nsets; i++) {
		const struct site_set *x = &s->sets[i];
		char hin[256];
		snprintf(hin, sizeof(hin), "%s|%s", t->salt, x->stamp);
		sha256_hex(hin, strlen(hin), hash);
		snprintf(rel, sizeof(rel), "sets/%s/report.html", x->slug);
		if (page_dirty(pg, fs, rel, hash) || x->dirty)
			todo[ntodo++] = i;
	}
	int src = set_reports(s, fs, o, t, todo, ntodo, pg, errs);
	free(todo);
	for (size_t i = 0; i < s->h.nseries; i++)
		lattime[i] = series_lattime(fs, s, i);
	for (size_t id = 0; id < s->h.nidents; id++) {
		bool has = false;
		for (size_t i = 0; i < s->h.nseries && !has; i++)
			has = s->h.series[i].ident == id;
		if (s->h.idents[id].canon != id || !has)
			continue;
		site_device_hash(s, id, t->salt, hash);
		device_hash_lattime(s, id, lattime, hash);
		snprintf(rel, sizeof(rel), "devices/%s.html", s->ident_slug[id]);
		dirty[id] = page_dirty(pg, fs, rel, hash);
		if (!dirty[id]) {     /* its charts stay too */
			snprintf(rel, sizeof(rel), "devices/%s/", s->ident_slug[id]);
			sitefs_keep(fs, rel);
		}
	}
	if (o->charts)
		device_charts(s, fs, dirty, charts, errs);
	rc = 0;
	for (size_t id = 0; id < s->h.nidents; id++) {
		if (!dirty[id])
			continue;
		snprintf(rel, sizeof(rel), "devices/%s.html", s->ident_slug[id]);
		cJSON *ctx = site_device_context(s, id, o->title, (const char *const *)charts,
						 (const char *const *)lattime, o->hist.threshold);
		rc |= render(fs, rel, t->page[TMPL_DEVICE], ctx, t, pg, errs);
	}
	for (size_t u = 0; u < s->nsuites; u++) {
		site_suite_hash(s, u, t->salt, hash);
		snprintf(rel, sizeof(rel), "suites/%s.html", s->suites[u].slug);
		if (page_dirty(pg, fs, rel, hash))
			rc |= render(fs, rel, t->page[TMPL_SUITE], site_suite_context(s, u, o->title, o->baseline),
				     t, pg, errs);
	}
	site_index_hash(s, t->salt, hash);
	if (page_dirty(pg, fs, "index.html", hash)) {
		cJSON *ctx = site_index_context(s, o->title);
		if (!ctx)
			rc = -1;
		if (ctx)
			cJSON_AddStringToObject(ctx, "script", t->js);
		rc |= render(fs, "index.html", t->page[TMPL_INDEX], ctx, t, pg, errs);
	}
	rc |= src;
out:
	for (size_t i = 0; charts && i < s->h.nseries; i++)
		free(charts[i]);
	for (size_t i = 0; lattime && i < s->h.nseries; i++)
		free(lattime[i]);
	free(charts);
	free(lattime);
	free(dirty);
	return rc;
}

int site_build(const struct site_build_opts *o, char **dirs, size_t ndirs, char **argv,
	       struct site_build_stats *st, struct errlist *errs)
{
	size_t nrefs = 0;
	struct tmpls t = { 0 };
	struct arc_ref *refs = NULL;
	struct arc_indexes ix = { 0 };
	struct site s;
	struct site_manifest old = { 0 }, man = { 0 };
	struct sitefs fs = { .root = -1 };
	int rc = EXIT_USAGE;

	memset(st, 0, sizeof(*st));
	site_init(&s, &o->hist);
	size_t hidden = 0;
	if (load_templates(&t, o, argv, errs) < 0 ||
	    arc_scan(dirs, ndirs, o->all, &ix, &hidden, &refs, &nrefs, errs) < 0)
		goto out;
	arc_say_hidden(hidden);
	/* links planted inside the site are refused before anything is written */
	int fe = sitefs_open(&fs, o->out, errs);
	rc = EXIT_RUNTIME;
	if (fe < 0) {
		rc = fe == -1 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	/* what an earlier build wrote, by name and hash: nothing else is ever
	 * removed; a manifest not believed whole is none (every page written
	 * again, nothing removed) */
	char why[256], shown[512];
	if (site_manifest_read_at(&old, fs.root, why, sizeof(why)) < 0)
		fprintf(stderr, "iomatrix: %s/%s: not used (%s): every page is written again and "
			"no file is removed\n", o->out, SITE_MANIFEST_NAME,
			termesc(why, shown, sizeof(shown)));   /* why may quote a name from it */
	sitefs_load(&fs, &old.files);

	site_init(&s, &o->hist);
	long fresh = read_sets(&s, refs, nrefs, errs);
	if (fresh < 0)
		goto out;
	if (site_finish(&s, errs) < 0) {
		rc = EXIT_USAGE;   /* an unknown --same name */
		goto out;
	}
	/* a set is named by its folder in the site, never by a path; its page
	 * is written again when its stamp is not the last build's */
	int prc = 0;
	for (size_t i = 0; i < s.nsets; i++) {
		struct site_set *x = &s.sets[i];
		const char *was = site_manifest_get(&old.sets, x->slug);
		x->dirty = !was || strcmp(was, x->stamp);
		prc |= site_manifest_add(&man.sets, x->slug, x->stamp);
	}
	struct pages pg = { &man.pages, &old.pages, 0, 0, false };
	prc |= write_pages(&s, &fs, o, &t, &pg, errs);
	remove_stale_sets(&fs, pg.old, pg.hashes);
	if (sitefs_finish(&fs, &man.files) < 0 || pg.oom)
		prc = -1;
	char *text = site_manifest_print(&man, iomatrix_version);
	int wr = text ? fsutil_write_replace_at(fs.root, SITE_MANIFEST_NAME, text, strlen(text),
						false) : -ENOMEM;
	if (wr < 0) {
		errlist_add(errs, NULL, 0, 0, "%s/%s: cannot write: %s", o->out, SITE_MANIFEST_NAME,
			    fsutil_strerror(-wr));
		prc = -1;
	}
	free(text);
	st->nsets = s.nsets;
	st->fresh = fresh;
	st->nsuites = s.nsuites;
	st->written = pg.written;
	st->total = pg.total;
	st->built = true;
	rc = fs.refused ? EXIT_USAGE : prc == 0 ? EXIT_OK : EXIT_RUNTIME;
out:
	sitefs_close(&fs);
	site_release(&s);
	tmpls_release(&t);
	arc_refs_free(refs, nrefs);
	arc_indexes_close(&ix);
	site_manifest_release(&old);
	site_manifest_release(&man);
	return rc;
}
