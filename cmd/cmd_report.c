/*
 * cmd_report.c - `iomatrix report SET... [-o DIR] [--baseline DEVICE]
 * [--format md,html,csv,json] [--charts summary|all|none[,svg,png]]
 * [--chart-scale auto|linear|log] [--no-ci] [--template DIR] [--title TEXT]`:
 * load result sets, then write report.md, report.html, report.csv,
 * report.json and charts/ into SET/report or DIR.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "charts/chart.h"
#include "util/fsutil.h"
#include "cli.h"
#include "util/termesc.h"
#include "render/outdir.h"
#include "render/render.h"
#include "resultset/resultset.h"
#include "resultset/sums.h"
#include "model/report.h"
#include "render/template.h"
#include "render/tmplpath.h"
#include "sections.h"

static const struct option_spec report_opts[] = {
	{ "-o", "--out --output", "DIR", .value = OPTV_DIR },
	{ "--baseline", NULL, "DEVICE" },
	{ "--format", NULL, "md,html,csv,json", .value = OPTV_WORDS,
	  .words = "md html csv json md,html,csv,json" },
	{ "--charts", NULL, "summary|all|none[,svg,png]", .value = OPTV_WORDS,
	  .words = "summary all none svg png summary,png all,png" },
	{ "--chart-scale", NULL, "auto|linear|log", .value = OPTV_WORDS,
	  .words = "auto linear log" },
	{ "--no-ci" },
	{ "--template", NULL, "DIR", .value = OPTV_DIR },
	{ "--title", NULL, "TEXT" },
	{ NULL },
};

const struct command_spec report_spec = {
	.name = "report", .forms = { "SET..." }, .opts = report_opts,
	.operand = OPTV_DIR,
};

static void usage(FILE *f)
{
	optspec_usage(f, &report_spec);
	fprintf(f,
		"\n"
		"Turn one or more result sets into a report: tables per workload (one row\n"
		"per device: IOPS, MB/s, mean and p99 latency, +- 95 %% CI when repeated),\n"
		"ratios against the baseline device, warnings, method and environment.\n"
		"Output goes to SET/report/ for one set, to -o DIR otherwise.\n\n"
		"  -o, --out DIR        where to write (created if missing; --output\n"
		"                       also works)\n"
		"  --baseline DEVICE    device the ratios compare against (default: first)\n"
		"  --format LIST        any of md,html,csv,json (default: all)\n"
		"  --charts LIST        which charts: summary (default: overview bars, a\n"
		"                       CrystalDiskMark-style panel, sweeps, latency and\n"
		"                       time series of latency, write and long cells), all\n"
		"                       (also every workload's latency and time series) or\n"
		"                       none; and the image formats, svg and/or png (default\n"
		"                       both), e.g. --charts all,png; needs gnuplot\n"
		"  --chart-scale S      bar and line y axes: auto (default: log only when\n"
		"                       values span more than 100x), linear or log\n"
		"  --no-ci              plain values in the tables, without +- 95 %% CI\n"
		"  --template DIR       take report.md.tmpl, report.html.tmpl, style.css\n"
		"                       from DIR (default: $IOMATRIX_TEMPLATES, then the\n"
		"                       templates/ installed with iomatrix)\n"
		"  --title TEXT         report title (default: the suite's title)\n");
}

static bool list_has(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == wl && !strncmp(p, word, wl))
			return true;
		p = c ? c + 1 : NULL;
	}
	return false;
}

static bool list_valid(const char *list, const char *const *words, size_t n,
		       const char *what)
{
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		bool ok = false;
		for (size_t i = 0; i < n; i++)
			ok |= strlen(words[i]) == l && !strncmp(p, words[i], l);
		if (!ok) {
			fprintf(stderr, "iomatrix: unknown %s '%.*s' (use ", what, (int)l, p);
			for (size_t i = 0; i < n; i++)
				fprintf(stderr, "%s%s", i ? ", " : "", words[i]);
			fprintf(stderr, ")\n");
			return false;
		}
		p = c ? c + 1 : NULL;
	}
	return true;
}

/* fio-commands.txt: the equivalent fio command of every cell.  0 or -1. */
static int write_fio_commands(const struct report *r, struct outdir *od,
			      struct errlist *errs)
{
	struct sbuf fio = SBUF_INIT;
	int ret;

	sbuf_adds(&fio, "# fio command lines equivalent to each cell (device: workload)\n");
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++) {
			const struct rentry *e = &r->groups[gi].e[k];
			sbuf_adds(&fio, "\n# ");
			/* a comment line: keep it one line */
			escape_append(&fio, r->devs[e->dev].display, ESC_MD);
			sbuf_adds(&fio, ": ");
			escape_append(&fio, r->groups[gi].title, ESC_MD);
			sbuf_addc(&fio, '\n');
			report_fio_command(e->cell, rdev_is_dir(&r->devs[e->dev]), &fio);
			sbuf_addc(&fio, '\n');
		}
	ret = outdir_write(od, "fio-commands.txt", sbuf_str(&fio), fio.len, errs);
	sbuf_release(&fio);
	return ret;
}

/* What write_documents() writes and with which templates. */
struct report_docs {
	struct tmpl *tmd, *thtml;
	const char *css;
	const char **files;         /* name, description, ... for the templates */
	size_t nfiles;
	bool md, html, csv, json;
};

/* report.md, report.html, report.csv, report.json as asked.  0, or -1
 * when one failed (the others are still written). */
static int write_documents(const struct report *r, const struct chart_set *cs,
			   const struct report_docs *d, struct outdir *od,
			   struct errlist *errs)
{
	struct sbuf buf = SBUF_INIT;
	int ret = 0;

	if (d->md) {
		cJSON *ctx = report_context(r, cs, false, d->files, d->nfiles);
		if (!ctx || tmpl_render(d->tmd, ctx, ESC_MD, &buf) < 0 ||
		    outdir_write(od, "report.md", sbuf_str(&buf), buf.len, errs) < 0)
			ret = -1;
		cJSON_Delete(ctx);
		sbuf_reset(&buf);
	}
	if (d->html) {
		cJSON *ctx = report_context(r, cs, true, d->files, d->nfiles);
		if (ctx)
			cJSON_AddStringToObject(ctx, "css", d->css);
		if (!ctx || tmpl_render(d->thtml, ctx, ESC_HTML, &buf) < 0 ||
		    outdir_write(od, "report.html", sbuf_str(&buf), buf.len, errs) < 0)
			ret = -1;
		cJSON_Delete(ctx);
		sbuf_reset(&buf);
	}
	if (d->csv) {
		if (report_write_csv(r, &buf) < 0 ||
		    outdir_write(od, "report.csv", sbuf_str(&buf), buf.len, errs) < 0)
			ret = -1;
		sbuf_reset(&buf);
	}
	if (d->json) {
		cJSON *j = report_json(r);
		char *s = j ? cJSON_Print(j) : NULL;
		if (!s || outdir_write(od, "report.json", s, strlen(s), errs) < 0)
			ret = -1;
		free(s);
		cJSON_Delete(j);
	}
	sbuf_release(&buf);
	return ret;
}

/* The command line of `report`. */
struct report_args {
	const char *out, *baseline, *format, *charts, *tdir, *title, *cscale;
	char **sets;                /* argc + 1 slots, owned by the caller */
	size_t nsets;
};

/* Read the options and set names into a; a->sets is allocated by the
 * caller.  0 ok, -1 on a usage error (message printed). */
static int report_args_parse(int argc, char **argv, struct report_args *a)
{
	static const char *const fmts[] = { "md", "html", "csv", "json" };
	static const char *const chs[] = { "svg", "png", "none", "all", "summary" };
	static const char *const scales[] = { "auto", "linear", "log" };

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char **dst = NULL;
		if (cli_is_out(o))
			dst = &a->out;
		else if (!strcmp(o, "--baseline"))
			dst = &a->baseline;
		else if (!strcmp(o, "--format"))
			dst = &a->format;
		else if (!strcmp(o, "--charts"))
			dst = &a->charts;
		else if (!strcmp(o, "--template"))
			dst = &a->tdir;
		else if (!strcmp(o, "--title"))
			dst = &a->title;
		else if (!strcmp(o, "--chart-scale"))
			dst = &a->cscale;
		else if (!strcmp(o, "--no-ci")) {
			fmt_show_ci = false;
			continue;
		}
		else if (o[0] == '-' && o[1]) {
			fprintf(stderr, "iomatrix: unknown option '%s' (see 'iomatrix report --help')\n", o);
			return -1;
		} else {
			a->sets[a->nsets++] = argv[i];
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "iomatrix: option '%s' needs a value\n", o);
			return -1;
		}
		*dst = argv[++i];
	}
	if (!a->nsets) {
		fprintf(stderr, "iomatrix: no result set given (e.g. 'iomatrix report results/2026-...')\n");
		usage(stderr);
		return -1;
	}
	if (!list_valid(a->format, fmts, 4, "format") ||
	    !list_valid(a->charts, chs, 5, "chart set") ||
	    !list_valid(a->cscale, scales, 3, "chart scale"))
		return -1;
	if (strchr(a->cscale, ',')) {
		fprintf(stderr, "iomatrix report: --chart-scale takes one of auto, linear, log\n");
		return -1;
	}
	return 0;
}

/* The files of this report as name, description pairs (for the templates
 * and the closing listing).  Returns the number of strings in files[]. */
static size_t report_files(const char **files, bool md, bool html,
			   const char *format, bool charts)
{
	size_t nf = 0;

	if (md) { files[nf++] = "report.md"; files[nf++] = "this report in GitHub-flavoured Markdown"; }
	if (html) { files[nf++] = "report.html"; files[nf++] = "this report as one self-contained HTML page"; }
	if (list_has(format, "csv")) { files[nf++] = "report.csv"; files[nf++] = "one row per cell, device and direction: every parameter and metric"; }
	if (list_has(format, "json")) { files[nf++] = "report.json"; files[nf++] = "the aggregated numbers behind the tables"; }
	files[nf++] = "fio-commands.txt"; files[nf++] = "the equivalent fio command of every cell";
	if (charts) { files[nf++] = "charts/"; files[nf++] = "each chart as .svg/.png with its gnuplot script (.gp) and data (.dat): gnuplot all.gp re-plots them"; }
	return nf;
}

/* What was written, the summary lines and the warning count. */
static void report_print_done(const struct report *r, const struct chart_set *cs,
			      const char *outdir, const char **files, size_t nf)
{
	printf("report: %s/\n", outdir);
	for (size_t i = 0; i < nf; i += 2)
		printf("  %s\n", files[i]);
	if (cs->n)
		printf("  %zu chart%s\n", cs->n, cs->n == 1 ? "" : "s");
	for (size_t i = 0; i < r->nsummary; i++)
		printf("%s\n", r->summary[i]);
	if (r->nwarns)
		printf("%zu warning%s: see the Warnings section\n", r->nwarns, r->nwarns == 1 ? "" : "s");
	if (cs->note)
		fprintf(stderr, "iomatrix: %s\n", cs->note);
}

int cmd_report(int argc, char **argv)
{
	char wb[1400];   /* a warning, made inert for the terminal (termesc.h) */
	struct report_args a = { .format = "md,html,csv,json", .charts = "summary",
				 .cscale = "auto" };
	struct errlist errs = ERRLIST_INIT;
	struct report r;
	struct chart_set cs;
	struct tmpl *tmd = NULL, *thtml = NULL;
	char *css = NULL;
	const char *outdir = NULL;
	struct outdir od = { .fd = -1 };
	int rc = EXIT_USAGE;
	bool loaded = false;

	memset(&cs, 0, sizeof(cs));
	a.sets = calloc((size_t)argc + 1, sizeof(char *));
	if (!a.sets)
		return EXIT_RUNTIME;
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		free(a.sets);
		return EXIT_OK;
	}
	if (report_args_parse(argc, argv, &a) < 0)
		goto out;
	const char *format = a.format, *charts = a.charts, *cscale = a.cscale;
	const char *out = a.out, *tdir = a.tdir;
	char **sets = a.sets;
	size_t nsets = a.nsets;
	bool want_md = list_has(format, "md"), want_html = list_has(format, "html");
	/* no format named: both */
	bool fmt_named = list_has(charts, "svg") || list_has(charts, "png");
	bool want_svg = (!fmt_named || list_has(charts, "svg")) && !list_has(charts, "none");
	bool want_png = (!fmt_named || list_has(charts, "png")) && !list_has(charts, "none");
	struct chart_opts copts = {
		.mode = list_has(charts, "all") ? CHART_ALL : CHART_SUMMARY,
		.scale = !strcmp(cscale, "log") ? CHART_SCALE_LOG :
			 !strcmp(cscale, "linear") ? CHART_SCALE_LINEAR : CHART_SCALE_AUTO,
	};
	if (!want_md && !want_html)
		want_svg = want_png = false;
	if (!out && nsets > 1) {
		fprintf(stderr, "iomatrix: %zu result sets given; say where the report "
			"goes with -o DIR\n", nsets);
		goto out;
	}

	/* templates first: a malformed one stops us before anything is written */
	if (want_md && !(tmd = tmplpath_load("report.md.tmpl", tdir, argv, &errs)))
		goto out_errs;
	if (want_html) {
		if (!(thtml = tmplpath_load("report.html.tmpl", tdir, argv, &errs)))
			goto out_errs;
		if (!(css = tmplpath_read("style.css", tdir, argv, &errs)))
			goto out_errs;
	}

	rc = report_load(&r, sets, nsets, a.baseline, a.title, report_sections, &errs);
	loaded = true;
	for (size_t s = 0; s < r.nsets; s++)
		for (size_t i = 0; i < r.sets[s].warnings.n; i++)
			fprintf(stderr, "iomatrix: warning: %s\n",
				termesc(r.sets[s].warnings.msgs[i], wb, sizeof(wb)));
	if (rc != 0)
		goto out_errs;

	/* -o DIR is the user's; SET/report lives in a set that may come from
	 * anyone, so its 'report' must be a real directory, not a link */
	int e = out ? outdir_open(&od, out, NULL, "report", &errs) :
		      outdir_open(&od, sets[0], "report", "report", &errs);
	if (e < 0) {
		rc = e == -1 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out_errs;
	}
	outdir = od.path;
	rc = EXIT_OK;
	copts.svg = want_svg;
	copts.png = want_png;
	int cr = chart_render_all(&r, &od, &copts, &cs, &errs);
	if (cr == 2) { /* charts/ is a planted link: refuse, write nothing */
		rc = EXIT_USAGE;
		goto out_errs;
	}
	if (cr != 0)
		rc = EXIT_RUNTIME;  /* tables are still written */

	if (write_fio_commands(&r, &od, &errs) < 0)
		rc = EXIT_RUNTIME;

	const char *files[24];
	size_t nf = report_files(files, want_md, want_html, format, cs.n > 0);

	struct report_docs docs = { tmd, thtml, css, files, nf, want_md, want_html,
				    list_has(format, "csv"), list_has(format, "json") };
	if (write_documents(&r, &cs, &docs, &od, &errs) < 0)
		rc = EXIT_RUNTIME;
	/* last: stale files of an earlier report go only once the new
	 * report.md exists, and only those an earlier iomatrix listed */
	if (outdir_finish(&od, &errs) < 0)
		rc = EXIT_RUNTIME;
	/* the report's own SHA256SUMS (a set's list leaves report/ out) */
	int sr = rc == EXIT_OK ? sums_write_at(od.fd, 0) : 0;
	if (sr < 0) {
		errlist_add(&errs, NULL, 0, 0, "cannot write '%s/%s': %s", outdir,
			    SUMS_FILE, strerror(-sr));
		rc = EXIT_RUNTIME;
	}

	/* the listing says "written": only when it is true */
	if (rc == EXIT_OK)
		report_print_done(&r, &cs, outdir, files, nf);
out_errs:
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", errs.msgs[i]);
out:
	if (loaded)
		report_release(&r);
	chart_set_release(&cs);
	tmpl_free(tmd);
	tmpl_free(thtml);
	free(css);
	outdir_close(&od);
	free(a.sets);
	errlist_release(&errs);
	return rc;
}
