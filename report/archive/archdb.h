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
 *     arc_stamp()): `index` reads a set again when either changed.
 *     history, list and site use a row while the stat of the set's
 *     directory, of its cells/ and of every file in the two still match
 *     (arc_dirs_stamp(): a file added, removed, replaced or rewritten in
 *     place, a set copied), else read the set from its files.  A set without SHA256SUMS has no stamp worth the name:
 *     its row is never used by history, list and site.
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
 * The room's headers, one per file: archdb_schema.h (the tables),
 * archdb_stamp.h, archdb_read.h, archdb_write.h, archdb_update.h (index
 * and the hooks), archdb_query.h; this one opens and closes an index, and
 * defines its handle for them (the readers get it opaque).
 *
 * Errors: functions taking errs return 0 / 1 as documented, or -1 with a
 * message there.  Ownership: struct archdb is the caller's, archdb_close().
 */
#ifndef IOMATRIX_ARCHDB_H
#define IOMATRIX_ARCHDB_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "archdb_schema.h"
#include "util/errlist.h"

struct archdb;

/*
 * Open ARCHIVE/index.sqlite for reading (history, list, site): 1 with *db
 * when it is there, ours (schema, version) and made for this archive on
 * this machine; 0 when not (why says, "" for no file at all: the commands
 * then read every set); -1 on a runtime error (why).
 */
int archdb_open_read(const char *archive, struct archdb **db, char *why, size_t whylen);
void archdb_close(struct archdb *db);

/* ---- for the room's files (archdb_*.c): the handle and the helpers;
 * values reach SQL only through these binds ---- */

/* A busy writer is waited for this long (ms): two runs finishing at once,
 * or a run finishing while `index` rereads an archive. */
#define ARCHDB_BUSY_MS 60000

enum archdb_read_stmt {
	RD_CURRENT, RD_SET, RD_DEVICES, RD_ENV, RD_CELLS, RD_METRICS, RD_WARNINGS, RD_LIST,
	RD_BRIEF, RD_BRIEF_DEVS,
	RD__COUNT
};

/* A connection that reads, one thread at a time. */
struct archdb_reader {
	sqlite3 *db;            /* r[0]: the handle's own; r[1]: its own or NULL */
	pthread_mutex_t mu;
	sqlite3_stmt *rd[RD__COUNT];
};

/* The stream's two loader threads and the scan's two stamp threads each
 * read on a connection of their own (one connection serialises them). */
#define ARCHDB_READERS 2

struct archdb {
	sqlite3 *db;
	char *archive;          /* as given */
	struct archdb_reader r[ARCHDB_READERS];
	sqlite3_stmt *ins[32];  /* INSERT of archdb_tables[i], made once */
};

/* A reader no other thread holds (else the first, waited for), locked;
 * archdb_reader_done() unlocks it. */
struct archdb_reader *archdb_reader_take(struct archdb *x);
void archdb_reader_done(struct archdb_reader *r);

/*
 * Open the SQLite file `file` the one way every index is opened: no link
 * followed, defensive (SQLITE_DBCONFIG_DEFENSIVE, no triggers, no
 * extension loading), trusted_schema=OFF, a busy timeout; readonly or
 * read-write (create: made when missing).  0, or -1 with why.
 */
int archdb_open_file(const char *file, bool readonly, bool create, sqlite3 **out,
		     char *why, size_t whylen);
/* Is db's schema exactly archdb_schema_sql()'s, its user_version ours and
 * meta.made_for this archive's (archive NULL: not checked)?  1, or 0 with
 * why. */
int archdb_is_ours(sqlite3 *db, const char *archive, char *why, size_t whylen);
/* A handle around db (taken), for archive. NULL out of memory (db closed). */
struct archdb *archdb_wrap(sqlite3 *db, const char *archive);

/* Run sql (no values: constant text).  0, or -1 with errs. */
int archdb_exec(sqlite3 *db, const char *sql, struct errlist *errs);

/* The INSERT of every column of table (named parameters ":col"), reset
 * and cleared for the next row.  NULL with errs. */
sqlite3_stmt *archdb_insert(struct archdb *db, const char *table, struct errlist *errs);
/* Step an INSERT made by archdb_insert.  0, or -1 with errs. */
int archdb_insert_done(struct archdb *db, sqlite3_stmt *st, struct errlist *errs);

/* Binds by column name (":name"); text NULL, a NAN double: SQL NULL. */
void archdb_bind_text(sqlite3_stmt *st, const char *col, const char *v);
void archdb_bind_int(sqlite3_stmt *st, const char *col, long long v);
void archdb_bind_real(sqlite3_stmt *st, const char *col, double v);
void archdb_bind_null(sqlite3_stmt *st, const char *col);

#endif
