/*
 * cmd_report.c - `iomatrix report SET...`: its option table, then
 * report_build() (report/build/build.h) writes report.md, report.html,
 * report.csv, report.json and charts/ into SET/report or DIR.
 */
#include <stdio.h>

#include "build/build.h"
#include "cli.h"
#include "sections.h"
#include "model/report.h"

/* The command line of `report`. */
struct report_args {
	const char *out, *baseline, *format, *charts, *tdir, *title;
	int cscale;                 /* enum chart_scale: the word's index */
	bool no_ci;
};

#define A(f) OPT_AT(struct report_args, f)

static const struct option_spec report_opts[] = {
	{ "-o", "--out --output", .kind = OPTK_DIR, A(out),
	  .help = "where to write (created if missing)" },
	{ "--baseline", .kind = OPTK_STRING, .arg = "DEVICE", A(baseline),
	  .help = "device the ratios compare against (default: the first)" },
	{ "--format", .kind = OPTK_WORDS, .arg = "md,html,csv,json", .words = "md html csv json",
	  A(format), .def = "md,html,csv,json", .help = "which files to write" },
	{ "--charts", .kind = OPTK_WORDS, .arg = "summary|all|none[,svg,png]",
	  .words = "summary all none svg png", A(charts), .def = "summary",
	  .help = "which charts: summary (overview bars, a CrystalDiskMark-style panel, "
		  "sweeps, latency and time series of latency, write and long cells), all "
		  "(also every workload's latency and time series) or none; and the image "
		  "formats, svg and/or png (default both), e.g. --charts all,png; needs "
		  "gnuplot" },
	/* the words in the order of enum chart_scale */
	{ "--chart-scale", .kind = OPTK_WORD, .arg = "auto|linear|log",
	  .words = "auto linear log", A(cscale),
	  .help = "bar and line y axes: auto (default: log only when values span more than "
		  "100x), linear or log" },
	{ "--no-ci", .kind = OPTK_FLAG, A(no_ci),
	  .help = "plain values in the tables, without +- 95 % CI" },
	{ "--template", .kind = OPTK_DIR, A(tdir),
	  .help = "take report.md.tmpl, report.html.tmpl, style.css from DIR (default: "
		  "$IOMATRIX_TEMPLATES, then the templates/ installed with iomatrix)" },
	{ "--title", .kind = OPTK_STRING, A(title),
	  .help = "report title (default: the suite's title)" },
	{ NULL },
};

int cmd_report(const struct cmd_call *c)
{
	const struct report_args *a = c->opts;
	struct report_build b = { .od = { .fd = -1 } };

	if (!a->out && c->ops->n > 1) {
		fprintf(stderr, "iomatrix: %zu result sets given; say where the report "
			"goes with -o DIR\n", c->ops->n);
		return EXIT_USAGE;
	}
	fmt_show_ci = !a->no_ci;
	/* no image format named: both */
	bool fmt_named = report_list_has(a->charts, "svg") || report_list_has(a->charts, "png");
	bool none = report_list_has(a->charts, "none");
	struct report_build_opts o = {
		.sets = (char **)c->ops->v, .nsets = c->ops->n, .out = a->out,
		.baseline = a->baseline, .title = a->title, .tdir = a->tdir, .argv = c->argv,
		.format = a->format, .sections = report_sections,
		.charts = {
			.svg = (!fmt_named || report_list_has(a->charts, "svg")) && !none,
			.png = (!fmt_named || report_list_has(a->charts, "png")) && !none,
			.mode = report_list_has(a->charts, "all") ? CHART_ALL : CHART_SUMMARY,
			.scale = a->cscale,
		},
	};
	int rc = report_build(&o, &b, stderr, c->errs);
	/* the listing says "written": only when it is true */
	if (rc == EXIT_OK)
		report_build_print(&b, stdout, stderr);
	report_build_release(&b);
	return rc;
}

const struct command_spec report_spec = {
	.name = "report", .forms = { "SET..." }, OPTSPEC_OPTS(report_opts, struct report_args),
	.operand = OPTK_DIR,
	.about =
	"Turn one or more result sets into a report: tables per workload (one row\n"
	"per device: IOPS, MB/s, mean and p99 latency, +- 95 % CI when repeated),\n"
	"ratios against the baseline device, warnings, method and environment.\n"
	"Output goes to SET/report/ for one set, to -o DIR otherwise.",
};
