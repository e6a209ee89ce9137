/*
 * cmd_site.c - `iomatrix site [DIR...] -o SITE/`: the options, then
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
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sections.h"
#include "archive/sitebuild.h"
#include "model/ratio.h"
#include "resultset/schema.h"

static const struct option_spec site_opts[] = {
	{ "-o", "--out --output", "SITE", .flags = OPT_REQUIRED, .value = OPTV_DIR },
	{ "--title", NULL, "TEXT" },
	{ "--baseline", NULL, "HOST:DEVICE" },
	{ "--threshold", NULL, "PCT" },
	{ "--same", NULL, "A=B", .flags = OPT_REPEAT },
	{ "--charts", NULL, "svg|none", .value = OPTV_WORDS, .words = "svg none" },
	{ "--template", NULL, "DIR", .value = OPTV_DIR },
	{ "--all", NULL, NULL },
	{ NULL },
};

const struct command_spec site_spec = {
	.name = "site", .forms = { "[DIR...]" }, .opts = site_opts,
	.operand = OPTV_DIR,
};

static void usage(FILE *f)
{
	optspec_usage(f, &site_spec);
	fprintf(f,
		"\n"
		"Write a static site of the result sets under DIR (default\n"
		"$IOMATRIX_RESULTS or ./results): an\n"
		"index of every set (sortable and filterable in the page), a page per device\n"
		"with a trend chart per workload (change points and environment changes\n"
		"marked, as 'iomatrix history' finds them), a page per suite ranking every\n"
		"device that ran it, and each set's HTML report (made from its numbers;\n"
		"with charts for sets that have a report of their own).  Pages are self-contained\n"
		"and work from file:// or any static host.  A rerun rewrites only the\n"
		"pages whose inputs changed (SITE/.iomatrix-site.json lists them).\n\n"
		"  -o, --out SITE        where to write (created if missing; --output\n"
		"                        also works)\n"
		"  --title TEXT          the site's title (default 'Storage benchmark archive')\n"
		"  --baseline HOST:DEV   the device suite pages give ratios against (default:\n"
		"                        the last ranked of each suite)\n"
		"  --threshold PCT       smallest change that counts (default 5)\n"
		"  --same A=B            treat device B as device A (as history)\n"
		"  --charts svg|none     trend charts through gnuplot (default svg)\n"
		"  --template DIR        take site_*.html.tmpl, style.css, site.css, site.js\n"
		"                        and report.html.tmpl from DIR first\n"
		"  --all                 also the repository's example and reference sets\n"
		"                        (examples/ and reference/ below DIR), which, as\n"
		"                        in list and history, count only when asked for\n");
}

static int parse_args(int argc, char **argv, struct site_build_opts *o, char **dirs, size_t *ndirs,
		      char **same)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool val = cli_is_out(a) || !strcmp(a, "--title") ||
			   !strcmp(a, "--baseline") || !strcmp(a, "--threshold") ||
			   !strcmp(a, "--same") || !strcmp(a, "--charts") || !strcmp(a, "--template");
		if (val && i + 1 >= argc) {
			fprintf(stderr, "iomatrix: option '%s' needs a value\n", a);
			return -1;
		}
		if (cli_is_out(a)) {
			o->out = argv[++i];
		} else if (!strcmp(a, "--title")) {
			o->title = argv[++i];
		} else if (!strcmp(a, "--baseline")) {
			o->baseline = argv[++i];
		} else if (!strcmp(a, "--template")) {
			o->tdir = argv[++i];
		} else if (!strcmp(a, "--same")) {
			same[o->hist.nsame++] = argv[++i];
		} else if (!strcmp(a, "--charts")) {
			const char *c = argv[++i];
			if (strcmp(c, "svg") && strcmp(c, "none")) {
				fprintf(stderr, "iomatrix: bad --charts '%s' (svg or none)\n", c);
				return -1;
			}
			o->charts = !strcmp(c, "svg");
		} else if (!strcmp(a, "--all")) {
			o->all = true;
		} else if (!strcmp(a, "--threshold")) {
			if (ratio_parse_threshold(argv[++i], &o->hist.threshold) < 0)
				return -1;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "iomatrix: unknown option '%s' (see 'iomatrix site --help')\n", a);
			return -1;
		} else {
			dirs[(*ndirs)++] = argv[i];
		}
	}
	if (!o->out) {
		fprintf(stderr, "iomatrix: say where the site goes with -o SITE "
			"(e.g. 'iomatrix site results/ -o site/')\n");
		return -1;
	}
	o->hist.same = same;
	return 0;
}

int cmd_site(int argc, char **argv)
{
	struct site_build_opts o = { .title = "Storage benchmark archive", .charts = true,
				     .sections = report_sections,
				     .hist = { .metric = -1, .threshold = 5 } };
	char **dirs = calloc((size_t)argc + 1, sizeof(char *));
	char **same = calloc((size_t)argc + 1, sizeof(char *));
	size_t ndirs = 0;
	struct errlist errs = ERRLIST_INIT;
	struct site_build_stats st;
	int rc = EXIT_USAGE;

	if (!dirs || !same) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		rc = EXIT_OK;
		goto out;
	}
	if (parse_args(argc, argv, &o, dirs, &ndirs, same) < 0)
		goto out;
	if (!ndirs)
		dirs[ndirs++] = (char *)resultset_root(); /* arc_scan only reads it */
	rc = site_build(&o, dirs, ndirs, argv, &st, &errs);
	if (st.built) {
		printf("site: %s/index.html\n", o.out);
		printf("  %zu set%s (%ld read afresh), %zu suite%s; %zu of %zu page%s written\n",
		       st.nsets, st.nsets == 1 ? "" : "s", st.fresh, st.nsuites,
		       st.nsuites == 1 ? "" : "s", st.written, st.total, st.total == 1 ? "" : "s");
	}
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", errs.msgs[i]);
out:
	free(dirs);
	free(same);
	errlist_release(&errs);
	return rc;
}
