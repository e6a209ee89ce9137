/*
 * archdb_update.c - keeping ARCHIVE/index.sqlite current (archdb.h):
 * `iomatrix index` (archdb_update) and the hook of the commands that make
 * sets (archdb_add_set).  A file that is ours is updated in place, in
 * transactions (WAL: readers go on meanwhile, a crash rolls back to the
 * previous index); a file that is not (another version's, another
 * archive's or machine's, a damaged or hostile one) is replaced by one
 * built under a temporary name and renamed over it.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archdb.h"
#include "archdb_stamp.h"
#include "archdb_update.h"
#include "archdb_write.h"
#include "resultset/setwalk.h"
#include "resultset/sums.h"
#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/testhook.h"
#include "util/version.h"

/* Sets read between two commits of an in-place update: a commit is an
 * fsync, and the write lock is held in between (a run's hook waits). */
#define UPDATE_BATCH 64

/* A fresh file's tables, version and maker. */
static int db_init(sqlite3 *db, const char *archive, struct errlist *errs)
{
	struct sbuf sql = SBUF_INIT;
	char made[65], version[64];
	sqlite3_stmt *st = NULL;
	archdb_schema_sql(&sql);
	int rc = sql.oom || archdb_made_for(archive, made) < 0 ? -1 : 0;
	if (rc == 0)
		rc = archdb_exec(db, sbuf_str(&sql), errs);
	snprintf(version, sizeof(version), "PRAGMA user_version = %d", ARCHDB_SCHEMA_VERSION);
	if (rc == 0)
		rc = archdb_exec(db, version, errs);
	if (rc == 0 && sqlite3_prepare_v2(db, "INSERT INTO meta VALUES ('made_for', ?), "
					  "('iomatrix', ?)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, made, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, iomatrix_version, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	}
	sqlite3_finalize(st);
	sbuf_release(&sql);
	if (rc < 0 && !errs->n)
		errlist_add(errs, archive, 0, 0, "cannot make the index");
	return rc;
}

/* The connection settings of every writer. */
static int db_writer(sqlite3 *db, struct errlist *errs)
{
	return archdb_exec(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;", errs);
}

/* Remove the temporary files of builds whose process is gone. */
static void stale_tmp_remove(const char *archive)
{
	DIR *d = opendir(archive);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		long pid;
		char rest[64];
		if (sscanf(e->d_name, FSUTIL_TMP_PREFIX "index.%ld.%63s", &pid, rest) == 2 &&
		    pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			char p[PATH_MAX];
			if (fsutil_join(p, sizeof(p), archive, e->d_name) == 0)
				unlink(p);
		}
	}
	if (d)
		closedir(d);
}

/* The sets below the archive, by rel. */
struct found {
	char **path, **rel;
	size_t n, alloc;
};

static int found_one(const char *set, const char *rel, void *arg)
{
	struct found *f = arg;
	if (f->n == f->alloc) {
		size_t na = f->alloc ? f->alloc * 2 : 256;
		char **p = realloc(f->path, na * sizeof(*p)), **r;
		if (p)
			f->path = p;
		if (!p || !(r = realloc(f->rel, na * sizeof(*r))))
			return -ENOMEM;
		f->rel = r;
		f->alloc = na;
	}
	f->path[f->n] = strdup(set);
	f->rel[f->n] = strdup(rel);
	if (!f->path[f->n] || !f->rel[f->n]) {
		free(f->path[f->n]);
		free(f->rel[f->n]);
		return -ENOMEM;
	}
	f->n++;
	return 0;
}

static int found_order_cmp(const void *a, const void *b, void *arg)
{
	char **rel = arg;
	return strcmp(rel[*(const size_t *)a], rel[*(const size_t *)b]);
}

/* The sets in name order (a set's name starts with its UTC date), so that
 * the rows of sets that history reads one after another lie side by side:
 * in the walk's order (ext4's hash order) history read each page of
 * 10,000 sets 4.8 times over (89,000 preads of 18,800 pages).  0 or -1. */
static int found_sort(struct found *f)
{
	size_t *o = malloc((f->n + 1) * sizeof(*o));
	char **p = malloc((f->n + 1) * sizeof(*p)), **r = malloc((f->n + 1) * sizeof(*r));
	int rc = o && p && r ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < f->n; i++)
		o[i] = i;
	if (rc == 0 && f->n > 1) {
		qsort_r(o, f->n, sizeof(*o), found_order_cmp, f->rel);
		for (size_t i = 0; i < f->n; i++) {
			p[i] = f->path[o[i]];
			r[i] = f->rel[o[i]];
		}
		memcpy(f->path, p, f->n * sizeof(*p));
		memcpy(f->rel, r, f->n * sizeof(*r));
	}
	free(o);
	free(p);
	free(r);
	return rc;
}

static void found_release(struct found *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->path[i]);
		free(f->rel[i]);
	}
	free(f->path);
	free(f->rel);
}

static int rel_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is the row of rel current for stamp?  1 yes, 0 no, -1 error. */
static int row_current(sqlite3 *db, const char *rel, const char *stamp)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sets WHERE path = ? AND stamp = ?", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, rel, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, stamp, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Rows of sets no longer found: dropped (their rows go with them). */
static int drop_gone(sqlite3 *db, struct found *f, struct archdb_stats *st,
		     struct errlist *errs)
{
	sqlite3_stmt *q, *del;
	char **rels = malloc((f->n + 1) * sizeof(*rels));
	int rc = -1;
	if (!rels)
		return -1;
	if (f->n) {   /* an empty archive has no list at all */
		memcpy(rels, f->rel, f->n * sizeof(*rels));
		qsort(rels, f->n, sizeof(*rels), rel_cmp);
	}
	if (sqlite3_prepare_v2(db, "SELECT set_id, path FROM sets", -1, &q, NULL) != SQLITE_OK) {
		free(rels);
		return -1;
	}
	if (sqlite3_prepare_v2(db, "DELETE FROM sets WHERE set_id = ?", -1, &del, NULL) == SQLITE_OK) {
		long long *gone = NULL;
		size_t ng = 0;
		while (sqlite3_step(q) == SQLITE_ROW) {
			const char *p = (const char *)sqlite3_column_text(q, 1);
			if (p && bsearch(&p, rels, f->n, sizeof(*rels), rel_cmp))
				continue;
			long long *g = realloc(gone, (ng + 1) * sizeof(*g));
			if (!g)
				break;
			gone = g;
			gone[ng++] = sqlite3_column_int64(q, 0);
		}
		rc = 0;
		for (size_t i = 0; i < ng && rc == 0; i++) {
			sqlite3_reset(del);
			sqlite3_bind_int64(del, 1, gone[i]);
			rc = sqlite3_step(del) == SQLITE_DONE ? 0 : -1;
		}
		st->dropped = ng;
		free(gone);
	}
	if (rc < 0)
		errlist_add(errs, NULL, 0, 0, "index: %s", sqlite3_errmsg(db));
	sqlite3_finalize(del);
	sqlite3_finalize(q);
	free(rels);
	return rc;
}

/* ---- the sets to read: read on a thread of their own, written here ---- */

/* Sets read ahead of the writer: the reader and the writer each keep a
 * core busy (reading a set is about half of indexing it); a few slots
 * bound the memory. */
#define PIPE_SLOTS 4

struct slot {
	struct arc_ref ref;
	struct archdb_setdata d;
	char digest[65];
	bool ready, made;       /* made: ref is a set (not gone meanwhile) */
};

struct pipe {
	struct found *f;
	size_t *todo, ntodo;    /* indices into f */
	char (*digest)[65];
	size_t next;            /* the writer takes this one next */
	struct slot slot[PIPE_SLOTS];
	bool stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *pipe_reader(void *arg)
{
	struct pipe *p = arg;
	for (size_t k = 0; k < p->ntodo; k++) {
		struct slot *sl = &p->slot[k % PIPE_SLOTS];
		pthread_mutex_lock(&p->mu);
		while (!p->stop && (k >= p->next + PIPE_SLOTS || sl->ready))
			pthread_cond_wait(&p->cv, &p->mu);
		bool stop = p->stop;
		pthread_mutex_unlock(&p->mu);
		if (stop)
			break;
		struct slot t = { 0 };
		size_t i = p->todo[k];
		memcpy(t.digest, p->digest[k], sizeof(t.digest));
		t.made = arc_ref_make(p->f->path[i], p->f->rel[i], &t.ref) == 0;
		if (t.made)
			archdb_read_set(&t.ref, &t.d);
		pthread_mutex_lock(&p->mu);
		*sl = t;
		sl->ready = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

static void slot_release(struct slot *sl)
{
	if (sl->made) {
		archdb_setdata_release(&sl->d);
		arc_ref_release(&sl->ref);
	}
	memset(sl, 0, sizeof(*sl));
}

/* Write one read set; 0 or -1. */
static int write_one(struct archdb *x, struct slot *sl, struct archdb_stats *st, FILE *warnf,
		     struct errlist *errs)
{
	struct errlist e = ERRLIST_INIT;
	int rc = archdb_put_read(x, &sl->ref, sl->digest, &sl->d, &e);
	for (size_t k = 0; k < e.n; k++)
		errlist_add(errs, NULL, 0, 0, "%s", e.msgs[k]);
	errlist_release(&e);
	st->read++;
	st->failed += sl->d.verified == SUMS_FAILED;
	if (rc == 0 && sl->d.verified == SUMS_FAILED && warnf) {
		char b[1400];
		fprintf(warnf, "iomatrix: warning: '%s' fails verification: its numbers are not "
			"in the index\n", termesc(sl->ref.path, b, sizeof(b)));
	}
	testhook_point("index_set");
	return rc;
}

/* Write the sets of p->todo in order, each as the reader thread hands it
 * over, committing every UPDATE_BATCH unless fresh.  0 or -1. */
static int write_all(struct archdb *x, struct pipe *p, bool fresh, struct archdb_stats *st,
		     FILE *warnf, struct errlist *errs)
{
	pthread_t th;
	size_t in_batch = 0;
	int rc = 0;
	if (pthread_create(&th, NULL, pipe_reader, p) != 0)
		return -1;
	for (size_t k = 0; k < p->ntodo && rc == 0; k++) {
		struct slot *sl = &p->slot[k % PIPE_SLOTS];
		pthread_mutex_lock(&p->mu);
		while (!sl->ready)
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		if (sl->made)
			rc = write_one(x, sl, st, warnf, errs);
		slot_release(sl);
		pthread_mutex_lock(&p->mu);
		p->next = k + 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if (rc == 0 && !fresh && ++in_batch >= UPDATE_BATCH) {
			in_batch = 0;
			rc = archdb_exec(x->db, "COMMIT; BEGIN IMMEDIATE", errs);
		}
	}
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(th, NULL);
	for (int k = 0; k < PIPE_SLOTS; k++)
		slot_release(&p->slot[k]);
	return rc;
}

/* Read every set whose row is not current (all of them when fresh) and
 * drop the rows of sets gone, in batches of transactions (one when fresh:
 * nobody sees the file until it is renamed). */
static int update_sets(struct archdb *x, struct found *f, bool fresh, struct archdb_stats *st,
		       FILE *warnf, struct errlist *errs)
{
	struct pipe p = { .f = f };
	p.todo = calloc(f->n + 1, sizeof(*p.todo));
	p.digest = calloc(f->n + 1, sizeof(*p.digest));
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	int rc = p.todo && p.digest ? archdb_exec(x->db, "BEGIN IMMEDIATE", errs) : -1;
	for (size_t i = 0; rc == 0 && i < f->n; i++) {
		char stamp[65];
		if (arc_stamp(f->path[i], p.digest[p.ntodo], stamp) == 0 && !fresh &&
		    row_current(x->db, f->rel[i], stamp) == 1)
			st->kept++;
		else
			p.todo[p.ntodo++] = i;
	}
	if (rc == 0)
		rc = write_all(x, &p, fresh, st, warnf, errs);
	if (rc == 0)
		rc = drop_gone(x->db, f, st, errs);
	if (rc == 0)
		rc = archdb_exec(x->db, "COMMIT", errs);
	else
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
	free(p.todo);
	free(p.digest);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return rc;
}

/* A new index under a temporary name, renamed over ARCHIVE/index.sqlite
 * (and the old file's -wal and -shm removed first: a stale log must never
 * be replayed onto the new file). */
static int rebuild(const char *archive, const char *file, struct found *f,
		   struct archdb_stats *st, FILE *warnf, struct errlist *errs)
{
	char tmp[PATH_MAX], name[96], why[256], side[PATH_MAX + 8];
	sqlite3 *db;
	struct archdb *x;

	snprintf(name, sizeof(name), FSUTIL_TMP_PREFIX "index.%ld.%lx.sqlite", (long)getpid(),
		 (unsigned long)time(NULL));
	if (fsutil_join(tmp, sizeof(tmp), archive, name) < 0)
		return -1;
	unlink(tmp);
	if (archdb_open_file(tmp, false, true, &db, why, sizeof(why)) < 0) {
		errlist_add(errs, NULL, 0, 0, "%s", why);
		return -1;
	}
	if (archdb_exec(db, "PRAGMA journal_mode = OFF", errs) < 0 || db_writer(db, errs) < 0 ||
	    db_init(db, archive, errs) < 0 || !(x = archdb_wrap(db, archive))) {
		sqlite3_close(db);
		unlink(tmp);
		return -1;
	}
	int rc = update_sets(x, f, true, st, warnf, errs);
	if (rc == 0)
		rc = archdb_exec(x->db, "PRAGMA journal_mode = WAL", errs);
	archdb_close(x);
	for (size_t i = 0; rc == 0 && i < 2; i++) {
		snprintf(side, sizeof(side), "%s%s", file, i ? "-shm" : "-wal");
		if (unlink(side) < 0 && errno != ENOENT)
			rc = -1;
	}
	/* 0666 less the umask, as every file iomatrix writes (SQLite makes
	 * 0644; its -wal and -shm take the file's mode) */
	mode_t um = umask(0);
	umask(um);
	if (rc == 0 && chmod(tmp, 0666 & ~um) < 0)
		rc = -1;
	if (rc == 0 && rename(tmp, file) < 0) {
		errlist_add(errs, file, 0, 0, "cannot write: %s", strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		unlink(tmp);
	st->rebuilt = true;
	return rc;
}

int archdb_update(const char *archive, struct archdb_stats *st, FILE *warnf,
		  struct errlist *errs)
{
	char file[PATH_MAX], why[256];
	struct found f = { 0 };
	struct stat sb;
	sqlite3 *db = NULL;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (stat(archive, &sb) < 0 || !S_ISDIR(sb.st_mode) || resultset_is_set(archive)) {
		errlist_add(errs, archive, 0, 0, "%s (give the directory holding result sets, "
			    "e.g. ./results)", stat(archive, &sb) < 0 ? strerror(errno) :
			    S_ISDIR(sb.st_mode) ? "a result set, not an archive of them" :
			    "not a directory");
		return -1;
	}
	if (fsutil_join(file, sizeof(file), archive, ARCHDB_FILE) < 0)
		return -1;
	stale_tmp_remove(archive);
	int e = resultset_walk(archive, 1, found_one, &f);
	if (e == 0 && found_sort(&f) < 0)
		e = -ENOMEM;
	if (e < 0) {
		errlist_add(errs, archive, 0, 0, "cannot read: %s", strerror(-e));
		goto out;
	}
	st->sets = f.n;
	bool ours = lstat(file, &sb) == 0 &&
		    archdb_open_file(file, false, false, &db, why, sizeof(why)) == 0 &&
		    archdb_is_ours(db, archive, why, sizeof(why));
	if (ours) {
		struct archdb *x = db_writer(db, errs) == 0 &&
				   archdb_exec(db, "PRAGMA journal_mode = WAL", errs) == 0 ?
				   archdb_wrap(db, archive) : NULL;
		db = NULL;
		rc = x ? update_sets(x, &f, false, st, warnf, errs) : -1;
		archdb_close(x);
	} else {
		sqlite3_close(db);
		db = NULL;
		rc = rebuild(archive, file, &f, st, warnf, errs);
	}
out:
	sqlite3_close(db);
	found_release(&f);
	return rc;
}

int archdb_add_set(const char *setdir, struct errlist *errs)
{
	char real[PATH_MAX], archive[PATH_MAX], file[PATH_MAX], rel[PATH_MAX], why[256];
	struct stat sb;
	sqlite3 *db = NULL;

	if (!realpath(setdir, real))
		return 0;
	/* the parent holds index.sqlite, or the grandparent (results/reference/SET) */
	snprintf(archive, sizeof(archive), "%s", real);
	for (int up = 1; up <= 2; up++) {
		char *slash = strrchr(archive, '/');
		if (!slash || slash == archive)
			return 0;
		*slash = 0;
		if (fsutil_join(file, sizeof(file), archive, ARCHDB_FILE) == 0 && lstat(file, &sb) == 0)
			break;
		if (up == 2 || resultset_is_set(archive))
			return 0;
	}
	snprintf(rel, sizeof(rel), "%s", real + strlen(archive) + 1);
	if (archdb_open_file(file, false, false, &db, why, sizeof(why)) < 0 ||
	    !archdb_is_ours(db, archive, why, sizeof(why))) {
		sqlite3_close(db);
		errlist_add(errs, NULL, 0, 0, "'%s' not updated: %s; 'iomatrix index %s' rebuilds it",
			    file, why, archive);
		return -1;
	}
	struct archdb *x = db_writer(db, errs) == 0 ? archdb_wrap(db, archive) : NULL;
	struct arc_ref ref;
	char digest[65], stamp[65];
	int verified, rc = -1;
	if (x && arc_ref_make(real, rel, &ref) == 0) {
		arc_stamp(real, digest, stamp);
		rc = archdb_exec(x->db, "BEGIN IMMEDIATE", errs);
		if (rc == 0)
			testhook_point("index_add");
		if (rc == 0)
			rc = archdb_put(x, &ref, digest, &verified, errs);
		if (rc == 0)
			rc = archdb_exec(x->db, "COMMIT", errs);
		else
			sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
		arc_ref_release(&ref);
	}
	archdb_close(x);
	if (rc < 0)
		errlist_add(errs, NULL, 0, 0, "'%s' not updated; 'iomatrix index %s' repairs it",
			    file, archive);
	return rc;
}
