/*
 * archdb_query.h - `iomatrix query`: one read-only statement on an
 * archive's index, printed in a format (archdb_query.c).
 */
#ifndef IOMATRIX_ARCHDB_QUERY_H
#define IOMATRIX_ARCHDB_QUERY_H

#include <stdio.h>

#include "util/errlist.h"

enum archdb_format { ARCHDB_TABLE, ARCHDB_MD, ARCHDB_CSV, ARCHDB_JSON, ARCHDB_HTML };

/*
 * Run one read-only statement on ARCHIVE/index.sqlite and print its rows
 * to out in format fmt.  The file is opened read-only with an authorizer
 * that refuses every write, ATTACH, and pragmas that write; an index that
 * is not current for the archive is refused.  Returns an exit code
 * (util/cliopt.h): EXIT_OK, EXIT_USAGE (bad SQL, a write refused, no or
 * stale index: messages in errs), EXIT_RUNTIME.
 */
int archdb_query(const char *archive, const char *sql, enum archdb_format fmt, FILE *out,
		 struct errlist *errs);

#endif
