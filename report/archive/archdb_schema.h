/*
 * archdb_schema.h - the tables and views of the archive's index
 * (archdb.h), once (archdb_schema.c): the statements that make a new
 * index and docs/database.md's table of every column come from them, and
 * for a table whose rows are made of one struct (a plateau, a load point,
 * a statistic...) which field fills each column.
 */
#ifndef IOMATRIX_ARCHDB_SCHEMA_H
#define IOMATRIX_ARCHDB_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/sbuf.h"

#define ARCHDB_FILE "index.sqlite"
/* PRAGMA user_version: bumped when a table or a column changes meaning */
#define ARCHDB_SCHEMA_VERSION 3

/* The C type of the field a column is written from. */
enum archdb_field {
	ARCHDB_FIELD_NONE,      /* the writer binds the column itself */
	ARCHDB_FIELD_DOUBLE,    /* NAN is NULL */
	ARCHDB_FIELD_INT,
	ARCHDB_FIELD_BOOL,
	ARCHDB_FIELD_STR,       /* char *, never NULL */
	ARCHDB_FIELD_STR_NULL,  /* char *, NULL is NULL */
};
#define ARCHDB_FIELD_OF(x) _Generic((x), double: ARCHDB_FIELD_DOUBLE, int: ARCHDB_FIELD_INT, \
				    bool: ARCHDB_FIELD_BOOL, char *: ARCHDB_FIELD_STR)

struct archdb_col {
	const char *name;
	const char *type;       /* "INTEGER", "REAL", "TEXT" */
	const char *unit;       /* "ns", "bytes", "IOPS", ... or NULL */
	const char *help;       /* what it means, for docs/database.md */
	/* where the value is in the struct the table's rows are made of
	 * (archdb_write.c binds every such column of a row in one call;
	 * archdb_read.c reads list_entries back by them) */
	size_t off;
	enum archdb_field field;
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

#endif
