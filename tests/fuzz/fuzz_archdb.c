/*
 * fuzz_archdb.c - libFuzzer target for what history, list and the site read
 * from an archive's index (report/archive/archdb_read.h): a real archive
 * (tests/data/db-archive/sets, copied once per process into a scratch
 * directory and indexed by archdb_update) whose index.sqlite the input
 * rewrites, value by value, before the readers take it.  Aborts when a
 * record or a list entry the readers accept breaks the bounds of a set's
 * own numbers (a scale that is not a positive finite number, a count out
 * of range, a metric negative or not finite, a device index outside its
 * set, a control character in a name), or names its set by anything but
 * the scan's path.
 *
 * Input: a list of edits, each 4 bytes then a value: table, column, set
 * (0: every row, else set_id = it), kind (0 int64: 8 bytes, 1 double: 8
 * bytes, 2 text: a length byte and the bytes, 3 NULL, 4 delete the rows).
 * Run from the source tree (IOMATRIX_ROOT, else the working directory).
 * Also built into tests/unit/test_fuzz_regress.c to replay inputs.
 */
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "archive/archdb_schema.h"
#include "archive/archdb_update.h"
#include "archive/setarchive.h"
#include "archive/setlist.h"
#include "resultset/rset.h"
#include "util/fsutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char archdb_fuzz_base[256];
static unsigned char *archdb_fuzz_pristine;
static size_t archdb_fuzz_pristine_len;

static int archdb_fuzz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void archdb_fuzz_cleanup(void)
{
	if (archdb_fuzz_base[0])
		nftw(archdb_fuzz_base, archdb_fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* The scratch archive, made and indexed once; its index's bytes kept. */
static const char *archdb_fuzz_archive(void)
{
	char cmd[PATH_MAX * 2 + 64], file[PATH_MAX];
	const char *root = getenv("IOMATRIX_ROOT");
	if (archdb_fuzz_pristine)
		return archdb_fuzz_base;
	snprintf(archdb_fuzz_base, sizeof(archdb_fuzz_base), "%s/iomatrix-fuzz-db.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(archdb_fuzz_base))
		abort();
	atexit(archdb_fuzz_cleanup);
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/data/db-archive/sets/.' '%s/'",
		 root && *root ? root : ".", archdb_fuzz_base);
	struct archdb_stats st;
	struct errlist errs = ERRLIST_INIT;
	if (system(cmd) != 0 || archdb_update(archdb_fuzz_base, &st, NULL, &errs) < 0 || st.sets < 5) {
		fprintf(stderr, "fuzz_archdb: cannot make the archive (run from the source tree)\n");
		abort();
	}
	errlist_release(&errs);
	snprintf(file, sizeof(file), "%s/%s", archdb_fuzz_base, ARCHDB_FILE);
	archdb_fuzz_pristine = (unsigned char *)fsutil_read(file, 1u << 30, &archdb_fuzz_pristine_len);
	if (!archdb_fuzz_pristine)
		abort();
	return archdb_fuzz_base;
}

/* One edit of the input; the number of bytes it took (0: the end). */
static size_t archdb_fuzz_edit(sqlite3 *db, const uint8_t *d, size_t n)
{
	if (n < 4)
		return 0;
	const struct archdb_table *t = &archdb_tables[d[0] % archdb_ntables];
	size_t ncol, used = 4;
	const struct archdb_col *c = archdb_table_cols(t, &ncol);
	const char *col = c[d[1] % ncol].name;
	bool by_set = d[2] && strcmp(t->name, "meta");
	char sql[512];
	sqlite3_stmt *st = NULL;
	if (d[3] % 5 == 4)
		snprintf(sql, sizeof(sql), "DELETE FROM %s%s", t->name, by_set ? " WHERE set_id = ?2" : "");
	else
		snprintf(sql, sizeof(sql), "UPDATE %s SET \"%s\" = ?1%s", t->name, col,
			 by_set ? " WHERE set_id = ?2" : "");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return n;
	if (by_set)
		sqlite3_bind_int(st, 2, d[2]);
	switch (d[3] % 5) {
	case 0: case 1: {
		uint64_t v = 0;
		if (n < 12) {
			sqlite3_finalize(st);
			return n;
		}
		memcpy(&v, d + 4, 8);
		used += 8;
		double x;
		memcpy(&x, &v, 8);
		if (d[3] % 5 == 0)
			sqlite3_bind_int64(st, 1, (sqlite3_int64)v);
		else
			sqlite3_bind_double(st, 1, x);
		break;
	}
	case 2: {
		size_t len = n > 4 ? d[4] : 0;
		if (n < 5 + len) {
			sqlite3_finalize(st);
			return n;
		}
		sqlite3_bind_text(st, 1, (const char *)d + 5, (int)len, SQLITE_TRANSIENT);
		used += 1 + len;
		break;
	}
	default:
		sqlite3_bind_null(st, 1);
	}
	sqlite3_step(st);
	sqlite3_finalize(st);
	return used;
}

static void archdb_fuzz_text_ok(const char *s, bool sep)
{
	for (; s && *s; s++)
		if (((unsigned char)*s < 0x20 && !(sep && *s == 0x1f)) || *s == 0x7f)
			abort();
}

/* What a record the readers accept must be (archdb_read.c's promise). */
static void archdb_fuzz_check(const struct arc_ref *ref, const struct arc_set *s)
{
	if (!s->name || strcmp(s->name, ref->name) || !s->path || strcmp(s->path, ref->path) ||
	    !s->date || !s->suite || !s->host || !s->status || !s->source)
		abort();
	if (!(isfinite(s->scale) && s->scale > 0) || s->cells_done < 0 ||
	    s->cells_done > RSET_MAX_CELLS || s->cells_total < 0 || s->cells_total > RSET_MAX_CELLS ||
	    s->cells_failed < 0 || s->cells_failed > s->cells_done || s->ncells > RSET_MAX_CELLS)
		abort();
	archdb_fuzz_text_ok(s->suite, false);
	archdb_fuzz_text_ok(s->host, false);
	for (size_t i = 0; i < s->ndevs; i++) {
		archdb_fuzz_text_ok(s->devs[i].name, false);
		archdb_fuzz_text_ok(s->devs[i].ident, true);
		if (!s->devs[i].name || !s->devs[i].host || !s->devs[i].ident)
			abort();
	}
	for (size_t i = 0; i < s->ncells; i++) {
		const struct arc_cell *c = &s->cells[i];
		if (c->dev >= s->ndevs || !c->label || !c->sig)
			abort();
		for (int m = 0; m < ARC_NMETRIC; m++)
			if (c->m[m].n && (!isfinite(c->m[m].mean) || c->m[m].mean < 0 ||
					  !isfinite(c->m[m].ci95) || c->m[m].ci95 < 0 ||
					  c->m[m].n < 0 || c->m[m].n > 100000))
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *a = archdb_fuzz_archive();
	char file[PATH_MAX], side[PATH_MAX + 8], why[256];
	snprintf(file, sizeof(file), "%s/%s", a, ARCHDB_FILE);
	for (int i = 0; i < 2; i++) {
		snprintf(side, sizeof(side), "%s%s", file, i ? "-shm" : "-wal");
		unlink(side);
	}
	if (fsutil_write_atomic(file, archdb_fuzz_pristine, archdb_fuzz_pristine_len) < 0)
		abort();
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
		size_t off = 0, k;
		while (off < size && (k = archdb_fuzz_edit(db, data + off, size - off)) > 0)
			off += k;
	}
	sqlite3_close(db);

	/* history's and the site's path: every record the stream gives */
	struct arc_indexes ix = { 0 };
	struct arc_ref *refs = NULL;
	size_t nrefs = 0, hidden = 0;
	struct errlist errs = ERRLIST_INIT, warns = ERRLIST_INIT;
	char *dirs[1] = { (char *)a };
	if (arc_scan(dirs, 1, true, &ix, &hidden, &refs, &nrefs, &errs) == 0) {
		struct arc_stream *st = arc_stream_start(refs, nrefs);
		struct arc_set s;
		int rc;
		for (size_t i = 0; st && arc_stream_next(st, &s, &rc, &errs, &warns) == 0; i++) {
			if (rc == 0)
				archdb_fuzz_check(&refs[i], &s);
			arc_set_release(&s);
		}
		arc_stream_stop(st);
	}
	arc_refs_free(refs, nrefs);
	arc_indexes_close(&ix);

	/* list's path */
	struct setlist l = { .all = true };
	if (setlist_scan(&l, a, true) == 0)
		for (size_t i = 0; i < l.n; i++) {
			const struct setlist_entry *e = &l.e[i];
			const struct set_brief *b = &e->brief;
			if (!e->date || !e->status || !e->cells || !(b->scale > 0) || b->verify < -1 ||
			    b->verify > 2 || b->cells_done > RSET_MAX_CELLS ||
			    (b->cells_done >= 0 && b->cells_failed > b->cells_done))
				abort();
			for (size_t k = 0; k < b->ndevices; k++)
				if (!b->devices[k])
					abort();
			archdb_fuzz_text_ok(e->status, false);
			archdb_fuzz_text_ok(e->devices, false);
		}
	setlist_release(&l);
	(void)why;
	errlist_release(&errs);
	errlist_release(&warns);
	return 0;
}
