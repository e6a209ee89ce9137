/*
 * cmd_compare.c - `iomatrix compare OLD NEW`: its option table, then
 * compare_build() (report/build/build.h: the pairing and the verdicts of
 * compare/compare.h, written as a report is), the verdict lines and the
 * exit code they ask for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model/ratio.h"
#include "build/build.h"
#include "sections.h"

struct copts {
	const char *out, *tdir, *format;
	double threshold;       /* -1: not given */
	bool fail_on_reg, fail_on_inconc;
	struct optlist map;     /* "OLD=NEW" */
};

static const struct option_spec compare_opts[] = {
	{ "-o", "--out --output", .kind = OPTK_DIR, OPT_AT(struct copts, out),
	  .help = "where to write (default: NEW_SET/compare); - writes the one --format "
		  "named to standard output (the verdict lines then go to standard error)" },
	{ "--threshold", .kind = OPTK_PERCENT, OPT_AT(struct copts, threshold),
	  OPT_FROM_BELOW(0, 1e6),
	  .help = "smallest change that counts (default 5; when NEW reproduces OLD, the "
		  "tolerance it recorded)" },
	{ "--map", .kind = OPTK_PAIR, .arg = "OLD=NEW", .flags = OPT_REPEAT,
	  OPT_AT(struct copts, map),
	  .help = "pair device OLD of the old set with NEW of the new set (names may "
		  "differ)" },
	{ "--format", .kind = OPTK_WORDS, .arg = "md,html,json,junit,bmf",
	  .words = "md html json junit bmf", OPT_AT(struct copts, format), .def = "md,html,json",
	  .help = "which files to write: any of md (compare.md), html (compare.html), json "
		  "(compare.json), junit (compare.junit.xml: JUnit XML, one test case per "
		  "workload; a regression fails, an inconclusive change is skipped), bmf "
		  "(compare.bmf.json: Bencher's metric format, the new set's mean and its "
		  "95 % CI)" },
	{ "--fail-on-regression", .kind = OPTK_FLAG, OPT_AT(struct copts, fail_on_reg),
	  .help = "exit 3 when a regression is found" },
	{ "--fail-on-inconclusive", .kind = OPTK_FLAG, OPT_AT(struct copts, fail_on_inconc),
	  .help = "exit 4 when a change beyond the threshold is inconclusive (and no "
		  "regression was found)" },
	{ "--template", .kind = OPTK_DIR, OPT_AT(struct copts, tdir),
	  .help = "take compare.md.tmpl / compare.html.tmpl from DIR" },
	{ NULL },
};

/* --map's "OLD=NEW" words into map (the old names copied).  -1 with the
 * message printed. */
static int compare_map_args(const struct optlist *l, struct compare_map *map)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *v = l->v[i], *eq = strchr(v, '=');
		char *o = map->n < COMPARE_MAP_MAX ? strndup(v, (size_t)(eq - v)) : NULL;
		if (!o) {
			fprintf(stderr, "iomatrix: too many --map (at most %d)\n", COMPARE_MAP_MAX);
			return -1;
		}
		map->old[map->n] = o;
		map->new[map->n++] = eq + 1;
	}
	return 0;
}

/* The exit code a finished comparison asks for (rc: EXIT_OK so far). */
static int verdict_exit(const struct copts *o, const struct compare *c, int rc)
{
	if (rc == EXIT_OK && o->fail_on_reg && c->count[CMP_WORSE])
		return EXIT_REGRESSION;
	if (rc == EXIT_OK && o->fail_on_inconc && c->inconclusive_beyond)
		return EXIT_INCONCLUSIVE;
	return rc;
}

int cmd_compare(const struct cmd_call *c)
{
	const struct copts *o = c->opts;
	struct compare_map map = { 0 };
	struct errlist errs = ERRLIST_INIT;
	struct compare_build b = { .od.fd = -1 };
	bool to_stdout = optspec_is_stdout(o->out);
	int rc = EXIT_USAGE;

	if (compare_map_args(&o->map, &map) < 0)
		goto out;
	if (to_stdout && strchr(o->format, ',')) {
		fprintf(stderr, "iomatrix: compare: -o - writes one document to standard output, "
			"but --format asks for %s: name one of md, html, json, junit, bmf "
			"(--format junit -o -)\n", o->format);
		goto out;
	}
	struct compare_build_opts bo = {
		.paths = { c->ops->v[0], c->ops->v[1] }, .out = to_stdout ? NULL : o->out,
		.docf = to_stdout ? stdout : NULL, .tdir = o->tdir, .argv = c->argv,
		.format = o->format, .threshold = o->threshold < 0 ? 5 : o->threshold,
		.threshold_given = o->threshold >= 0, .map = &map, .sections = report_sections,
		.step_summary = getenv("GITHUB_STEP_SUMMARY"),
	};
	rc = compare_build(&bo, &b, stderr, &errs);
	/* stdout holds the document alone with -o - */
	compare_build_print(&b, rc, to_stdout ? stderr : stdout);
	if (b.judged)
		rc = verdict_exit(o, &b.c, rc);
	errlist_print_as(&errs, stderr, "iomatrix: ");
out:
	compare_build_release(&b);
	for (size_t i = 0; i < map.n; i++)
		free((char *)map.old[i]);
	errlist_release(&errs);
	return rc;
}

const struct command_spec compare_spec = {
	.name = "compare", .forms = { "OLD_SET NEW_SET" }, OPTSPEC_OPTS(compare_opts, struct copts),
	.opts_init = &(const struct copts){ .threshold = -1 },
	.operand = OPTK_DIR,
	.about =
	"Pair the workloads of two result sets (same device name and parameters)\n"
	"and give each pair one verdict from its primary metric: MB/s for blocks\n"
	"of 64 KiB and more, mean latency for latency cells (label starting LAT),\n"
	"IOPS otherwise.  The change is judged by the confidence interval of the\n"
	"ratio new/old (Welch's t on the logs of the repetitions; Bonferroni over\n"
	"every pair compared, family-wise 95 %): a regression or an improvement\n"
	"when the whole interval lies beyond the threshold, \"no change\" when it\n"
	"lies within it, \"inconclusive\" otherwise: the data rule out neither,\n"
	"and more repetitions would tell.  With fewer than " OPTSPEC_STR(VERDICT_MIN_REPS) " repetitions on\n"
	"either side there is no verdict (\"not enough repetitions to judge\").\n"
	"Writes compare.md, compare.html and compare.json to DIR (default\n"
	"NEW_SET/compare, derived output with its own SHA256SUMS: the set's own\n"
	"checksums, and so verify, list, history and site, are unchanged), and\n"
	"for CI compare.junit.xml and compare.bmf.json when --format asks.\n"
	"When GITHUB_STEP_SUMMARY names a file (GitHub Actions sets it), the\n"
	"verdicts are appended to it as a Markdown table; a file that cannot be\n"
	"written is a warning and leaves the exit code as it is.",
	.epilog =
	"Exit: 0 compared; 2 bad usage or no workload matched; 3 regression with\n"
	"--fail-on-regression; 4 an inconclusive change beyond the threshold with\n"
	"--fail-on-inconclusive.",
};
