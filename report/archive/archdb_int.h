/*
 * archdb_int.h - inside the archive's index (archdb*.c of report/archive
 * only): the open handle, how every SQLite file is opened, and the
 * statement helpers.  Values reach SQL only through these binds.
 */
#ifndef IOMATRIX_ARCHDB_INT_H
#define IOMATRIX_ARCHDB_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "archdb.h"
#include "resultset/rset.h"

/* A busy writer is waited for this long (ms): two runs finishing at once,
 * or a run finishing while `index` rereads an archive. */
#define ARCHDB_BUSY_MS 60000

enum archdb_read_stmt {
	RD_CURRENT, RD_SET, RD_DEVICES, RD_ENV, RD_CELLS, RD_METRICS, RD_WARNINGS, RD_LIST,
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

/* What goes into the index of one set, read from its files (no database
 * touched: another thread may read the next set while one is written). */
struct archdb_setdata {
	struct arc_set rec;         /* its record (archive.c) */
	bool loaded;                /* the record loaded (else e says why) */
	int verified;               /* enum sums_state */
	struct setlist_entry le;    /* list's entry */
	struct rset rs;             /* every fact, through the typed reader */
	bool full;                  /* rs loaded */
	struct errlist e, w, re;    /* the record's errors, warnings; rs's */
};
/* Read the set of ref: 0 (a set that cannot be read is data that says
 * so); release d either way. */
int archdb_read_set(const struct arc_ref *ref, struct archdb_setdata *d);
void archdb_setdata_release(struct archdb_setdata *d);

/*
 * Put the set of ref (ref->rel its path below the archive, ref->stamp and
 * digest from arc_stamp), read into d, into the index in place of its old
 * rows (the caller holds the transaction).  0, or -1 with errs.
 */
int archdb_put_read(struct archdb *x, const struct arc_ref *ref, const char *digest,
		    const struct archdb_setdata *d, struct errlist *errs);
/* Read and put in one: *verified, its enum sums_state. */
int archdb_put(struct archdb *x, const struct arc_ref *ref, const char *digest,
	       int *verified, struct errlist *errs);

#endif
