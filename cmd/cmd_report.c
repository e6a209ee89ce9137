/*
 * cmd_report.c - `iomatrix report SET... [-o DIR] [--baseline DEVICE]
 * [--format md,html,csv,json] [--charts summary|all|none[,svg,png]]
 * [--chart-scale auto|linear|log] [--no-ci] [--template DIR] [--title TEXT]`:
 * the options, then report_build() (report/build/build.h) writes
 * report.md, report.html, report.csv, report.json and charts/ into
 * SET/report or DIR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "cli.h"
#include "sections.h"
#include "model/report.h"

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

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .format = "md,html,csv,json", .charts = "summary",
				 .cscale = "auto" };
	struct errlist errs = ERRLIST_INIT;
	struct report_build b = { .od = { .fd = -1 } };
	int rc = EXIT_USAGE;

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
	if (!a.out && a.nsets > 1) {
		fprintf(stderr, "iomatrix: %zu result sets given; say where the report "
			"goes with -o DIR\n", a.nsets);
		goto out;
	}
	/* no image format named: both */
	bool fmt_named = report_list_has(a.charts, "svg") || report_list_has(a.charts, "png");
	struct report_build_opts o = {
		.sets = a.sets, .nsets = a.nsets, .out = a.out, .baseline = a.baseline,
		.title = a.title, .tdir = a.tdir, .argv = argv, .format = a.format,
		.sections = report_sections,
		.charts = {
			.svg = (!fmt_named || report_list_has(a.charts, "svg")) &&
			       !report_list_has(a.charts, "none"),
			.png = (!fmt_named || report_list_has(a.charts, "png")) &&
			       !report_list_has(a.charts, "none"),
			.mode = report_list_has(a.charts, "all") ? CHART_ALL : CHART_SUMMARY,
			.scale = !strcmp(a.cscale, "log") ? CHART_SCALE_LOG :
				 !strcmp(a.cscale, "linear") ? CHART_SCALE_LINEAR :
				 CHART_SCALE_AUTO,
		},
	};
	rc = report_build(&o, &b, stderr, &errs);
	/* the listing says "written": only when it is true */
	if (rc == EXIT_OK)
		report_build_print(&b, stdout, stderr);
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", errs.msgs[i]);
out:
	report_build_release(&b);
	free(a.sets);
	errlist_release(&errs);
	return rc;
}
