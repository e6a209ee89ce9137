/*
 * cmd_site.c - `iomatrix site [DIR...] -o SITE/`: its option table, then
 * site_build() (report/archive/sitebuild.h) writes a static site of the
 * archive (site.h): index.html, devices/<slug>.html with trend charts,
 * suites/<slug>.html, sets/<slug>/report.html.  Incremental: SITE/
 * .iomatrix-site.json records each set's stamp and each page's input hash,
 * SITE/.cache/ keeps each set's record, so a rerun reads only new or
 * changed sets and rewrites only the pages whose inputs changed.  Every
 * file is reached through sitefs (no link inside the site is followed;
 * only recorded files with their recorded hash are removed); each set's
 * folder is an outdir with its own list.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "sections.h"
#include "archive/sitebuild.h"
#include "resultset/schema.h"

struct site_args {
	struct site_build_opts b;
	const char *charts;
};

#define B(f) OPT_AT(struct site_args, b.f)

static const struct option_spec site_opts[] = {
	{ "-o", "--out --output", .kind = OPTK_DIR, .arg = "SITE", .flags = OPT_REQUIRED, B(out),
	  .help = "where to write (created if missing)" },
	{ "--title", .kind = OPTK_STRING, B(title), .def = "Storage benchmark archive",
	  .help = "the site's title" },
	{ "--baseline", .kind = OPTK_STRING, .arg = "HOST:DEVICE", B(baseline),
	  .help = "the device suite pages give ratios against (default: the last ranked "
		  "of each suite)" },
	OPT_INCLUDE(history_series_opts, struct site_args, b.hist), /* as history's */
	{ "--charts", .kind = OPTK_WORD, .arg = "svg|none", .words = "svg none",
	  OPT_AT(struct site_args, charts), .def = "svg",
	  .help = "trend charts through gnuplot, or none" },
	{ "--template", .kind = OPTK_DIR, B(tdir),
	  .help = "take site_*.html.tmpl, style.css, site.css, site.js and "
		  "report.html.tmpl from DIR first" },
	{ "--all", .kind = OPTK_FLAG, B(all),
	  .help = "also the repository's example and reference sets (examples/ and "
		  "reference/ below DIR), which, as in list and history, count only when "
		  "asked for" },
	{ NULL },
};

int cmd_site(const struct cmd_call *c)
{
	struct site_args *a = c->opts;
	const struct optlist *ops = c->ops;
	struct site_build_stats st;

	a->b.charts = !strcmp(a->charts, "svg");
	const char *root = resultset_root(); /* arc_scan only reads it */
	int rc = site_build(&a->b, ops->n ? (char **)ops->v : (char **)&root, ops->n ? ops->n : 1,
			    c->argv, &st, c->errs);
	if (st.built) {
		printf("site: %s/index.html\n", a->b.out);
		printf("  %zu set%s (%ld read afresh), %zu suite%s; %zu of %zu page%s written\n",
		       st.nsets, st.nsets == 1 ? "" : "s", st.fresh, st.nsuites,
		       st.nsuites == 1 ? "" : "s", st.written, st.total, st.total == 1 ? "" : "s");
	}
	return rc;
}

const struct command_spec site_spec = {
	.name = "site", .forms = { "[DIR...]" }, OPTSPEC_OPTS(site_opts, struct site_args),
	.opts_init = &(const struct site_args){
		.b = { .sections = report_sections, .hist = { .metric = -1 } } },
	.operand = OPTK_DIR,
	.about =
	"Write a static site of the result sets under DIR (default\n"
	"$IOMATRIX_RESULTS or ./results): an index of every set (sortable and\n"
	"filterable in the page), a page per device with a trend chart per\n"
	"workload (change points and environment changes marked, as 'iomatrix\n"
	"history' finds them), a page per suite ranking every device that ran it,\n"
	"and each set's HTML report (made from its numbers; with charts for sets\n"
	"that have a report of their own).  Pages are self-contained and work\n"
	"from file:// or any static host.  A rerun rewrites only the pages whose\n"
	"inputs changed (SITE/.iomatrix-site.json lists them).",
};
