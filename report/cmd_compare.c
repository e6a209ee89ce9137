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
		"  -o, --out DIR           where to write (--output also works)\n"
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

struct cmp_args {
	const char *out, *tdir;
	const char *paths[2];
	double threshold;
	bool fail_on_reg;
};

/* 0, or -1 with the message printed (exit 2). */
static int compare_args(int argc, char **argv, struct cmp_args *a)
{
	int npos = 0;

	memset(a, 0, sizeof(*a));
	a->threshold = 5;
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if ((cli_is_out(arg) || !strcmp(arg, "--threshold") ||
		     !strcmp(arg, "--template")) && i + 1 >= argc) {
			fprintf(stderr, "iomatrix: option '%s' needs a value\n", arg);
			return -1;
		}
		if (cli_is_out(arg)) {
			a->out = argv[++i];
		} else if (!strcmp(arg, "--template")) {
			a->tdir = argv[++i];
		} else if (!strcmp(arg, "--threshold")) {
			char *end;
			a->threshold = strtod(argv[++i], &end);
			if (*end == '%')
				end++;
			if (end == argv[i] || *end || !(a->threshold >= 0 && a->threshold < 1e6)) {
				fprintf(stderr, "iomatrix: bad --threshold '%s' (a percentage, e.g. 5)\n",
					argv[i]);
				return -1;
			}
		} else if (!strcmp(arg, "--fail-on-regression")) {
			a->fail_on_reg = true;
		} else if (arg[0] == '-' && arg[1]) {
			fprintf(stderr, "iomatrix: unknown option '%s' (see 'iomatrix compare --help')\n", arg);
			return -1;
		} else if (npos < 2) {
			a->paths[npos++] = arg;
		} else {
			fprintf(stderr, "iomatrix: give exactly two result sets (OLD NEW)\n");
			return -1;
		}
	}
	if (npos != 2) {
		fprintf(stderr, "iomatrix: give two result sets: OLD NEW\n");
		usage(stderr);
		return -1;
	}
	return 0;
}

struct cmp_rows {
	struct cmp_row *v;
	size_t n, alloc;
};

/* The rows of one matched cell pair (each direction: IOPS, mean and p99
 * latency when both sides have them).  0, or -1 when out of memory. */
static int pair_rows(struct cmp_rows *rows, const struct rgroup *g,
		     const struct rdev *dv, const struct rset_cell *co,
		     const struct rset_cell *cn, double threshold)
{
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
			if (rows->n == rows->alloc) {
				size_t na = rows->alloc ? rows->alloc * 2 : 64;
				struct cmp_row *p = realloc(rows->v, na * sizeof(*p));
				if (!p)
					return -1;
				rows->v = p;
				rows->alloc = na;
			}
			struct cmp_row *row = &rows->v[rows->n++];
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
	return 0;
}

/* Pair every OLD entry with the NEW entry of the same device name and
 * workload into rows; the rest go to only_old / only_new.  0 or -1 (out
 * of memory). */
static int compare_match(const struct report *r, double threshold,
			 struct cmp_rows *rows, cJSON *only_old, cJSON *only_new)
{
	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rgroup *g = &r->groups[gi];
		for (size_t k = 0; k < g->n; k++) {
			const struct rentry *e = &g->e[k];
			const struct rdev *dv = &r->devs[e->dev];
			const struct rentry *pair = NULL;
			for (size_t m = 0; m < g->n; m++) {
				const struct rdev *d2 = &r->devs[g->e[m].dev];
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
			if (pair_rows(rows, g, dv, co, cn, threshold) < 0)
				return -1;
		}
	}
	if (rows->n > 1) /* rows is NULL when no cell matched: qsort(NULL) is UB */
		qsort(rows->v, rows->n, sizeof(*rows->v), row_cmp);
	return 0;
}

/* The rows as the templates show them; count[] gets the verdicts. */
static cJSON *rows_json(const struct cmp_rows *rows, size_t count[4])
{
	cJSON *jrows = cJSON_CreateArray();

	for (size_t i = 0; i < rows->n; i++) {
		const struct cmp_row *row = &rows->v[i];
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
	return jrows;
}

/* The rest of the template context: the two sets, threshold, summary,
 * suite note, rows and warnings. */
static void compare_ctx(cJSON *ctx, const struct report *r, double threshold,
			const struct cmp_rows *rows)
{
	size_t count[4] = { 0 };
	cJSON *jrows = rows_json(rows, count);
	char buf[256];

	add_s(ctx, "title", "Comparison");
	add_s(ctx, "version", iomatrix_version);
	cJSON_AddItemToObject(ctx, "old", set_obj(&r->sets[0]));
	cJSON_AddItemToObject(ctx, "new", set_obj(&r->sets[1]));
	snprintf(buf, sizeof(buf), "%g", threshold);
	add_s(ctx, "threshold", buf);
	snprintf(buf, sizeof(buf), "%zu comparisons: %zu regression%s, %zu improvement%s, "
		 "%zu within noise, %zu unchanged (threshold %g %%)", rows->n,
		 count[V_WORSE], count[V_WORSE] == 1 ? "" : "s", count[V_BETTER],
		 count[V_BETTER] == 1 ? "" : "s", count[V_NOISE], count[V_SAME], threshold);
	add_s(ctx, "summary", buf);
	const char *so = r->sets[0].suite_sha256, *sn = r->sets[1].suite_sha256;
	if (so && sn && strcmp(so, sn))
		add_s(ctx, "suite_note", "The two sets were made from different suite files "
		      "(sha256 differs): only cells whose parameters match are compared.");
	cJSON_AddItemToObject(ctx, "rows", jrows);
	cJSON *w = cJSON_AddArrayToObject(ctx, "warnings");
	for (size_t i = 0; i < r->nwarns; i++)
		cJSON_AddItemToArray(w, cJSON_CreateString(r->warns[i].text));
}

/* stdout: the verdict first, then every regression and improvement. */
static void compare_print(const struct report *r, cJSON *ctx,
			  const struct cmp_rows *rows, const char *outdir)
{
	printf("compare: %s -> %s\n", r->sets[0].dir, r->sets[1].dir);
	printf("%s\n", cJSON_GetObjectItem(ctx, "summary")->valuestring);
	for (size_t i = 0; i < rows->n; i++) {
		const struct cmp_row *row = &rows->v[i];
		if (row->v != V_WORSE && row->v != V_BETTER)
			continue;
		printf("  %-11s %s: %s, %s%s%s %+.1f %%\n", verdict_words[row->v], row->device,
		       row->workload, row->metric, row->dir ? " " : "", row->dir ? row->dir : "",
		       row->change);
	}
	int no = cJSON_GetArraySize(cJSON_GetObjectItem(ctx, "only_old"));
	int nn = cJSON_GetArraySize(cJSON_GetObjectItem(ctx, "only_new"));
	if (no || nn)
		printf("%d cell%s only in OLD (or failed in NEW), %d only in NEW (or failed in OLD)\n",
		       no, no == 1 ? "" : "s", nn);
	printf("written: %s/compare.md, %s/compare.html\n", outdir, outdir);
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args a;
	struct errlist errs = ERRLIST_INIT;
	struct report r;
	bool loaded = false;
	struct cmp_rows rows = { 0 };
	struct tmpl *tmd = NULL, *thtml = NULL;
	char *css = NULL;
	struct outdir od = { .fd = -1 };
	cJSON *ctx = NULL;
	int rc = EXIT_USAGE;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (compare_args(argc, argv, &a) < 0)
		goto out;
	if (!(tmd = tmplpath_load("compare.md.tmpl", a.tdir, argv, &errs)) ||
	    !(thtml = tmplpath_load("compare.html.tmpl", a.tdir, argv, &errs)) ||
	    !(css = tmplpath_read("style.css", a.tdir, argv, &errs)))
		goto out_errs;

	rc = report_load_ex(&r, (char **)a.paths, 2, NULL, NULL, true, &errs);
	loaded = true;
	for (size_t s = 0; s < r.nsets; s++)
		for (size_t i = 0; i < r.sets[s].warnings.n; i++)
			fprintf(stderr, "iomatrix: warning: %s\n", r.sets[s].warnings.msgs[i]);
	if (rc)
		goto out_errs;

	rc = EXIT_RUNTIME;
	if (!(ctx = cJSON_CreateObject()))
		goto out;
	cJSON *only_old = cJSON_AddArrayToObject(ctx, "only_old");
	cJSON *only_new = cJSON_AddArrayToObject(ctx, "only_new");
	if (compare_match(&r, a.threshold, &rows, only_old, only_new) < 0)
		goto out;
	compare_ctx(ctx, &r, a.threshold, &rows);

	/* NEW/compare lives in a set that may come from anyone: never a link */
	int e = a.out ? outdir_open(&od, a.out, NULL, "compare", &errs) :
			outdir_open(&od, a.paths[1], "compare", "compare", &errs);
	if (e < 0) {
		rc = e == -1 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out_errs;
	}
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
	compare_print(&r, ctx, &rows, od.path);
	size_t worse = 0;
	for (size_t i = 0; i < rows.n; i++)
		worse += rows.v[i].v == V_WORSE;
	if (rc == EXIT_OK && a.fail_on_reg && worse)
		rc = EXIT_REGRESSION;
out_errs:
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", errs.msgs[i]);
out:
	cJSON_Delete(ctx);
	free(rows.v);
	if (loaded)
		report_release(&r);
	tmpl_free(tmd);
	tmpl_free(thtml);
	free(css);
	outdir_close(&od);
	errlist_release(&errs);
	return rc;
}
