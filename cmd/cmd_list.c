/*
 * cmd_list.c - `iomatrix list [RESULTS_DIR]`: the archive at a glance, one
 * line per result set (date, suite, host, devices, scale, cells
 * done/total, status, path), newest first: its option table, then
 * report/archive/setlist.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "archive/setlist.h"
#include "resultset/schema.h"

struct list_args {
	bool all;
	const char *format;
};

static const struct option_spec list_opts[] = {
	{ "--all", .kind = OPTK_FLAG, OPT_AT(struct list_args, all),
	  .help = "also list results/examples/ and results/reference/" },
	{ "--format", .kind = OPTK_WORD, .arg = "text|json", .words = "text json",
	  OPT_AT(struct list_args, format), .def = "text",
	  .help = "text (aligned columns) or json (an array)" },
	{ NULL },
};

int cmd_list(const struct cmd_call *c)
{
	const struct list_args *a = c->opts;
	const char *dir = c->ops->n ? c->ops->v[0] : resultset_root();
	struct setlist l = { .all = a->all };
	int rc = EXIT_OK;

	int e = setlist_scan(&l, dir, true);
	if (e < 0) {
		fprintf(stderr, "iomatrix: cannot read '%s': %s (give the directory "
			"holding result sets, e.g. ./results)\n", dir, strerror(-e));
		rc = EXIT_USAGE;
	} else if (!strcmp(a->format, "json")) {
		setlist_write_json(&l, stdout);
	} else {
		setlist_write_text(&l, dir, stdout);
	}
	setlist_release(&l);
	return rc;
}

const struct command_spec list_spec = {
	.name = "list", .forms = { "[RESULTS_DIR]" }, OPTSPEC_OPTS(list_opts, struct list_args),
	.operand = OPTK_DIR,
	.about =
	"List the result sets under RESULTS_DIR (default $IOMATRIX_RESULTS or\n"
	"./results), newest first: date, suite, host, devices, scale (below 1:\n"
	"a --scale rehearsal), cells done/total (the cell files on disk while\n"
	"a set is running or its run was killed), status (\"FAILS VERIFY\" when\n"
	"its files differ from its SHA256SUMS: 'iomatrix verify' says which),\n"
	"path.  Sets one level further down are listed too, except this\n"
	"repository's own examples/ and reference/ sets, which only --all\n"
	"shows.",
};
