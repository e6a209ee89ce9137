/*
 * test_archdb.c - the index's schema (report/archive/archdb_schema.c): its
 * statements make a database, the cells table has a column for every key
 * of the key table (and each second field), named as the key, with the
 * type and unit its kind says; and what makes a file ours: exactly these
 * tables, views and indexes and this user_version (an added trigger, a
 * view, another version: not ours).
 */
#include "testutil.h"

#include <string.h>

#include <sqlite3.h>

#include "archive/archdb.h"
#include "suite/keys.h"

static sqlite3 *schema_db(void)
{
	sqlite3 *db;
	struct sbuf sql = SBUF_INIT;
	char v[64];
	assert_int_equal(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	archdb_schema_sql(&sql);
	snprintf(v, sizeof(v), "PRAGMA user_version = %d", ARCHDB_SCHEMA_VERSION);
	assert_int_equal(sqlite3_exec(db, sbuf_str(&sql), NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, v, NULL, NULL, NULL), SQLITE_OK);
	sbuf_release(&sql);
	return db;
}

static const char *col_type(sqlite3 *db, const char *table, const char *col)
{
	static char type[32];
	char sql[256];
	sqlite3_stmt *st;
	snprintf(sql, sizeof(sql), "SELECT type FROM pragma_table_info('%s') WHERE name = ?", table);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, col, -1, SQLITE_STATIC);
	type[0] = 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(type, sizeof(type), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return type;
}

static void test_cells_has_every_key(void **state)
{
	(void)state;
	sqlite3 *db = schema_db();
	for (int k = 0; k < NKEYS; k++) {
		const struct key *key = &cell_keys[k];
		const char *t = col_type(db, "cells", key->name);
		if (!*t)
			fail_msg("cells has no column for key %s", key->name);
		bool text = key->type == KT_PATTERN || key->type == KT_ENGINE || key->type == KT_DATA ||
			    key->type == KT_LABEL || key->type == KT_STEADY || key->type == KT_CPULIST ||
			    key->type == KT_CUSTOM || key->type == KT_RANDDIST;
		assert_string_equal(t, text ? "TEXT" : key->type == KT_PCT ? "REAL" : "INTEGER");
		if (key->json2 && !*col_type(db, "cells", key->json2))
			fail_msg("cells has no column %s (key %s)", key->json2, key->name);
	}
	assert_string_equal(archdb_col_unit("cells", "bs"), "bytes");
	assert_string_equal(archdb_col_unit("cells", "runtime"), "ns");
	assert_string_equal(archdb_col_unit("results", "lat_mean_ns"), "ns");
	assert_string_equal(archdb_col_unit("load_points", "offered_iops"), "IOPS");
	assert_null(archdb_col_unit("stats", "mean"));   /* the metric's own */
	assert_null(archdb_col_unit("no_such_table", "x"));
	sqlite3_close(db);
}

static void test_ours_exactly(void **state)
{
	char why[200];
	(void)state;
	sqlite3 *db = schema_db();
	assert_int_equal(archdb_is_ours(db, NULL, why, sizeof(why)), 1);
	assert_int_equal(sqlite3_exec(db, "CREATE TRIGGER t AFTER INSERT ON sets BEGIN "
				      "DELETE FROM meta; END", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(archdb_is_ours(db, NULL, why, sizeof(why)), 0);
	assert_string_equal(why, "its tables are not this version's");
	sqlite3_close(db);
	db = schema_db();
	assert_int_equal(sqlite3_exec(db, "CREATE VIEW sets2 AS SELECT 1", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(archdb_is_ours(db, NULL, why, sizeof(why)), 0);
	sqlite3_close(db);
	db = schema_db();
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 0", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(archdb_is_ours(db, NULL, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "schema version is 0"));
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cells_has_every_key),
		cmocka_unit_test(test_ours_exactly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
