/*
 * cmd_index.c - `iomatrix index [ARCHIVE]` and `iomatrix query "SQL"`: the
 * archive as a database (report/archive/archdb.h).  index makes or brings
 * ARCHIVE/index.sqlite up to date; query runs one read-only statement on
 * it and prints the rows.  docs/database.md is the user's page.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "archive/archdb.h"
#include "util/termesc.h"
#include "resultset/schema.h"

enum { IX_SCHEMA = 1, Q_ARCHIVE, Q_FORMAT };

static const struct option_spec index_opts[] = {
	{ "--schema", .id = IX_SCHEMA },
	{ NULL },
};

const struct command_spec index_spec = {
	.name = "index", .forms = { "[ARCHIVE]" }, .opts = index_opts, .operand = OPTV_DIR,
};

static const struct option_spec query_opts[] = {
	{ "--archive", NULL, "DIR", .value = OPTV_DIR, .id = Q_ARCHIVE },
	{ "--format", NULL, "table|md|csv|json|html", .value = OPTV_WORDS,
	  .words = "table md csv json html", .id = Q_FORMAT },
	{ NULL },
};

const struct command_spec query_spec = {
	.name = "query", .forms = { "SQL" }, .opts = query_opts,
};

static void index_usage(FILE *f)
{
	optspec_usage(f, &index_spec);
	fprintf(f, "\n"
		   "Make or bring up to date ARCHIVE/index.sqlite (default $IOMATRIX_RESULTS or\n"
		   "./results): every result set of the archive as SQLite tables, one row per\n"
		   "fact (docs/database.md).  A set whose files changed is read again, a set\n"
		   "that is gone is dropped; an index.sqlite that is not this archive's (one\n"
		   "received with it, another version's) is rebuilt.  The sets stay the truth:\n"
		   "deleting index.sqlite loses nothing.  run, import, unpack and reproduce add\n"
		   "their set to an index that exists; history, list and site read it for the\n"
		   "sets it holds unchanged.\n\n"
		   "  --schema   print the tables, columns, units and meanings (Markdown)\n");
}

static void query_usage(FILE *f)
{
	optspec_usage(f, &query_spec);
	fprintf(f, "\n"
		   "Run one read-only SQL statement on the archive's index (make it with\n"
		   "'iomatrix index') and print its rows.  The tables and views, with every\n"
		   "column's unit and meaning, are in docs/database.md ('iomatrix index\n"
		   "--schema').  Writes, ATTACH and pragmas that write are refused (exit 2),\n"
		   "and so is an index that sets changed since it was made.\n\n"
		   "  --archive DIR   the archive (default $IOMATRIX_RESULTS or ./results)\n"
		   "  --format F      table (default: aligned, for the terminal), md (a GitHub\n"
		   "                  table: 3 significant figures, thousands separators, units\n"
		   "                  in the header), csv, json (an array of objects), html\n\n"
		   "example:\n"
		   "  iomatrix query \"SELECT device, workload, metric, mean FROM device_series\n"
		   "                 WHERE metric = 'iops'\" --format md\n");
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

int cmd_index(int argc, char **argv)
{
	struct optspec_parse p = { .c = &index_spec, .argc = argc, .argv = argv, .i = 1 };
	const char *archive = NULL;
	bool schema = false;
	int r;

	if (cli_wants_help(argc, argv)) {
		index_usage(stdout);
		return EXIT_OK;
	}
	while ((r = optspec_next(&p)) > 0) {
		if (p.opt && p.opt->id == IX_SCHEMA) {
			schema = true;
		} else if (p.opt) {
			r = -1;
		} else if (archive) {
			fprintf(stderr, "iomatrix: one archive at a time ('%s' and '%s')\n", archive,
				p.value);
			return EXIT_USAGE;
		} else {
			archive = p.value;
		}
		if (r < 0)
			break;
	}
	if (r < 0)
		return EXIT_USAGE;
	if (schema) {
		archdb_schema_doc(stdout);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_RUNTIME;
	}
	if (!archive)
		archive = resultset_root();
	struct archdb_stats st;
	struct errlist errs = ERRLIST_INIT;
	int rc = archdb_update(archive, &st, stderr, &errs) == 0 ? EXIT_OK :
		 st.sets || errs.n == 0 ? EXIT_RUNTIME : EXIT_USAGE;
	char b[1400];
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", termesc(errs.msgs[i], b, sizeof(b)));
	if (rc == EXIT_OK)
		printf("%s/%s: %zu set%s (%zu read, %zu unchanged, %zu dropped%s)%s\n", archive,
		       ARCHDB_FILE, st.sets, st.sets == 1 ? "" : "s", st.read, st.kept, st.dropped,
		       st.failed ? ", some fail verification: no numbers of theirs" : "",
		       st.rebuilt ? "; made anew" : "");
	errlist_release(&errs);
	return rc;
}

int cmd_query(int argc, char **argv)
{
	struct optspec_parse p = { .c = &query_spec, .argc = argc, .argv = argv, .i = 1 };
	const char *archive = resultset_root(), *sql = NULL;
	enum archdb_format fmt = ARCHDB_TABLE;
	static const char *const names[] = { "table", "md", "csv", "json", "html" };
	int r;

	if (cli_wants_help(argc, argv)) {
		query_usage(stdout);
		return EXIT_OK;
	}
	while ((r = optspec_next(&p)) > 0) {
		if (p.opt && p.opt->id == Q_ARCHIVE) {
			archive = p.value;
		} else if (p.opt && p.opt->id == Q_FORMAT) {
			size_t k = 0;
			while (k < 5 && strcmp(names[k], p.value))
				k++;
			if (k == 5) {
				fprintf(stderr, "iomatrix: unknown --format '%s' (table, md, csv, json "
					"or html)\n", p.value);
				return EXIT_USAGE;
			}
			fmt = (enum archdb_format)k;
		} else if (p.opt) {
			return EXIT_USAGE;
		} else if (sql) {
			fprintf(stderr, "iomatrix: one SQL statement, quoted as one argument\n");
			return EXIT_USAGE;
		} else {
			sql = p.value;
		}
	}
	if (r < 0)
		return EXIT_USAGE;
	if (!sql) {
		fprintf(stderr, "iomatrix: missing SQL; see 'iomatrix query --help'\n");
		return EXIT_USAGE;
	}
	struct errlist errs = ERRLIST_INIT;
	int rc = archdb_query(archive, sql, fmt, stdout, &errs);
	char b[1400];
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "iomatrix: %s\n", termesc(errs.msgs[i], b, sizeof(b)));
	errlist_release(&errs);
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = EXIT_RUNTIME;
	return rc;
}
