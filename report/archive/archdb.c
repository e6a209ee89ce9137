/*
 * archdb.c - opening an archive's index (archdb.h): every
 * SQLite file the one defensive way, the check that a file is ours (its
 * schema exactly ours, our version, made for this archive on this
 * machine), and the statement helpers the writer and reader share.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archdb.h"
#include "archdb_stamp.h"
#include "util/fsutil.h"

int archdb_open_file(const char *file, bool readonly, bool create, sqlite3 **out,
		     char *why, size_t whylen)
{
	sqlite3 *db = NULL;
	/* a reader is one thread's at a time (archdb_reader_take): SQLite's
	 * own mutex on each call was 5 % of history's CPU */
	int flags = SQLITE_OPEN_NOFOLLOW | (readonly ? SQLITE_OPEN_NOMUTEX : SQLITE_OPEN_FULLMUTEX) |
		    (readonly ? SQLITE_OPEN_READONLY :
		     SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
	struct stat st;

	*out = NULL;
	/* a link, FIFO or device where the index lives is never opened
	 * (SQLITE_OPEN_NOFOLLOW refuses links; a FIFO would hang the open) */
	if (lstat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "'%s' is not a regular file (remove it)", file);
		return -1;
	}
	int rc = sqlite3_open_v2(file, &db, flags, NULL);
	if (rc != SQLITE_OK) {
		snprintf(why, whylen, "'%s': %s", file, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return -1;
	}
	/* someone else's file: no schema change by writable_schema, no
	 * trigger, no extension, no function a view must not call */
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_QPSG, 0, NULL);
	sqlite3_busy_timeout(db, ARCHDB_BUSY_MS);
	*out = db;
	return 0;
}

/* The schema a new index gets, as sqlite_schema lists it, built once in
 * memory: what a file must hold, exactly, to be ours. */
static int schema_rows(sqlite3 *db, struct sbuf *b)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema "
			       "ORDER BY type, name", -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0; i < 4; i++) {
			const unsigned char *t = sqlite3_column_text(st, i);
			sbuf_addf(b, "%s\x1f", t ? (const char *)t : "\x1e");
		}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static char *expected_schema;
static pthread_once_t expected_once = PTHREAD_ONCE_INIT;

static void expected_build(void)
{
	sqlite3 *db;
	struct sbuf sql = SBUF_INIT, rows = SBUF_INIT;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
		archdb_schema_sql(&sql);
		if (!sql.oom && sqlite3_exec(db, sbuf_str(&sql), NULL, NULL, NULL) == SQLITE_OK &&
		    schema_rows(db, &rows) == 0 && !rows.oom)
			expected_schema = sbuf_detach(&rows);
	}
	sqlite3_close(db);
	sbuf_release(&sql);
	sbuf_release(&rows);
}

static int meta_get(sqlite3 *db, const char *key, char *out, size_t len)
{
	sqlite3_stmt *st;
	int ok = 0;
	out[0] = 0;
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
		ok = 1;
	}
	sqlite3_finalize(st);
	return ok;
}

int archdb_is_ours(sqlite3 *db, const char *archive, char *why, size_t whylen)
{
	sqlite3_stmt *st;
	int version = -1;
	struct sbuf rows = SBUF_INIT;
	char made[80], want[65];

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version != ARCHDB_SCHEMA_VERSION) {
		snprintf(why, whylen, "its schema version is %d, not %d", version,
			 ARCHDB_SCHEMA_VERSION);
		return 0;
	}
	pthread_once(&expected_once, expected_build);
	int same = expected_schema && schema_rows(db, &rows) == 0 && !rows.oom &&
		   !strcmp(sbuf_str(&rows), expected_schema);
	sbuf_release(&rows);
	if (!same) {
		snprintf(why, whylen, "its tables are not this version's");
		return 0;
	}
	if (archive && (!meta_get(db, "made_for", made, sizeof(made)) ||
			archdb_made_for(archive, want) < 0 || strcmp(made, want))) {
		snprintf(why, whylen, "it was made for another archive or machine");
		return 0;
	}
	return 1;
}

struct archdb *archdb_wrap(sqlite3 *db, const char *archive)
{
	struct archdb *x = calloc(1, sizeof(*x));
	if (!x || !(x->archive = strdup(archive))) {
		free(x);
		sqlite3_close(db);
		return NULL;
	}
	x->db = db;
	x->r[0].db = db;
	for (int i = 0; i < ARCHDB_READERS; i++)
		pthread_mutex_init(&x->r[i].mu, NULL);
	return x;
}

int archdb_open_read(const char *archive, struct archdb **out, char *why, size_t whylen)
{
	char file[PATH_MAX];
	sqlite3 *db;
	struct stat st;

	*out = NULL;
	why[0] = 0;
	if (fsutil_join(file, sizeof(file), archive, ARCHDB_FILE) < 0 || lstat(file, &st) < 0)
		return 0;
	if (archdb_open_file(file, true, false, &db, why, whylen) < 0)
		return 0;
	char w[200];
	if (!archdb_is_ours(db, archive, w, sizeof(w))) {
		snprintf(why, whylen, "'%s' is not used: %s ('iomatrix index %s' rebuilds it)", file,
			 w, archive);
		sqlite3_close(db);
		return 0;
	}
	if (!(*out = archdb_wrap(db, archive))) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (int i = 1; i < ARCHDB_READERS; i++)   /* none: the first serves all */
		if (archdb_open_file(file, true, false, &(*out)->r[i].db, w, sizeof(w)) < 0)
			(*out)->r[i].db = NULL;
	/* Each reader reads in one transaction: history over 10,000 sets ran
	 * 70,000 statements, each taking the WAL's read lock anew and reading
	 * page 1 again.  (A map of the file, PRAGMA mmap_size, cost more CPU
	 * here: a page fault per page; a bigger page cache no less.) */
	for (int i = 0; i < ARCHDB_READERS; i++)
		if ((*out)->r[i].db)
			sqlite3_exec((*out)->r[i].db, "BEGIN", NULL, NULL, NULL);
	return 1;
}

void archdb_close(struct archdb *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < sizeof(x->ins) / sizeof(x->ins[0]); i++)
		sqlite3_finalize(x->ins[i]);
	for (int k = 0; k < ARCHDB_READERS; k++) {
		for (int i = 0; i < RD__COUNT; i++)
			sqlite3_finalize(x->r[k].rd[i]);
		if (k)
			sqlite3_close(x->r[k].db);
		pthread_mutex_destroy(&x->r[k].mu);
	}
	sqlite3_close(x->db);
	free(x->archive);
	free(x);
}

struct archdb_reader *archdb_reader_take(struct archdb *x)
{
	for (int i = 0; i < ARCHDB_READERS; i++)
		if (x->r[i].db && pthread_mutex_trylock(&x->r[i].mu) == 0)
			return &x->r[i];
	pthread_mutex_lock(&x->r[0].mu);
	return &x->r[0];
}

void archdb_reader_done(struct archdb_reader *r)
{
	pthread_mutex_unlock(&r->mu);
}

int archdb_exec(sqlite3 *db, const char *sql, struct errlist *errs)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	errlist_add(errs, NULL, 0, 0, "index: %s (%.60s)", msg ? msg : sqlite3_errmsg(db), sql);
	sqlite3_free(msg);
	return -1;
}

sqlite3_stmt *archdb_insert(struct archdb *x, const char *table, struct errlist *errs)
{
	size_t t;
	for (t = 0; t < archdb_ntables && strcmp(archdb_tables[t].name, table); t++)
		;
	if (t == archdb_ntables || t >= sizeof(x->ins) / sizeof(x->ins[0])) {
		errlist_add(errs, NULL, 0, 0, "index: no table %s", table);
		return NULL;
	}
	if (x->ins[t]) {
		sqlite3_reset(x->ins[t]);
		sqlite3_clear_bindings(x->ins[t]);
		return x->ins[t];
	}
	size_t n;
	const struct archdb_col *c = archdb_table_cols(&archdb_tables[t], &n);
	struct sbuf b = SBUF_INIT;
	sbuf_addf(&b, "INSERT INTO %s (", table);
	for (size_t i = 0; i < n; i++)
		sbuf_addf(&b, "%s\"%s\"", i ? ", " : "", c[i].name);
	sbuf_adds(&b, ") VALUES (");
	for (size_t i = 0; i < n; i++)
		sbuf_addf(&b, "%s:%s", i ? ", " : "", c[i].name);
	sbuf_adds(&b, ")");
	if (b.oom || sqlite3_prepare_v3(x->db, sbuf_str(&b), -1, SQLITE_PREPARE_PERSISTENT,
					&x->ins[t], NULL) != SQLITE_OK) {
		errlist_add(errs, NULL, 0, 0, "index: %s", sqlite3_errmsg(x->db));
		x->ins[t] = NULL;
	}
	sbuf_release(&b);
	return x->ins[t];
}

int archdb_insert_done(struct archdb *x, sqlite3_stmt *st, struct errlist *errs)
{
	if (sqlite3_step(st) == SQLITE_DONE)
		return 0;
	errlist_add(errs, NULL, 0, 0, "index: %s", sqlite3_errmsg(x->db));
	return -1;
}

/* ":col" (a printf per value was 7 % of indexing) */
static int param(sqlite3_stmt *st, const char *col)
{
	char name[80];
	size_t n = strlen(col);
	if (n + 2 > sizeof(name))
		return 0;
	name[0] = ':';
	memcpy(name + 1, col, n + 1);
	return sqlite3_bind_parameter_index(st, name);
}

void archdb_bind_text(sqlite3_stmt *st, const char *col, const char *v)
{
	int i = param(st, col);
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

void archdb_bind_int(sqlite3_stmt *st, const char *col, long long v)
{
	sqlite3_bind_int64(st, param(st, col), v);
}

void archdb_bind_real(sqlite3_stmt *st, const char *col, double v)
{
	int i = param(st, col);
	if (v == v)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

void archdb_bind_null(sqlite3_stmt *st, const char *col)
{
	sqlite3_bind_null(st, param(st, col));
}
