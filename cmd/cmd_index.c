/*
 * cmd_index.c - `iomatrix index [ARCHIVE]` and `iomatrix query "SQL"`: the
 * archive as a database (report/archive/archdb*.h).  index makes or brings
 * ARCHIVE/index.sqlite up to date; query runs one read-only statement on
 * it and prints the rows.  docs/database.md is the user's page.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "archive/archdb_query.h"
#include "archive/archdb_schema.h"
#include "archive/archdb_update.h"
#include "util/termesc.h"
#include "resultset/schema.h"

struct index_args {
	bool schema;
};

static const struct option_spec index_opts[] = {
	{ "--schema", .kind = OPTK_FLAG, OPT_AT(struct index_args, schema),
	  .help = "print the tables, columns, units and meanings (Markdown; "
		  "docs/database.md holds them) instead" },
	{ NULL },
};

struct query_args {
	const char *archive;
	int format;             /* enum archdb_format: the word's index */
};

static const struct option_spec query_opts[] = {
	{ "--archive", .kind = OPTK_DIR, OPT_AT(struct query_args, archive),
	  .help = "the archive (default $IOMATRIX_RESULTS or ./results)" },
	{ "--format", .kind = OPTK_WORD, .arg = "table|md|csv|json|html", .words = "table md csv json html",
	  OPT_AT(struct query_args, format), .def = "table",
	  .help = "table (aligned, for the terminal), md (a GitHub table: 3 significant "
		  "figures, thousands separators, units in the header), csv, json (an "
		  "array of objects) or html" },
	{ NULL },
};

/* The database's messages on stderr, made inert (termesc.h: they hold
 * paths and names from the sets). */
static void index_print_errs(const struct errlist *errs)
{
	char b[1400];

	for (size_t i = 0; i < errs->n; i++)
		fprintf(stderr, "iomatrix: %s\n", termesc(errs->msgs[i], b, sizeof(b)));
}

void cmd_index_set_said(const char *dir)
{
	printf("%s\n", dir);
	fflush(stdout);
	cmd_index_set_made(dir);
}

void cmd_index_set_made(const char *dir)
{
	struct errlist errs = ERRLIST_INIT;
	char b[1400];   /* paths from the set's name: made inert (termesc.h) */
	if (archdb_add_set(dir, &errs) < 0)
		for (size_t i = 0; i < errs.n; i++)
			fprintf(stderr, "iomatrix: warning: %s\n", termesc(errs.msgs[i], b, sizeof(b)));
	errlist_release(&errs);
}

int cmd_index(const struct cmd_call *c)
{
	const struct index_args *a = c->opts;

	if (a->schema) {
		archdb_schema_doc(stdout);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
	}
	const char *archive = c->ops->n ? c->ops->v[0] : resultset_root();
	struct archdb_stats st;
	struct errlist errs = ERRLIST_INIT;
	int rc = archdb_update(archive, &st, stderr, &errs) == 0 ? EXIT_OK :
		 st.sets || errs.n == 0 ? EXIT_RUNTIME : EXIT_USAGE;
	index_print_errs(&errs);
	if (rc == EXIT_OK)
		printf("%s/%s: %zu set%s (%zu read, %zu unchanged, %zu dropped%s)%s\n", archive,
		       ARCHDB_FILE, st.sets, st.sets == 1 ? "" : "s", st.read, st.kept, st.dropped,
		       st.failed ? ", some fail verification: no numbers of theirs" : "",
		       st.rebuilt ? "; made anew" : "");
	errlist_release(&errs);
	return rc;
}

int cmd_query(const struct cmd_call *c)
{
	const struct query_args *a = c->opts;
	struct errlist errs = ERRLIST_INIT;

	int rc = archdb_query(a->archive ? a->archive : resultset_root(), c->ops->v[0],
			      (enum archdb_format)a->format, stdout, &errs);
	index_print_errs(&errs);
	errlist_release(&errs);
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	return rc;
}

const struct command_spec index_spec = {
	.name = "index", .forms = { "[ARCHIVE]" }, OPTSPEC_OPTS(index_opts, struct index_args),
	.operand = OPTK_DIR,
	.about =
	"Make or bring up to date ARCHIVE/index.sqlite (default $IOMATRIX_RESULTS or\n"
	"./results): every result set of the archive as SQLite tables, one row per\n"
	"fact (docs/database.md).  A set whose files changed is read again, a set\n"
	"that is gone is dropped; an index.sqlite that is not this archive's (one\n"
	"received with it, another version's) is rebuilt.  The sets stay the truth:\n"
	"deleting index.sqlite loses nothing.  run, import, unpack and reproduce add\n"
	"their set to an index that exists; history, list and site read it for the\n"
	"sets it holds unchanged; 'iomatrix query' asks it anything.",
};

const struct command_spec query_spec = {
	.name = "query", .forms = { "SQL" }, OPTSPEC_OPTS(query_opts, struct query_args),
	.about =
	"Run one read-only SQL statement on the archive's index (make it with\n"
	"'iomatrix index') and print its rows.  The tables and views, with every\n"
	"column's unit and meaning, are in docs/database.md ('iomatrix index\n"
	"--schema').  Writes, ATTACH and pragmas that write are refused (exit 2),\n"
	"and so is an index that sets changed since it was made.",
	.epilog =
	"example:\n"
	"  iomatrix query \"SELECT device, workload, metric, mean FROM device_series\n"
	"                 WHERE metric = 'iops'\" --format md",
};
