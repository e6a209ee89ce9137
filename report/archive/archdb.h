/*
 * archdb.h - the archive as a database: ARCHIVE/index.sqlite, one SQLite
 * file holding every set of an archive as tidy tables (one row per fact),
 * for `iomatrix query`, for SQL, pandas, DuckDB and R, and for history,
 * list and site, which read it instead of walking every set when it is
 * current (docs/database.md is the user's page; archdb_schema.c is its
 * one source, the tables the code creates and the page describes).
 *
 * The sets stay the truth: the index is derived, like a report, and is
 * never believed.
 *   - A set's row holds its SHA256SUMS digest and a stamp of its files as
 *     this machine sees them (device, inode, size, times of every entry;
 *     arc_stamp()): a row is used only while both still match, so a set
 *     changed, tampered with or copied is read again from its files.  A
 *     set without SHA256SUMS has no stamp worth the name: its row is never
 *     used by history, list and site (they read the set).
 *   - The file records which machine and archive directory made it
 *     (meta.made_for): an index.sqlite received with an archive, or a
 *     copied archive's, is rebuilt by `index`, and read by no command.
 *   - Every SQLite file is opened with SQLITE_DBCONFIG_DEFENSIVE,
 *     trusted_schema=OFF and no extension loading; `index` rebuilds a
 *     file whose schema is not exactly ours.
 *   - Every value from a set reaches SQL as a bound parameter.
 *   - A row read back passes the bounds a set's own numbers pass
 *     (cellcheck_value()); a row that fails them is not used: the set is
 *     read from its files.
 * Updates are transactions (WAL, a busy timeout): a crash mid-update
 * leaves the previous index, and two runs finishing at once both land.
 *
 * Errors: functions taking errs return 0 / 1 as documented, or -1 with a
 * message there.  Ownership: struct archdb is the caller's, archdb_close().
 */
#ifndef IOMATRIX_ARCHDB_H
#define IOMATRIX_ARCHDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "setarchive.h"
#include "setlist.h"
#include "util/errlist.h"
#include "util/sbuf.h"

#define ARCHDB_FILE "index.sqlite"
/* PRAGMA user_version: bumped when a table or a column changes meaning */
#define ARCHDB_SCHEMA_VERSION 1

/* ---- the schema (archdb_schema.c) ---- */

struct archdb_col {
	const char *name;
	const char *type;       /* "INTEGER", "REAL", "TEXT" */
	const char *unit;       /* "ns", "bytes", "IOPS", ... or NULL */
	const char *help;       /* what it means, for docs/database.md */
};

struct archdb_table {
	const char *name;
	const char *help;
	const struct archdb_col *cols;  /* ends with a NULL name; the cells
					 * table's key columns follow them
					 * (archdb_table_cols) */
	const char *key;        /* "PRIMARY KEY (...)" and the rest */
};

struct archdb_view {
	const char *name, *help, *sql;
};

extern const struct archdb_table archdb_tables[];
extern const size_t archdb_ntables;
extern const struct archdb_view archdb_views[];
extern const size_t archdb_nviews;

/* Every column of table t, the key table's included (cells: one column
 * per key of bench/suite/keys.c, named as the key, and one per second
 * field).  Static storage, built once; *n columns. */
const struct archdb_col *archdb_table_cols(const struct archdb_table *t, size_t *n);
/* The table named name, NULL if none. */
const struct archdb_table *archdb_table_find(const char *name);
/* The unit of column col of table (NULL when it has none or is unknown). */
const char *archdb_col_unit(const char *table, const char *col);
/* Every CREATE statement, in order, each ending with ";\n". */
void archdb_schema_sql(struct sbuf *b);
/* docs/database.md's generated part: every table, column, unit and
 * meaning, and every view. */
void archdb_schema_doc(FILE *f);

/* ---- stamps (archdb_stamp.c) ---- */

/*
 * What decides whether a set's row is current: digest, the hex sha256 of
 * its SHA256SUMS bytes ("" when it has none); stamp, the hex sha256 of the
 * digest and of every entry below the set (name, type, device, inode,
 * size, mtime and ctime; not followed through links; report/ and compare/
 * only by report/report.html), and of the record's format.  0, or -1 when
 * the set cannot be read.
 */
int arc_stamp(const char *setdir, char digest[65], char stamp[65]);
/* Which machine and archive directory an index was made for: the hex
 * sha256 of /etc/machine-id (else the boot id) and the archive's device,
 * inode and real path.  0, or -1. */
int archdb_made_for(const char *archive, char hex[65]);

/* ---- an index ---- */

struct archdb;

/*
 * Open ARCHIVE/index.sqlite for reading (history, list, site): 1 with *db
 * when it is there, ours (schema, version) and made for this archive on
 * this machine; 0 when not (why says, "" for no file at all: the commands
 * then read every set); -1 on a runtime error (why).
 */
int archdb_open_read(const char *archive, struct archdb **db, char *why, size_t whylen);
void archdb_close(struct archdb *db);

/* The row of the set at rel (its path below the archive) when it is
 * current for stamp (a set with a digest, whose row holds this stamp):
 * its id (> 0) and *date; else 0.  Thread-safe. */
long long archdb_current(struct archdb *db, const char *rel, const char *stamp,
			 char **date);

/*
 * Set id's record, as arc_set_load() makes it from the files (named, with
 * path, by ref), with the warnings and errors loading it gave; every
 * number through cellcheck_value().  1 with *s (release it), *rc the
 * load's result (-1: the set was skipped, its errs say why); 0 when the
 * row fails a check (the caller reads the set); -1 out of memory.
 */
int archdb_record(struct archdb *db, long long id, const struct arc_ref *ref,
		  struct arc_set *s, int *rc, struct errlist *errs, struct errlist *warns);

/* List's entry of set id, path as the walk found it (setlist.c's
 * entry_read() from the files).  1, 0 a failed check, -1 OOM. */
int archdb_list_entry(struct archdb *db, long long id, const char *path,
		      struct setlist_entry *e);

/* ---- keeping it current (archdb_update.c) ---- */

struct archdb_stats {
	size_t sets, read, dropped, kept, failed;  /* failed: verify */
	bool rebuilt;           /* the file was not ours: made anew */
};

/*
 * `iomatrix index ARCHIVE`: make or bring ARCHIVE/index.sqlite up to
 * date: every set below ARCHIVE (resultset_walk, depth 1; the
 * repository's own examples and references too) whose row is not current
 * is read again, rows of sets that are gone are dropped, all in one
 * transaction; a file that is not ours (or not for this archive) is
 * replaced by a new one.  Warnings of the reader to warnf.  0, or -1 with
 * errs.
 */
int archdb_update(const char *archive, struct archdb_stats *st, FILE *warnf,
		  struct errlist *errs);

/*
 * The hook of run, import, unpack and reproduce: add set setdir to the
 * index of the archive holding it (its parent, or its grandparent for
 * results/reference/SET), when that archive has an index that is ours;
 * one transaction.  0 nothing to do or done; -1 with errs (the caller
 * warns: the set itself is fine, `iomatrix index` repairs the index).
 */
int archdb_add_set(const char *setdir, struct errlist *errs);

/* ---- `iomatrix query` (archdb_query.c) ---- */

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
