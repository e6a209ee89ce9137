/*
 * archdb_query.c - `iomatrix query`: one read-only statement on an
 * archive's index (archdb.h), printed as an aligned table, a GitHub
 * Markdown table with the report's number formatting (3 significant
 * figures, thousands separators, units in the header: a paste-ready table
 * of any question), CSV, JSON or HTML.
 *
 * Read-only three times over: the file is opened SQLITE_OPEN_READONLY, an
 * authorizer refuses every action but reading (no write, ATTACH, DETACH,
 * transaction, or pragma but a few that only read), and the statement
 * must be one that sqlite3_stmt_readonly() says writes nothing.  An index
 * that is not this archive's, or that sets changed since, is refused: the
 * answer would be numbers the sets do not hold.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "archdb.h"
#include "archdb_query.h"
#include "archdb_stamp.h"
#include "model/report.h"
#include "render/escape.h"
#include "resultset/setwalk.h"
#include "util/cliopt.h"
#include "util/array.h"
#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/units.h"

/* Pragmas a query may use: each only reads (with or without an
 * argument, which names a table). */
static const char *const read_pragmas[] = {
	"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "collation_list", "function_list", "pragma_list",
	"compile_options", "database_list", "module_list",
};
/* ... and these only without an argument (with one they write). */
static const char *const read_pragmas_bare[] = {
	"user_version", "schema_version", "application_id", "page_size", "page_count",
	"freelist_count", "encoding", "journal_mode", "foreign_keys",
};

struct authz {
	char why[200];
};

static int authorize(void *arg, int action, const char *a, const char *b, const char *db,
		     const char *trigger)
{
	struct authz *z = arg;
	(void)db;
	(void)trigger;
	switch (action) {
	case SQLITE_SELECT: case SQLITE_READ: case SQLITE_FUNCTION: case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_PRAGMA:
		for (size_t i = 0; a && i < sizeof(read_pragmas) / sizeof(read_pragmas[0]); i++)
			if (!strcasecmp(a, read_pragmas[i]))
				return SQLITE_OK;
		for (size_t i = 0; a && !b && i < sizeof(read_pragmas_bare) / sizeof(read_pragmas_bare[0]); i++)
			if (!strcasecmp(a, read_pragmas_bare[i]))
				return SQLITE_OK;
		snprintf(z->why, sizeof(z->why), "pragma %s%s%s is not allowed (a query only reads)",
			 a ? a : "?", b ? " = " : "", b ? b : "");
		return SQLITE_DENY;
	case SQLITE_ATTACH: case SQLITE_DETACH:
		snprintf(z->why, sizeof(z->why), "ATTACH and DETACH are not allowed (a query reads "
			 "this archive's index only)");
		return SQLITE_DENY;
	default:
		snprintf(z->why, sizeof(z->why), "a query only reads: it may not write, change the "
			 "schema or begin a transaction");
		return SQLITE_DENY;
	}
}

/* ---- is the index current? ---- */

struct fresh {
	sqlite3 *db;
	sqlite3_stmt *q;
	size_t stale, missing, sets;
	char **seen;
	size_t nseen;
};

static int fresh_one(const char *set, const char *rel, void *arg)
{
	struct fresh *f = arg;
	char digest[65], stamp[65];
	if (array_add_str(&f->seen, &f->nseen, strdup(rel)) < 0)
		return -ENOMEM;
	f->sets++;
	arc_stamp(set, digest, stamp);
	sqlite3_reset(f->q);
	sqlite3_bind_text(f->q, 1, rel, -1, SQLITE_STATIC);
	if (sqlite3_step(f->q) != SQLITE_ROW)
		f->missing++;
	else if (!sqlite3_column_text(f->q, 0) ||
		 strcmp((const char *)sqlite3_column_text(f->q, 0), stamp))
		f->stale++;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 0 current (missing sets only warned about), -1 with errs. */
static int check_current(sqlite3 *db, const char *archive, struct errlist *errs)
{
	struct fresh f = { .db = db };
	size_t gone = 0;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "SELECT stamp FROM sets WHERE path = ?", -1, &f.q, NULL) != SQLITE_OK)
		return -1;
	if (resultset_walk(archive, 1, fresh_one, &f) < 0)
		rc = -1;
	sqlite3_finalize(f.q);
	if (f.nseen > 1)
		qsort(f.seen, f.nseen, sizeof(*f.seen), str_cmp);
	sqlite3_stmt *all;
	if (rc == 0 && sqlite3_prepare_v2(db, "SELECT path FROM sets", -1, &all, NULL) == SQLITE_OK) {
		while (sqlite3_step(all) == SQLITE_ROW) {
			const char *p = (const char *)sqlite3_column_text(all, 0);
			if (!p || !f.nseen || !bsearch(&p, f.seen, f.nseen, sizeof(*f.seen), str_cmp))
				gone++;
		}
		sqlite3_finalize(all);
	}
	for (size_t i = 0; i < f.nseen; i++)
		free(f.seen[i]);
	free(f.seen);
	if (rc == 0 && (f.stale || gone)) {
		errlist_add(errs, NULL, 0, 0, "'%s/%s' is out of date: %zu set%s changed and %zu "
			    "gone since it was made; run 'iomatrix index %s' first", archive,
			    ARCHDB_FILE, f.stale, f.stale == 1 ? "" : "s", gone, archive);
		return -1;
	}
	if (f.missing)
		fprintf(stderr, "iomatrix: warning: %zu of the %zu sets are not in the index "
			"yet ('iomatrix index %s' adds them)\n", f.missing, f.sets, archive);
	return rc;
}

/* ---- the rows, in memory (the table and Markdown align on them) ---- */

struct cell_v {
	int type;              /* SQLITE_INTEGER, FLOAT, TEXT, BLOB, NULL */
	long long i;
	double d;
	char *s;               /* TEXT; BLOB as "x'..'" */
};

struct result {
	int ncol;
	char **name;
	const char **unit;
	bool *numeric;         /* every value of the column a number or NULL */
	struct cell_v *v;      /* nrow x ncol */
	size_t nrow;
};

static const char *unit_by_name(const char *n)
{
	size_t l = strlen(n);
#define ENDS(s) (l >= sizeof(s) - 1 && !strcmp(n + l - (sizeof(s) - 1), s))
	if (ENDS("_bytes_s"))
		return "bytes/s";
	if (ENDS("_ns"))
		return "ns";
	if (ENDS("_bytes") || !strcmp(n, "bytes"))
		return "bytes";
	if (ENDS("_pct"))
		return "%";
	if (ENDS("_cv") || ENDS("cv"))
		return NULL;
	if (ENDS("iops") || !strncmp(n, "iops_", 5))
		return "IOPS";
	if (!strncmp(n, "bw_", 3))
		return "bytes/s";
#undef ENDS
	return NULL;
}

static int fetch(sqlite3_stmt *st, struct result *r)
{
	r->ncol = sqlite3_column_count(st);
	r->name = calloc((size_t)r->ncol + 1, sizeof(*r->name));
	r->unit = calloc((size_t)r->ncol + 1, sizeof(*r->unit));
	r->numeric = calloc((size_t)r->ncol + 1, sizeof(*r->numeric));
	if (!r->name || !r->unit || !r->numeric)
		return -1;
	for (int c = 0; c < r->ncol; c++) {
		const char *n = sqlite3_column_name(st, c);
		const char *t = sqlite3_column_table_name(st, c);
		const char *o = sqlite3_column_origin_name(st, c);
		if (!(r->name[c] = strdup(n ? n : "?")))
			return -1;
		r->unit[c] = t && o ? archdb_col_unit(t, o) : NULL;
		if (!r->unit[c])
			r->unit[c] = unit_by_name(r->name[c]);
		r->numeric[c] = true;
	}
	size_t alloc = 0;
	int rc;
	bool *num = calloc((size_t)r->ncol + 1, sizeof(*num));   /* a number seen */
	if (!num)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (r->nrow == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			struct cell_v *p = realloc(r->v, alloc * (size_t)(r->ncol ? r->ncol : 1) * sizeof(*p));
			if (!p) {
				free(num);
				return -1;
			}
			r->v = p;
		}
		for (int c = 0; c < r->ncol; c++) {
			struct cell_v *x = &r->v[r->nrow * (size_t)r->ncol + (size_t)c];
			memset(x, 0, sizeof(*x));
			x->type = sqlite3_column_type(st, c);
			num[c] |= x->type == SQLITE_INTEGER || x->type == SQLITE_FLOAT;
			if (x->type == SQLITE_INTEGER)
				x->i = sqlite3_column_int64(st, c);
			else if (x->type == SQLITE_FLOAT)
				x->d = sqlite3_column_double(st, c);
			else if (x->type == SQLITE_TEXT || x->type == SQLITE_BLOB) {
				const unsigned char *t = x->type == SQLITE_TEXT ?
					sqlite3_column_text(st, c) : NULL;
				struct sbuf b = SBUF_INIT;
				if (t) {
					sbuf_add(&b, t, (size_t)sqlite3_column_bytes(st, c));
				} else {
					const unsigned char *p = sqlite3_column_blob(st, c);
					sbuf_adds(&b, "x'");
					for (int k = 0; p && k < sqlite3_column_bytes(st, c); k++)
						sbuf_addf(&b, "%02x", p[k]);
					sbuf_adds(&b, "'");
				}
				if (!(x->s = sbuf_detach(&b))) {
					free(num);
					return -1;
				}
				r->numeric[c] = false;
			}
		}
		r->nrow++;
	}
	for (int c = 0; c < r->ncol; c++)
		r->numeric[c] = r->numeric[c] && num[c];   /* all NULL: text */
	free(num);
	return rc == SQLITE_DONE ? 0 : -2;
}

static void result_release(struct result *r)
{
	for (size_t i = 0; r->v && i < r->nrow * (size_t)r->ncol; i++)
		free(r->v[i].s);
	for (int c = 0; r->name && c < r->ncol; c++)
		free(r->name[c]);
	free(r->v);
	free(r->name);
	free(r->unit);
	free(r->numeric);
}

/* Counters and ids are shown whole, without separators. */
static bool col_is_id(const char *n)
{
	size_t l = strlen(n);
	return !strcmp(n, "rep") || !strcmp(n, "i") || !strcmp(n, "dev") || !strcmp(n, "point") ||
	       !strcmp(n, "id") || (l > 3 && !strcmp(n + l - 3, "_id"));
}

/* A value for people (table, md, html): numbers as the report writes
 * them (REAL: 3 significant figures; INTEGER: whole, thousands
 * separated), NULL empty; for csv numbers in full.  Text through termesc
 * in every format (the format's own escaping follows): stdout is often a
 * terminal. */
static void value_text(const struct cell_v *x, const char *col, bool people, struct sbuf *b)
{
	char t[64], g[96];
	switch (x->type) {
	case SQLITE_INTEGER:
		snprintf(t, sizeof(t), "%lld", x->i);
		if (people && !col_is_id(col)) {
			units_group_digits(t, g, sizeof(g));
			sbuf_adds(b, g);
		} else {
			sbuf_adds(b, t);
		}
		break;
	case SQLITE_FLOAT:
		if (people)
			fmt_sig3(x->d, t, sizeof(t));
		else   /* every digit, and no more: 35.583, not 35.582999999999998 */
			for (int prec = 15; prec <= 17; prec++) {
				snprintf(t, sizeof(t), "%.*g", prec, x->d);
				if (strtod(t, NULL) == x->d)
					break;
			}
		sbuf_adds(b, t);
		break;
	case SQLITE_NULL:
		break;
	default:   /* a set's names may hold anything: the terminal sees text */
		termesc_append(b, x->s);
	}
}

static void header_text(const struct result *r, int c, struct sbuf *b)
{
	sbuf_adds(b, r->name[c]);
	if (r->unit[c])
		sbuf_addf(b, " (%s)", r->unit[c]);
}

static void write_table(const struct result *r, FILE *out)
{
	size_t *w = calloc((size_t)r->ncol + 1, sizeof(*w));
	struct sbuf b = SBUF_INIT;
	if (!w)
		return;
	for (size_t i = 0; i <= r->nrow; i++)
		for (int c = 0; c < r->ncol; c++) {
			sbuf_reset(&b);
			if (i == 0)
				header_text(r, c, &b);
			else
				value_text(&r->v[(i - 1) * (size_t)r->ncol + (size_t)c], r->name[c], true, &b);
			struct sbuf t = SBUF_INIT;
			termesc_append(&t, sbuf_str(&b));
			if (t.len > w[c])
				w[c] = t.len;
			sbuf_release(&t);
		}
	for (size_t i = 0; i <= r->nrow; i++) {
		for (int c = 0; c < r->ncol; c++) {
			struct sbuf t = SBUF_INIT;
			sbuf_reset(&b);
			if (i == 0)
				header_text(r, c, &b);
			else
				value_text(&r->v[(i - 1) * (size_t)r->ncol + (size_t)c], r->name[c], true, &b);
			termesc_append(&t, sbuf_str(&b));
			bool right = i && r->numeric[c];
			fprintf(out, "%s%*s%s%*s", c ? "  " : "", right ? (int)(w[c] - t.len) : 0, "",
				sbuf_str(&t), c + 1 < r->ncol && !right ? (int)(w[c] - t.len) : 0, "");
			sbuf_release(&t);
		}
		fputc('\n', out);
	}
	sbuf_release(&b);
	free(w);
}

/* How Markdown and HTML spell a table: the text before the header
 * cells, around each cell, between the rows and after the table. */
struct query_markup {
	const char *head, *head_end;    /* around the header row */
	const char *rule, *rule_num;    /* a column's cell of the rule below it, or none */
	const char *row, *row_end, *tail;
	const char *th, *th_end, *td, *td_num, *td_end;
	enum esc_mode esc;
};

static const struct query_markup query_md = {
	.head = "|", .head_end = "\n|", .rule = "---|", .rule_num = "---:|",
	.row = "|", .row_end = "\n", .tail = "", .th = " ", .th_end = " |", .td = " ",
	.td_num = " ", .td_end = " |", .esc = ESC_MD,
};

static const struct query_markup query_html = {
	.head = "<table>\n<thead>\n<tr>", .head_end = "</tr>\n</thead>\n<tbody>\n",
	.row = "<tr>", .row_end = "</tr>\n", .tail = "</tbody>\n</table>\n", .th = "<th>",
	.th_end = "</th>", .td = "<td>", .td_num = "<td class=\"num\">", .td_end = "</td>",
	.esc = ESC_HTML,
};

static void write_markup(const struct result *r, const struct query_markup *m, FILE *out)
{
	struct sbuf b = SBUF_INIT, v = SBUF_INIT;
	sbuf_adds(&b, m->head);
	for (int c = 0; c < r->ncol; c++) {
		sbuf_reset(&v);
		header_text(r, c, &v);
		sbuf_adds(&b, m->th);
		escape_append(&b, sbuf_str(&v), m->esc);
		sbuf_adds(&b, m->th_end);
	}
	sbuf_adds(&b, m->head_end);
	for (int c = 0; m->rule && c < r->ncol; c++)
		sbuf_adds(&b, r->numeric[c] ? m->rule_num : m->rule);
	if (m->rule)
		sbuf_adds(&b, "\n");
	for (size_t i = 0; i < r->nrow; i++) {
		sbuf_adds(&b, m->row);
		for (int c = 0; c < r->ncol; c++) {
			sbuf_reset(&v);
			value_text(&r->v[i * (size_t)r->ncol + (size_t)c], r->name[c], true, &v);
			sbuf_adds(&b, r->numeric[c] ? m->td_num : m->td);
			escape_append(&b, sbuf_str(&v), m->esc);
			sbuf_adds(&b, m->td_end);
		}
		sbuf_adds(&b, m->row_end);
	}
	sbuf_adds(&b, m->tail);
	fputs(sbuf_str(&b), out);
	sbuf_release(&b);
	sbuf_release(&v);
}

static void write_csv(const struct result *r, FILE *out)
{
	struct sbuf b = SBUF_INIT, v = SBUF_INIT;
	for (size_t i = 0; i <= r->nrow; i++) {
		for (int c = 0; c < r->ncol; c++) {
			sbuf_reset(&v);
			if (i == 0)
				sbuf_adds(&v, r->name[c]);
			else
				value_text(&r->v[(i - 1) * (size_t)r->ncol + (size_t)c], r->name[c], false, &v);
			if (c)
				sbuf_addc(&b, ',');
			escape_append(&b, sbuf_str(&v), ESC_CSV);
		}
		sbuf_adds(&b, "\n");
	}
	fputs(sbuf_str(&b), out);
	sbuf_release(&b);
	sbuf_release(&v);
}

static int write_json(const struct result *r, FILE *out)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < r->nrow; i++) {
		cJSON *o = cJSON_CreateObject();
		for (int c = 0; o && c < r->ncol; c++) {
			const struct cell_v *x = &r->v[i * (size_t)r->ncol + (size_t)c];
			cJSON *v = x->type == SQLITE_INTEGER ? cJSON_CreateNumber((double)x->i) :
				   x->type == SQLITE_FLOAT && isfinite(x->d) ? cJSON_CreateNumber(x->d) :
				   x->s ? cJSON_CreateString(x->s) : cJSON_CreateNull();
			cJSON_AddItemToObject(o, r->name[c], v);
		}
		cJSON_AddItemToArray(a, o);
	}
	char *s = a ? cJSON_Print(a) : NULL;
	if (s)
		fprintf(out, "%s\n", s);
	free(s);
	cJSON_Delete(a);
	return s ? 0 : -1;
}

/* Is there anything but blanks and comments after the statement? */
static bool more_sql(const char *tail)
{
	while (tail && *tail) {
		if (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == '\r' || *tail == ';') {
			tail++;
		} else if (!strncmp(tail, "--", 2)) {
			tail += strcspn(tail, "\n");
		} else if (!strncmp(tail, "/*", 2)) {
			const char *e = strstr(tail + 2, "*/");
			tail = e ? e + 2 : tail + strlen(tail);
		} else {
			return true;
		}
	}
	return false;
}

int archdb_query(const char *archive, const char *sql, enum archdb_format fmt, FILE *out,
		 struct errlist *errs)
{
	char file[PATH_MAX], why[256];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	struct authz z = { "" };
	struct result r = { 0 };
	const char *tail = NULL;
	int rc = EXIT_USAGE;

	if (fsutil_join(file, sizeof(file), archive, ARCHDB_FILE) < 0 || access(file, F_OK) < 0) {
		errlist_add(errs, NULL, 0, 0, "no index in '%s': make one with 'iomatrix index %s'",
			    archive, archive);
		return EXIT_USAGE;
	}
	if (archdb_open_file(file, true, false, &db, why, sizeof(why)) < 0) {
		errlist_add(errs, NULL, 0, 0, "%s", why);
		return EXIT_USAGE;
	}
	if (!archdb_is_ours(db, archive, why, sizeof(why))) {
		errlist_add(errs, NULL, 0, 0, "'%s' is not read: %s; 'iomatrix index %s' rebuilds "
			    "it from the sets", file, why, archive);
		goto out;
	}
	if (check_current(db, archive, errs) < 0)
		goto out;
	sqlite3_set_authorizer(db, authorize, &z);
	int pr = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
	if (pr != SQLITE_OK || !st) {
		/* the authorizer's reason first: SQLite only says "not authorized" */
		errlist_add(errs, NULL, 0, 0, "query: %s", z.why[0] ? z.why :
			    pr != SQLITE_OK ? sqlite3_errmsg(db) : "no statement in it");
		goto out;
	}
	if (more_sql(tail) || !sqlite3_stmt_readonly(st)) {
		errlist_add(errs, NULL, 0, 0, "query: %s", more_sql(tail) ?
			    "one statement at a time" : "a query only reads");
		goto out;
	}
	int fr = fetch(st, &r);
	if (fr == -2) {
		errlist_add(errs, NULL, 0, 0, "query: %s", sqlite3_errmsg(db));
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (fr < 0)
		goto out;
	if (fmt == ARCHDB_MD)
		write_markup(&r, &query_md, out);
	else if (fmt == ARCHDB_CSV)
		write_csv(&r, out);
	else if (fmt == ARCHDB_JSON && write_json(&r, out) < 0)
		goto out;
	else if (fmt == ARCHDB_HTML)
		write_markup(&r, &query_html, out);
	else if (fmt == ARCHDB_TABLE)
		write_table(&r, out);
	rc = EXIT_OK;
out:
	result_release(&r);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}
