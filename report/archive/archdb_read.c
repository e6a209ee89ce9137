/*
 * archdb_read.c - rows of the index back into what history, site and list
 * use (archdb.h): a set's record and list's entry.  The rows are someone
 * else's file until proven otherwise: every number passes the bounds a
 * set's own numbers pass (cellcheck_value), every string is there and
 * holds no control character, every index points inside its set; a row
 * that fails any of it is not used (0), and the caller reads the set.
 * The set is named by the scan (ref: its name and path as found), never
 * by the row.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archdb.h"
#include "archdb_read.h"
#include "setlist_entry.h"
#include "resultset/cellcheck.h"
#include "resultset/rset.h"
#include "resultset/sums.h"
#include "suite/pattern.h"
#include "util/array.h"
#include "util/termesc.h"

/* Longest text a row may hold: far above any name, path or message. */
#define ROW_TEXT_MAX (64u << 10)

static const char *const read_sql[RD__COUNT] = {
	[RD_CURRENT] = "SELECT set_id, date, stamp FROM sets WHERE path = ? AND dirs_stamp = ? "
		       "AND sums_sha256 IS NOT NULL",
	[RD_SET] = "SELECT date, suite, title, host, status, source, scale, cells_done, "
		   "cells_total, cells_failed, has_report, verified, failed_why, loaded "
		   "FROM sets WHERE set_id = ?",
	[RD_DEVICES] = "SELECT dev, name, host, path, model, identity, ram FROM devices "
		       "WHERE set_id = ? ORDER BY dev",
	[RD_ENV] = "SELECT dev, key, value FROM environment WHERE set_id = ?",
	[RD_CELLS] = "SELECT cell_id, dev, label, pattern, bs, workload FROM cells "
		     "WHERE set_id = ? AND status = 'ok' ORDER BY cell_id",
	[RD_METRICS] = "SELECT cell_id, metric, mean, stddev, ci95, n FROM cell_metrics "
		       "WHERE set_id = ?",
	[RD_WARNINGS] = "SELECT kind, relative, message FROM warnings WHERE set_id = ? "
			"ORDER BY i",
	[RD_LIST] = "SELECT * FROM list_entries WHERE set_id = ?",   /* get_texts */
	[RD_BRIEF] = "SELECT started_at, suite, sha256, host, fleet_hosts, scale, source, status, "
		     "command, cells_done, cells_total, cells_failed, verify, fails_verification, "
		     "error FROM briefs WHERE set_id = ?",
	[RD_BRIEF_DEVS] = "SELECT i, name FROM brief_devices WHERE set_id = ? ORDER BY i",
};

/* Statement k of reader x (held), bound to set id. */
static sqlite3_stmt *rd(struct archdb_reader *x, int k, long long id)
{
	if (!x->rd[k] && sqlite3_prepare_v3(x->db, read_sql[k], -1, SQLITE_PREPARE_PERSISTENT,
					    &x->rd[k], NULL) != SQLITE_OK)
		return x->rd[k] = NULL;
	sqlite3_reset(x->rd[k]);
	sqlite3_bind_int64(x->rd[k], 1, id);
	return x->rd[k];
}

/* Whether any of the n bytes at t is below lo or is 0x7f (DEL): lo is
 * 0x20, or 0x1f where the identity key's separator 0x1f may stand (the
 * only byte between).  NUL is one, so a text with a NUL inside (shorter
 * than SQLite says) fails too.  8 bytes a step, the test of each word
 * or'ed into one flag (any byte below c: (x - c*ones) & ~x has its top
 * bit, exactly when some byte has; no branch a byte: a cell's signature
 * is some 200 bytes, and a loop over bytes was 9 % of the loaders' CPU
 * reading 10,000 sets). */
static bool text_ctl(const unsigned char *t, size_t n, unsigned lo)
{
	const uint64_t ones = 0x0101010101010101u, below = ones * lo, del = ones * 0x7f;
	uint64_t acc = 0, x, d;
	size_t k = 0;
	for (; k + 8 <= n; k += 8) {
		memcpy(&x, t + k, 8);
		d = x ^ del;
		acc |= ((x - below) & ~x) | ((d - ones) & ~d);
	}
	x = ones * 0x20;   /* the tail, after it spaces */
	memcpy(&x, t + k, n - k);
	d = x ^ del;
	acc |= ((x - below) & ~x) | ((d - ones) & ~d);
	return (acc & ones * 0x80) != 0;
}

/* Column i as text that passes: NULL when NULL or when it holds a control
 * character (but the identity key's separator, in an identity) or is too
 * long (*bad set then). */
static const char *col_text_sep(sqlite3_stmt *st, int i, bool null_ok, bool sep, int *bad)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	if (!t) {
		if (!null_ok)
			*bad = 1;
		return NULL;
	}
	size_t n = (size_t)sqlite3_column_bytes(st, i);
	if (!*bad && (n > ROW_TEXT_MAX || text_ctl(t, n, sep ? 0x1f : 0x20)))
		*bad = 1;
	return *bad ? NULL : (const char *)t;
}

static const char *col_text(sqlite3_stmt *st, int i, bool null_ok, int *bad)
{
	return col_text_sep(st, i, null_ok, false, bad);
}

static char *dup_text(sqlite3_stmt *st, int i, bool null_ok, int *bad)
{
	const char *t = col_text(st, i, null_ok, bad);
	char *d = t ? strdup(t) : NULL;
	if (t && !d)
		*bad = -1;
	return d;
}

/* Every text column of table whose schema row names a field (AT in
 * archdb_schema.c) into that field of the struct at base; st selects
 * the table's columns, all of them in order (SELECT *). */
static void get_texts(sqlite3_stmt *st, const char *table, void *base, int *bad)
{
	size_t n;
	const struct archdb_col *c = archdb_table_cols(archdb_table_find(table), &n);
	for (size_t i = 0; i < n; i++)
		if (c[i].field == ARCHDB_FIELD_STR || c[i].field == ARCHDB_FIELD_STR_NULL) {
			char *t = dup_text(st, (int)i, c[i].field == ARCHDB_FIELD_STR_NULL, bad);
			memcpy((char *)base + c[i].off, &t, sizeof(t));
		}
}

/* Column i as a number of kind k (cellcheck_value), else *bad. */
static double col_num(sqlite3_stmt *st, int i, enum cellcheck_kind k, int *bad)
{
	char why[128];
	int t = sqlite3_column_type(st, i);
	double v = sqlite3_column_double(st, i);
	if ((t != SQLITE_INTEGER && t != SQLITE_FLOAT) || cellcheck_value(k, "", v, why, sizeof(why)) < 0)
		*bad = 1;
	return v;
}

/* A count in [lo, hi]. */
static long long col_count(sqlite3_stmt *st, int i, long long lo, long long hi, int *bad)
{
	if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
		*bad = 1;
	long long v = sqlite3_column_int64(st, i);
	if (v < lo || v > hi)
		*bad = 1;
	return v;
}

long long archdb_current(struct archdb *db, const char *rel, const char *dirs, char **date,
			 char stamp[65])
{
	long long id = 0;
	int bad = 0;
	*date = NULL;
	struct archdb_reader *x = archdb_reader_take(db);
	sqlite3_stmt *st = rd(x, RD_CURRENT, 0);
	if (st) {
		sqlite3_bind_text(st, 1, rel, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, dirs, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			id = sqlite3_column_int64(st, 0);
			*date = dup_text(st, 1, false, &bad);
			const char *s = col_text(st, 2, false, &bad);
			if (!bad && (strlen(s) != 64 || strspn(s, "0123456789abcdef") != 64))
				bad = 1;
			if (!bad && stamp)
				memcpy(stamp, s, 65);
			if (bad || id <= 0) {
				free(*date);
				*date = NULL;
				id = 0;
			}
		}
		sqlite3_reset(st);
	}
	archdb_reader_done(x);
	return id;
}

/* The reader's messages: errors to errs, warnings to warns, each as
 * arc_set_load gave them ("PATH: ..."). */
static int messages(struct archdb_reader *x, long long id, const struct arc_ref *ref,
		    struct errlist *errs, struct errlist *warns)
{
	sqlite3_stmt *st = rd(x, RD_WARNINGS, id);
	int bad = 0;
	char full[2048];
	while (st && !bad && sqlite3_step(st) == SQLITE_ROW) {
		const char *kind = col_text(st, 0, false, &bad);
		long long rel = col_count(st, 1, 0, 1, &bad);
		const char *msg = col_text(st, 2, false, &bad);
		if (bad || (strcmp(kind, "warning") && strcmp(kind, "error")))
			return 0;
		snprintf(full, sizeof(full), "%s%s%s", rel ? ref->path : "", rel ? ": " : "", msg);
		errlist_add(!strcmp(kind, "error") ? errs : warns, NULL, 0, 0, "%s", full);
	}
	return st && !bad;
}

static int devices(struct archdb_reader *x, long long id, struct arc_set *s)
{
	sqlite3_stmt *st = rd(x, RD_DEVICES, id);
	int bad = 0;
	while (st && !bad && sqlite3_step(st) == SQLITE_ROW) {
		struct arc_dev *d = ARRAY_ADD(s->devs, s->ndevs);
		if (!d)
			return -1;
		col_count(st, 0, (long long)s->ndevs - 1, (long long)s->ndevs - 1, &bad);
		d->name = dup_text(st, 1, false, &bad);
		d->host = dup_text(st, 2, false, &bad);
		d->path = dup_text(st, 3, true, &bad);
		d->model = dup_text(st, 4, true, &bad);
		const char *ident = col_text_sep(st, 5, false, true, &bad);
		if (ident && !(d->ident = strdup(ident)))
			bad = -1;
		d->ram = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 :
			 (int)col_count(st, 6, 0, 1, &bad);
	}
	if (!st || bad)
		return bad < 0 ? -1 : 0;
	if (!(st = rd(x, RD_ENV, id)))
		return 0;
	while (!bad && sqlite3_step(st) == SQLITE_ROW) {
		long long dev = col_count(st, 0, 0, (long long)s->ndevs - 1, &bad);
		const char *key = col_text(st, 1, false, &bad);
		int k = 0;
		while (!bad && k < ARC_NENV && strcmp(arc_env_names[k], key))
			k++;
		if (bad || k == ARC_NENV || s->devs[dev].env[k])
			return 0;
		s->devs[dev].env[k] = dup_text(st, 2, false, &bad);
	}
	return bad < 0 ? -1 : !bad;
}

/* What history takes of each ok cell, and its metrics, each within the
 * bounds of the set's own numbers. */
static int cells(struct archdb_reader *x, long long id, struct arc_set *s)
{
	sqlite3_stmt *st = rd(x, RD_CELLS, id);
	long long *ids = NULL;
	size_t nalloc = 0, ialloc = 0;
	int bad = 0;
	while (st && !bad && sqlite3_step(st) == SQLITE_ROW) {
		struct arc_cell *p = array_grow(s->cells, &nalloc, s->ncells, sizeof(*p), 16);
		long long *q = array_grow(ids, &ialloc, s->ncells, sizeof(*q), 16);
		if (p)
			s->cells = p;
		if (q)
			ids = q;
		if (!p || !q) {
			free(ids);
			return -1;
		}
		struct arc_cell *c = &s->cells[s->ncells];
		memset(c, 0, sizeof(*c));
		ids[s->ncells] = col_count(st, 0, s->ncells ? ids[s->ncells - 1] + 1 : 1,
					   RSET_MAX_CELLS, &bad);
		s->ncells++;
		c->dev = (size_t)col_count(st, 1, 0, (long long)s->ndevs - 1, &bad);
		const char *label = col_text(st, 2, false, &bad);
		const char *pat = col_text(st, 3, false, &bad);
		double bs = col_num(st, 4, CELLCHECK_COUNT, &bad);
		enum pattern pp;
		if (bad || pattern_parse(pat, &pp) < 0 || strcmp(pattern_name(pp), pat)) {
			bad = bad ? bad : 1;
			break;
		}
		size_t ll = strlen(label) + strlen(pat) + 2;
		if ((c->label = malloc(ll)))
			snprintf(c->label, ll, "%s %s", label, pat);
		c->sig = dup_text(st, 5, false, &bad);
		c->seq_large = !pattern_is_random(pp) && bs >= 65536;
		if (!c->label)
			bad = -1;
	}
	if (st && !bad && (st = rd(x, RD_METRICS, id)))
		while (!bad && sqlite3_step(st) == SQLITE_ROW) {
			long long cid = col_count(st, 0, 1, RSET_MAX_CELLS, &bad);
			const char *m = col_text(st, 1, false, &bad);
			size_t lo = 0, hi = s->ncells;
			while (lo < hi) {   /* ids ascend */
				size_t mid = (lo + hi) / 2;
				if (ids[mid] < cid)
					lo = mid + 1;
				else
					hi = mid;
			}
			int k = 0;
			while (!bad && k < ARC_NMETRIC && strcmp(arc_metric_names[k], m))
				k++;
			if (bad || lo == s->ncells || ids[lo] != cid || k == ARC_NMETRIC ||
			    s->cells[lo].m[k].n) {
				bad = bad ? bad : 1;
				break;
			}
			/* the record's units: IOPS, MB/s, µs; checked as the set's */
			static const enum cellcheck_kind kinds[ARC_NMETRIC] = {
				CELLCHECK_IOPS, CELLCHECK_BW, CELLCHECK_LAT, CELLCHECK_LAT };
			static const double to_set[ARC_NMETRIC] = { 1, 1e6, 1e3, 1e3 };
			struct arc_val *v = &s->cells[lo].m[k];
			v->mean = col_num(st, 2, CELLCHECK_NONNEG, &bad);
			v->stddev = col_num(st, 3, CELLCHECK_NONNEG, &bad);
			v->ci95 = col_num(st, 4, CELLCHECK_NONNEG, &bad);
			v->n = (int)col_count(st, 5, 1, CELLCHECK_MAX_REPS, &bad);
			char why[128];
			if (cellcheck_value(kinds[k], "", v->mean * to_set[k], why, sizeof(why)) < 0)
				bad = 1;
		}
	free(ids);
	return bad < 0 ? -1 : st && !bad;
}

static int record(struct archdb_reader *x, long long id, const struct arc_ref *ref,
		  struct arc_set *s, int *rc, struct errlist *errs, struct errlist *warns)
{
	sqlite3_stmt *st = rd(x, RD_SET, id);
	int bad = 0;
	if (!st || sqlite3_step(st) != SQLITE_ROW)
		return 0;
	s->name = strdup(ref->name);
	s->path = strdup(ref->path);
	s->date = dup_text(st, 0, false, &bad);
	s->suite = dup_text(st, 1, false, &bad);
	s->title = dup_text(st, 2, true, &bad);
	s->host = dup_text(st, 3, false, &bad);
	s->status = dup_text(st, 4, false, &bad);
	s->source = dup_text(st, 5, false, &bad);
	s->scale = col_num(st, 6, CELLCHECK_FINITE, &bad);
	s->cells_done = (int)col_count(st, 7, 0, RSET_MAX_CELLS, &bad);
	s->cells_total = (int)col_count(st, 8, 0, RSET_MAX_CELLS, &bad);
	s->cells_failed = (int)col_count(st, 9, 0, s->cells_done, &bad);
	s->has_report = col_count(st, 10, 0, 1, &bad);
	const char *v = col_text(st, 11, false, &bad);
	s->failed_why = dup_text(st, 12, true, &bad);
	long long loaded = col_count(st, 13, 0, 1, &bad);
	if (bad || !s->name || !s->path || !(s->scale > 0))
		return bad < 0 || !s->name || !s->path ? -1 : 0;
	s->failed_verify = !strcmp(v, "FAILED");
	s->no_sums = !strcmp(v, "no checksums");
	if ((!s->failed_verify && !s->no_sums && strcmp(v, "intact")) ||
	    s->failed_verify != (s->failed_why != NULL) || s->no_sums)
		return 0;   /* a row without a digest is never current anyway */
	int r = messages(x, id, ref, errs, warns);
	if (r <= 0)
		return r;
	*rc = loaded ? 0 : -1;
	if (!loaded)
		return 1;
	if (s->failed_verify)
		arc_warn_failed(warns, ref->path, s->failed_why);
	if ((r = devices(x, id, s)) <= 0)
		return r;
	return s->failed_verify ? 1 : cells(x, id, s);
}

int archdb_record(struct archdb *db, long long id, const struct arc_ref *ref,
		  struct arc_set *s, int *rc, struct errlist *errs, struct errlist *warns)
{
	struct errlist e = ERRLIST_INIT, w = ERRLIST_INIT;
	memset(s, 0, sizeof(*s));
	struct archdb_reader *x = archdb_reader_take(db);
	int r = record(x, id, ref, s, rc, &e, &w);
	archdb_reader_done(x);
	if (r <= 0)
		arc_set_release(s);
	/* the messages only when the row stands: else the files say theirs */
	for (size_t i = 0; r > 0 && i < e.n; i++)
		errlist_add(errs, NULL, 0, 0, "%s", e.msgs[i]);
	for (size_t i = 0; r > 0 && i < w.n; i++)
		errlist_add(warns, NULL, 0, 0, "%s", w.msgs[i]);
	errlist_release(&e);
	errlist_release(&w);
	return r;
}

/* Column i as a string of the set in brief, as the set says it (the
 * JSON escapes it): any character but NUL, not too long; NULL is null. */
static char *dup_raw(sqlite3_stmt *st, int i, int *bad)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	if (!t)
		return NULL;
	size_t n = (size_t)sqlite3_column_bytes(st, i);
	char *d = NULL;
	if (n > ROW_TEXT_MAX || strlen((const char *)t) != n)
		*bad = 1;
	else if (!(d = strdup((const char *)t)))
		*bad = -1;
	return d;
}

/* A count of the set in brief: NULL -1 (unknown), else in [0, hi]. */
static long brief_count(sqlite3_stmt *st, int i, long long hi, int *bad)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : (long)col_count(st, i, 0, hi, bad);
}

/* The set in brief (render.h), path the set's where the scan found it. */
static int brief_read(struct archdb_reader *x, long long id, const char *path,
		      struct set_brief *b)
{
	sqlite3_stmt *st = rd(x, RD_BRIEF, id);
	int bad = 0;
	if (!st || sqlite3_step(st) != SQLITE_ROW)
		return 1;
	b->started_at = dup_raw(st, 0, &bad);
	b->suite = dup_raw(st, 1, &bad);
	b->sha256 = dup_raw(st, 2, &bad);
	b->host = dup_raw(st, 3, &bad);
	b->fleet_hosts = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
			 (long)col_count(st, 4, 1, 1 << 20, &bad);
	b->scale = col_num(st, 5, CELLCHECK_FINITE, &bad);
	b->source = dup_raw(st, 6, &bad);
	b->status = dup_raw(st, 7, &bad);
	b->command = dup_raw(st, 8, &bad);
	b->cells_done = (int)brief_count(st, 9, RSET_MAX_CELLS, &bad);
	b->cells_total = (int)brief_count(st, 10, RSET_MAX_CELLS, &bad);
	b->cells_failed = (int)brief_count(st, 11, RSET_MAX_CELLS, &bad);
	const char *v = sqlite3_column_type(st, 12) == SQLITE_NULL ? NULL : col_text(st, 12, false, &bad);
	b->verify = -1;
	for (int k = SUMS_INTACT; v && k <= SUMS_FAILED; k++)
		if (!strcmp(v, sums_state_name((enum sums_state)k)))
			b->verify = k;
	if (v && b->verify < 0)
		bad = bad ? bad : 1;
	b->fails_verification = dup_raw(st, 13, &bad);
	b->error = dup_raw(st, 14, &bad);
	if (b->cells_failed > b->cells_done && b->cells_done >= 0)
		bad = bad ? bad : 1;
	if (!bad && !(b->path = strdup(path)))
		bad = -1;
	sqlite3_reset(st);
	if (bad || !(st = rd(x, RD_BRIEF_DEVS, id)))
		return bad ? bad : 1;
	while (!bad && sqlite3_step(st) == SQLITE_ROW) {
		col_count(st, 0, (long long)b->ndevices, (long long)b->ndevices, &bad);
		char *name = dup_raw(st, 1, &bad);
		if (bad || !name) {   /* a device without a name is bad too */
			free(name);
			bad = bad ? bad : 1;
			break;
		}
		if (array_add_str(&b->devices, &b->ndevices, name) < 0)
			return -1;
	}
	sqlite3_reset(st);
	return bad;
}

int archdb_list_entry(struct archdb *db, long long id, const char *path,
		      struct setlist_entry *e)
{
	int bad = 0;
	struct sbuf b = SBUF_INIT;
	memset(e, 0, sizeof(*e));
	struct archdb_reader *x = archdb_reader_take(db);
	sqlite3_stmt *st = rd(x, RD_LIST, id);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		get_texts(st, "list_entries", e, &bad);
		sqlite3_reset(st);
		if (!bad)
			bad = brief_read(x, id, path, &e->brief);
	} else {
		bad = 1;
	}
	archdb_reader_done(x);
	termesc_append(&b, path);
	e->path = sbuf_detach(&b);
	if (!bad && !e->path)
		bad = -1;
	if (!bad && !(e->brief.scale > 0))
		bad = 1;
	if (bad)
		setlist_entry_release(e);
	return bad < 0 ? -1 : !bad;
}
