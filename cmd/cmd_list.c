/*
 * cmd_list.c - `iomatrix list [RESULTS_DIR] [--all] [--format text|json]`:
 * the archive at a glance, one line per result set (date, suite, host,
 * devices, scale, cells done/total, status, path), newest first: the
 * options, then report/archive/setlist.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "archive/setlist.h"
#include "resultset/schema.h"

static const struct option_spec list_opts[] = {
	{ "--all" },
	{ "--format", NULL, "text|json", .value = OPTV_WORDS, .words = "text json" },
	{ NULL },
};

const struct command_spec list_spec = {
	.name = "list", .forms = { "[RESULTS_DIR]" }, .opts = list_opts,
	.operand = OPTV_DIR,
};

static void usage(FILE *f)
{
	optspec_usage(f, &list_spec);
	fprintf(f, "\n"
		   "List the result sets under RESULTS_DIR (default $IOMATRIX_RESULTS or\n"
		   "./results), newest first: date, suite, host, devices, scale (below 1:\n"
		   "a --scale rehearsal), cells done/total (the cell files on disk while\n"
		   "a set is running or its run was killed), status (\"FAILS VERIFY\" when\n"
		   "its files differ from its SHA256SUMS: 'iomatrix verify' says which),\n"
		   "path.  Sets one level further down are listed too, except this\n"
		   "repository's own examples/ and reference/ sets, which only --all\n"
		   "shows.\n\n"
		   "  --all            also list results/examples/ and results/reference/\n"
		   "  --format FMT     text (default: aligned columns) or json (an array)\n");
}

int cmd_list(int argc, char **argv)
{
	const char *dir = resultset_root(), *format = "text";
	struct setlist l = { 0 };
	int npos = 0;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--all")) {
			l.all = true;
			continue;
		}
		if (!strcmp(argv[i], "--format")) {
			if (i + 1 >= argc || (strcmp(argv[i + 1], "text") && strcmp(argv[i + 1], "json"))) {
				fprintf(stderr, "iomatrix list: '--format' needs text or json\n");
				return EXIT_USAGE;
			}
			format = argv[++i];
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "iomatrix: unknown option '%s' (see 'iomatrix list --help')\n", argv[i]);
			return EXIT_USAGE;
		}
		if (npos++) {
			fprintf(stderr, "iomatrix: give one results directory\n");
			return EXIT_USAGE;
		}
		dir = argv[i];
	}
	int e = setlist_scan(&l, dir);
	if (e < 0) {
		fprintf(stderr, "iomatrix: cannot read '%s': %s (give the directory "
			"holding result sets, e.g. ./results)\n", dir, strerror(-e));
		setlist_release(&l);
		return EXIT_USAGE;
	}
	if (!strcmp(format, "json"))
		setlist_write_json(&l, stdout);
	else
		setlist_write_text(&l, dir, stdout);
	setlist_release(&l);
	return EXIT_OK;
}
