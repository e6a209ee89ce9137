/*
 * cmd_compare.c - `iomatrix compare OLD NEW [-o DIR] [--threshold PCT]
 * [--fail-on-regression]`: match the cells of two result sets by device and
 * workload parameters and call each change an improvement or a regression
 * only when it is beyond the threshold AND outside the noise (Welch's t-test
 * when both sides have repetitions, confidence-interval overlap otherwise).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmpstat.h"
#include "common/fsutil.h"
#include "resultset/resultset.h"
#include "report.h"
#include "template.h"
#include "outdir.h"
#include "tmplpath.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: iomatrix compare OLD_SET NEW_SET [-o DIR] [--threshold PCT]\n"
		"           [--fail-on-regression]\n\n"
		"Match the cells of two result sets by device and parameters and show\n"
		"old, new and the change with its uncertainty.  A change is an improvement\n"
		"or a regression only beyond the threshold (default 5 %%) and outside the\n"
		"noise (Welch's t-test when both sides were repeated, else 95 %% CI overlap).\n"
		"Writes compare.md and compare.html to DIR (default NEW_SET/compare).\n\n"
		"  -o, --output DIR        where to write\n"
		"  --threshold PCT         smallest change that counts (default 5)\n"
		"  --fail-on-regression    exit 3 when a regression is found\n"
		"  --template DIR          take compare.md.tmpl / compare.html.tmpl from DIR\n");
}

enum verdict { V_SAME, V_NOISE, V_BETTER, V_WORSE };

static const char *const verdict_words[] = { "no change", "within noise",
					     "improvement", "regression" };

struct cmp_row {
	const char *device;        /* raw device name */
	const char *workload;      /* group title */
	const char *dir;           /* "read"/"write" or NULL */
	const char *metric;
	const struct rset_stat *o, *n;
	double div;                /* display divisor */
	const char *unit;
	bool lower_better;
	double change, unc;        /* percent */
	enum verdict v;
};

/* Is the difference of two summaries outside the noise?  Welch's t-test
 * (cmpstat.c, shared with history) when both sides were repeated. */
static bool significant(const struct rset_stat *a, const struct rset_stat *b)
{
	struct cmpstat_side sa = { a->mean, a->stddev, a->n }, sb = { b->mean, b->stddev, b->n };
	double p = cmpstat_welch_p(&sa, &sb);
	if (p >= 0)
		return p < 0.05;
	/* CI overlap (a single run has no interval: any difference counts) */
	double alo = a->mean - a->ci95, ahi = a->mean + a->ci95;
	double blo = b->mean - b->ci95, bhi = b->mean + b->ci95;
	return bhi < alo || blo > ahi;
}

static void judge(struct cmp_row *r, double threshold)
{
	const struct rset_stat *o = r->o, *n = r->n;
	r->change = o->mean != 0 ? (n->mean - o->mean) / o->mean * 100 : 0;
	double ro = o->mean ? o->ci95 / o->mean : 0, rn = n->mean ? n->ci95 / n->mean : 0;
	r->unc = o->mean ? sqrt(ro * ro + rn * rn) * (n->mean / o->mean) * 100 : 0;
	bool beyond = fabs(r->change) >= threshold;
	if (!beyond)
		r->v = V_SAME;
	else if (!significant(o, n))
		r->v = V_NOISE;
	else
		r->v = ((r->change > 0) != r->lower_better) ? V_BETTER : V_WORSE;
}

static int row_rank(const struct cmp_row *r)
{
	return r->v == V_WORSE ? 0 : r->v == V_BETTER ? 1 : r->v == V_NOISE ? 2 : 3;
}

static int row_cmp(const void *a, const void *b)
{
	const struct cmp_row *x = a, *y = b;
	int rx = row_rank(x), ry = row_rank(y);
	if (rx != ry)
		return rx - ry;
	double cx = fabs(x->change), cy = fabs(y->change);
	return cx < cy ? 1 : cx > cy ? -1 : 0;
}

/* "+12.3 % ± 4.5", "-95.8 % ± 1.3"; big changes also as a ratio:
 * "+40,000 % ± 43,500 (401x)". */
static void change_text(const struct cmp_row *row, char *buf, size_t len)
{
	char v[48], u[48], q[48] = "";
	double a = fabs(row->change);

	if (a < 100)
		snprintf(v, sizeof(v), "%.1f", a);
	else
		fmt_sig3(a, v, sizeof(v));
	if (row->unc < 100)
		snprintf(u, sizeof(u), "%.1f", row->unc);
	else
		fmt_sig3(row->unc, u, sizeof(u));
	double ratio = row->o->mean ? row->n->mean / row->o->mean : 0;
	if (ratio >= 2 || (ratio > 0 && ratio <= 0.5)) {
		char r[40];
		fmt_ratio(ratio, r, sizeof(r));
		snprintf(q, sizeof(q), " (%s)", r);
	}
	snprintf(buf, len, "%s%s %%%s%s%s", row->change < 0 ? "-" : "+", v,
		 row->unc > 0 ? " ± " : "", row->unc > 0 ? u : "", q);
}

static void add_s(cJSON *o, const char *k, const char *v)
{
	cJSON_AddItemToObject(o, k, v ? cJSON_CreateString(v) : cJSON_CreateNull());
}

static cJSON *set_obj(const struct rset *rs)
{
	cJSON *o = cJSON_CreateObject();
	char cells[64];
	add_s(o, "dir", rs->dir);
	add_s(o, "host", rs->hostname);
	add_s(o, "suite", rs->suite_name ? rs->suite_name : "?");
	add_s(o, "sha256", rs->suite_sha256 ? rs->suite_sha256 : "unknown");
	add_s(o, "started_at", rs->started_at ? rs->started_at : "?");
	add_s(o, "status", rs->status);
	snprintf(cells, sizeof(cells), "%zu/%d", rs->ncells, rs->cells_total);
	add_s(o, "cells", cells);
	return o;
}

int cmd_compare(int argc, char **argv)
{
	const char *out = NULL, *tdir = NULL;
	const char *paths[2] = { NULL, NULL };
	double threshold = 5;
	bool fail_on_reg = false;
	struct errlist errs = ERRLIST_INIT;
	struct report r;
	bool loaded = false;
	struct cmp_row *rows = NULL;
	size_t nrows = 0, alloc = 0;
	struct tmpl *tmd = NULL, *thtml = NULL;
	char *css = NULL;
	const char *outdir = NULL;
	struct outdir od = { .fd = -1 };
	cJSON *ctx = NULL;
	int rc = EXIT_USAGE, npos = 0;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if ((!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--threshold") ||
		     !strcmp(a, "--template")) && i + 1 >= argc) {
			fprintf(stderr, "iomatrix compare: option '%s' needs a value\n", a);
			goto out;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			out = argv[++i];
		} else if (!strcmp(a, "--template")) {
			tdir = argv[++i];
		} else if (!strcmp(a, "--threshold")) {
			char *end;
			threshold = strtod(argv[++i], &end);
			if (*end == '%')
				end++;
			if (end == argv[i] || *end || !(threshold >= 0 && threshold < 1e6)) {
				fprintf(stderr, "iomatrix compare: bad --threshold '%s' (a percentage, e.g. 5)\n",
					argv[i]);
				goto out;
			}
		} else if (!strcmp(a, "--fail-on-regression")) {
			fail_on_reg = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "iomatrix compare: unknown option '%s' (see 'iomatrix compare --help')\n", a);
			goto out;
		} else if (npos < 2) {
			paths[npos++] = a;
		} else {
			fprintf(stderr, "iomatrix compare: give exactly two result sets (OLD NEW)\n");
			goto out;
		}
	}
	if (npos != 2) {
		fprintf(stderr, "iomatrix compare: give two result sets: OLD NEW\n");
		usage(stderr);
		goto out;
	}
	if (!(tmd = tmplpath_load("compare.md.tmpl", tdir, argv, &errs)) ||
	    !(thtml = tmplpath_load("compare.html.tmpl", tdir, argv, &errs)) ||
	    !(css = tmplpath_read("style.css", tdir, argv, &errs)))
		goto out_errs;

	rc = report_load_ex(&r, (char **)paths, 2, NULL, NULL, true, &errs);
	loaded = true;
	for (size_t s = 0; s < r.nsets; s++)
		for (size_t i = 0; i < r.sets[s].warnings.n; i++)
			fprintf(stderr, "iomatrix compare: warning: %s\n", r.sets[s].warnings.msgs[i]);
	if (rc)
		goto out_errs;

	ctx = cJSON_CreateObject();
	if (!ctx) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	cJSON *only_old = cJSON_AddArrayToObject(ctx, "only_old");
	cJSON *only_new = cJSON_AddArrayToObject(ctx, "only_new");
	for (size_t gi = 0; gi < r.ngroups; gi++) {
		const struct rgroup *g = &r.groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rentry *e = &g->e[k];
			const struct rdev *dv = &r.devs[e->dev];
			/* pair each old entry with the new entry of the same name */
			const struct rentry *pair = NULL;
			for (size_t m = 0; m < g->n; m++) {
				const struct rdev *d2 = &r.devs[g->e[m].dev];
				if (d2->set != dv->set && !strcmp(d2->name, dv->name) &&
				    !strcmp(d2->label ? d2->label : "", dv->label ? dv->label : ""))
					pair = &g->e[m]; /* fleet: the same host too */
			}
			if (!pair) {
				cJSON *o = cJSON_CreateObject();
				add_s(o, "device", dv->label ? dv->label : dv->name);
				add_s(o, "workload", g->title);
				cJSON_AddItemToArray(dv->set == 0 ? only_old : only_new, o);
				continue;
			}
			if (dv->set != 0)
				continue;
			const struct rset_cell *co = e->cell, *cn = pair->cell;
			if (!co->ok || !cn->ok) {
				cJSON *o = cJSON_CreateObject();
				add_s(o, "device", dv->label ? dv->label : dv->name);
				add_s(o, "workload", g->title);
				add_s(o, "why", !co->ok ? "failed in OLD" : "failed in NEW");
				cJSON_AddItemToArray(co->ok ? only_old : only_new, o);
				continue;
			}
			for (int dd = 0; dd < DIR__COUNT; dd++) {
				const struct rset_dir *a = &co->dir[dd], *b = &cn->dir[dd];
				if (!a->present || !b->present)
					continue;
				double lats[4] = { a->lat_mean.mean, b->lat_mean.mean,
						   a->lat_p99.mean, b->lat_p99.mean };
				double ldiv;
				const char *lunit = fmt_lat_unit(lats, 4, &ldiv);
				struct { const char *name; const struct rset_stat *o, *n; bool lb;
					 double div; const char *unit; } mets[] = {
					{ "IOPS", &a->iops, &b->iops, false, 1, "" },
					{ "mean latency", &a->lat_mean, &b->lat_mean, true, ldiv, lunit },
					{ "p99 latency", &a->lat_p99, &b->lat_p99, true, ldiv, lunit },
				};
				for (size_t m = 0; m < 3; m++) {
					if (!mets[m].o->n || !mets[m].n->n)
						continue;
					if (nrows == alloc) {
						alloc = alloc ? alloc * 2 : 64;
						struct cmp_row *p = realloc(rows, alloc * sizeof(*p));
						if (!p) {
							rc = EXIT_RUNTIME;
							goto out;
						}
						rows = p;
					}
					struct cmp_row *row = &rows[nrows++];
					memset(row, 0, sizeof(*row));
					row->device = dv->label ? dv->label : dv->name;
					row->workload = g->title;
					row->dir = g->mixed ? (dd ? "write" : "read") : NULL;
					row->metric = mets[m].name;
					row->o = mets[m].o;
					row->n = mets[m].n;
					row->lower_better = mets[m].lb;
					row->div = mets[m].div;
					row->unit = mets[m].unit;
					judge(row, threshold);
				}
			}
		}
	}
	if (nrows > 1) /* rows is NULL when no cell matched: qsort(NULL) is UB */
		qsort(rows, nrows, sizeof(*rows), row_cmp);

	size_t count[4] = { 0 };
	cJSON *jrows = cJSON_CreateArray();
	for (size_t i = 0; i < nrows; i++) {
		const struct cmp_row *row = &rows[i];
		char o[64], n[64], ch[200], metric[96];
		count[row->v]++;
		fmt_stat(row->o->mean, row->o->ci95, row->o->n, row->div, o, sizeof(o));
		fmt_stat(row->n->mean, row->n->ci95, row->n->n, row->div, n, sizeof(n));
		change_text(row, ch, sizeof(ch));
		snprintf(metric, sizeof(metric), "%s%s%s%s%s%s", row->dir ? row->dir : "",
			 row->dir ? " " : "", row->metric,
			 row->unit[0] ? " (" : "", row->unit, row->unit[0] ? ")" : "");
		cJSON *jo = cJSON_CreateObject();
		add_s(jo, "device", row->device);
		add_s(jo, "workload", row->workload);
		add_s(jo, "metric", metric);
		add_s(jo, "old", o);
		add_s(jo, "new", n);
		add_s(jo, "change", ch);
		add_s(jo, "verdict", verdict_words[row->v]);
		add_s(jo, "cls", row->v == V_WORSE ? "worse" : row->v == V_BETTER ? "better" : "same");
		if (row->v == V_WORSE)
			cJSON_AddTrueToObject(jo, "regression");
		cJSON_AddItemToArray(jrows, jo);
	}

	char buf[256];
	add_s(ctx, "title", "Comparison");
	add_s(ctx, "version", iomatrix_version);
	cJSON_AddItemToObject(ctx, "old", set_obj(&r.sets[0]));
	cJSON_AddItemToObject(ctx, "new", set_obj(&r.sets[1]));
	snprintf(buf, sizeof(buf), "%g", threshold);
	add_s(ctx, "threshold", buf);
	snprintf(buf, sizeof(buf), "%zu comparisons: %zu regression%s, %zu improvement%s, "
		 "%zu within noise, %zu unchanged (threshold %g %%)", nrows,
		 count[V_WORSE], count[V_WORSE] == 1 ? "" : "s", count[V_BETTER],
		 count[V_BETTER] == 1 ? "" : "s", count[V_NOISE], count[V_SAME], threshold);
	add_s(ctx, "summary", buf);
	const char *so = r.sets[0].suite_sha256, *sn = r.sets[1].suite_sha256;
	if (so && sn && strcmp(so, sn))
		add_s(ctx, "suite_note", "The two sets were made from different suite files "
		      "(sha256 differs): only cells whose parameters match are compared.");
	cJSON_AddItemToObject(ctx, "rows", jrows);
	cJSON *w = cJSON_AddArrayToObject(ctx, "warnings");
	for (size_t i = 0; i < r.nwarns; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r.warns[i].text));

	/* NEW/compare lives in a set that may come from anyone: never a link */
	int e = out ? outdir_open(&od, out, NULL, "compare", &errs) :
		      outdir_open(&od, paths[1], "compare", "compare", &errs);
	if (e < 0) {
		rc = e == -1 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out_errs;
	}
	outdir = od.path;
	rc = EXIT_OK;
	struct sbuf o = SBUF_INIT;
	if (tmpl_render(tmd, ctx, ESC_MD, &o) < 0 ||
	    outdir_write(&od, "compare.md", sbuf_str(&o), o.len, &errs) < 0)
		rc = EXIT_RUNTIME;
	sbuf_reset(&o);
	cJSON_AddStringToObject(ctx, "css", css);
	if (tmpl_render(thtml, ctx, ESC_HTML, &o) < 0 ||
	    outdir_write(&od, "compare.html", sbuf_str(&o), o.len, &errs) < 0)
		rc = EXIT_RUNTIME;
	sbuf_release(&o);
	if (outdir_finish(&od, &errs) < 0)
		rc = EXIT_RUNTIME;

	/* stdout: the verdict first, then every regression and improvement */
	printf("compare: %s -> %s\n", r.sets[0].dir, r.sets[1].dir);
	printf("%s\n", cJSON_GetObjectItem(ctx, "summary")->valuestring);
	for (size_t i = 0; i < nrows; i++) {
		const struct cmp_row *row = &rows[i];
		if (row->v != V_WORSE && row->v != V_BETTER)
			continue;
		printf("  %-11s %s: %s, %s%s%s %+.1f %%\n", verdict_words[row->v], row->device,
		       row->workload, row->metric, row->dir ? " " : "", row->dir ? row->dir : "",
		       row->change);
	}
	int no = cJSON_GetArraySize(only_old), nn = cJSON_GetArraySize(only_new);
	if (no || nn)
		printf("%d cell%s only in OLD (or failed in NEW), %d only in NEW (or failed in OLD)\n",
		       no, no == 1 ? "" : "s", nn);
	printf("written: %s/compare.md, %s/compare.html\n", outdir, outdir);
	if (rc == EXIT_OK && fail_on_reg && count[V_WORSE])
		rc = EXIT_REGRESSION;
out_errs:
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix compare: %s\n", errs.msgs[i]);
out:
	cJSON_Delete(ctx);
	free(rows);
	if (loaded)
		report_release(&r);
	tmpl_free(tmd);
	tmpl_free(thtml);
	free(css);
	outdir_close(&od);
	errlist_release(&errs);
	return rc;
}
