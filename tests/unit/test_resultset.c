/*
 * test_resultset.c - the result-set writer: atomic writes leave no temp
 * files, set names are unique, every cell is on disk as its file at once
 * (a reopened set finds it), and the manifest's cell index written at the
 * end is sorted and deduplicated.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util/fsutil.h"
#include "resultset/cells.h"
#include "resultset/fleetfile.h"
#include "resultset/ptsfile.h"
#include "resultset/resultset.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/iomatrix-rs.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_atomic_write_replaces_and_leaves_no_temp(void **state)
{
	char path[128], buf[64] = "";
	FILE *f;
	(void)state;

	snprintf(path, sizeof(path), "%s/a.txt", tmpdir);
	assert_int_equal(fsutil_write_atomic(path, "first", 5), 0);
	assert_int_equal(fsutil_write_atomic(path, "second", 6), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), 6);
	fclose(f);
	assert_string_equal(buf, "second");
	assert_int_equal(count_entries(tmpdir), 1);
}

static void test_atomic_write_reports_errno(void **state)
{
	char path[128];
	(void)state;

	snprintf(path, sizeof(path), "%s/missing/a.txt", tmpdir);
	assert_int_equal(fsutil_write_atomic(path, "x", 1), -ENOENT);
}

static void test_set_names_are_unique(void **state)
{
	struct resultset a, b;
	char err[512];
	(void)state;

	assert_int_equal(resultset_create(&a, tmpdir, NULL, "quick",
					  cJSON_CreateObject(), err, sizeof(err)), 0);
	assert_int_equal(resultset_create(&b, tmpdir, NULL, "quick",
					  cJSON_CreateObject(), err, sizeof(err)), 0);
	assert_string_not_equal(a.dir, b.dir);
	/* same second: the second one gets a -2 suffix */
	if (strncmp(a.dir, b.dir, strlen(a.dir)) == 0)
		assert_string_equal(b.dir + strlen(a.dir), "-2");
	assert_non_null(strstr(a.dir, "_quick_"));
	assert_int_equal(count_entries(tmpdir), 2);
	resultset_release(&a);
	resultset_release(&b);
}

static void test_out_dir_refuses_existing_set(void **state)
{
	struct resultset a, b;
	char err[512], dir[128];
	(void)state;

	snprintf(dir, sizeof(dir), "%s/x/y/set", tmpdir);
	assert_int_equal(resultset_create(&a, NULL, dir, "s",
					  cJSON_CreateObject(), err, sizeof(err)), 0);
	assert_int_equal(resultset_create(&b, NULL, dir, "s",
					  cJSON_CreateObject(), err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "already holds a result set"));
	resultset_release(&a);
}

static cJSON *make_cell(const char *device, const char *label,
			const char *status)
{
	cJSON *c = cJSON_CreateObject(), *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "device", device);
	cJSON_AddStringToObject(p, "label", label);
	cJSON_AddItemToObject(c, "params", p);
	cJSON_AddStringToObject(c, "status", status);
	return c;
}

static void test_manifest_cell_index_sorted_and_on_disk(void **state)
{
	struct resultset rs, back;
	char err[512], dir[128], path[256];
	const cJSON *cells, *e;
	int ids[3], i = 0;
	(void)state;

	snprintf(dir, sizeof(dir), "%s/set", tmpdir);
	cJSON *m = cJSON_CreateObject();
	cJSON_AddNumberToObject(m, "schema_version", RESULTSET_SCHEMA_VERSION);
	assert_int_equal(resultset_create(&rs, NULL, dir, "s", m, err,
					  sizeof(err)), 0);
	assert_int_equal(resultset_write_cell(&rs, 3, make_cell("ssd", "C", "ok"),
					      err, sizeof(err)), 0);
	assert_int_equal(resultset_write_cell(&rs, 1, make_cell("hdd", "A", "failed"),
					      err, sizeof(err)), 0);
	/* rewrite of cell 1 (resume) replaces its entry */
	assert_int_equal(resultset_write_cell(&rs, 1, make_cell("hdd", "A", "ok"),
					      err, sizeof(err)), 0);
	assert_int_equal(resultset_write_cell(&rs, 2, make_cell("hdd", "B", "ok"),
					      err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/cells/0002.json", dir);
	assert_int_equal(access(path, R_OK), 0);

	/* while the run goes on (or after it was killed) the index is the
	 * cell files: a reopen finds all three, cell 1 as rewritten */
	assert_int_equal(resultset_open(&back, dir, err, sizeof(err)), 0);
	for (int id = 1; id <= 3; id++)
		assert_non_null(resultset_cell_entry(&back, id));
	assert_null(resultset_cell_entry(&back, 4));
	e = resultset_cell_entry(&back, 1);
	assert_non_null(e);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "status")->valuestring, "ok");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "file")->valuestring,
			    "cells/0001.json");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(back.manifest, "status")->valuestring,
			    "running");

	/* the end of the run writes the index: sorted, deduplicated */
	assert_int_equal(resultset_finish(&rs, "complete", err, sizeof(err)), 0);
	resultset_release(&back);
	assert_int_equal(resultset_open(&back, dir, err, sizeof(err)), 0);
	cells = cJSON_GetObjectItemCaseSensitive(back.manifest, "cells");
	assert_int_equal(cJSON_GetArraySize(cells), 3);
	cJSON_ArrayForEach(e, cells)
		ids[i++] = cJSON_GetObjectItemCaseSensitive(e, "id")->valueint;
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 2);
	assert_int_equal(ids[2], 3);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(back.manifest, "status")->valuestring,
			    "complete");
	assert_true(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(back.manifest, "finished_at")));
	resultset_release(&back);
	resultset_release(&rs);
}

/* One cell-file-name grammar (cells.h) on both sides: resume's index
 * (resultset_open) sees the cells the reader (rset_load, checked by
 * tests/integration/archive/list_counts_killed_run.sh) and `list` see.  Before it,
 * resultset_open took 00002.json for cell 2 and rset_load did not. */
static void test_cell_file_name_grammar(void **state)
{
	struct resultset rs, back;
	char err[512], dir[128], from[256], to[256], name[RESULTSET_CELL_NAME_MAX];
	(void)state;

	assert_int_equal(resultset_cell_file_id("0001.json"), 1);
	assert_int_equal(resultset_cell_file_id("9999.json"), 9999);
	assert_int_equal(resultset_cell_file_id("10000.json"), 10000);
	assert_int_equal(resultset_cell_file_id("9999999.json"), 9999999);
	static const char *const not_cells[] = { "00001.json", "1.json", "001.json",
		"0000.json", "010000.json", "10000000.json", "0001.json.tmp.12",
		"0001.JSON", "-001.json", "+001.json", " 001.json", "0001json", "" };
	for (size_t i = 0; i < sizeof(not_cells) / sizeof(not_cells[0]); i++)
		assert_int_equal(resultset_cell_file_id(not_cells[i]), 0);
	for (int id = 1; id <= 100000; id = id * 3 + 1) {
		resultset_cell_name(id, name, sizeof(name));
		assert_int_equal(resultset_cell_file_id(name), id);
	}

	snprintf(dir, sizeof(dir), "%s/set", tmpdir);
	cJSON *m = cJSON_CreateObject();
	cJSON_AddNumberToObject(m, "schema_version", RESULTSET_SCHEMA_VERSION);
	assert_int_equal(resultset_create(&rs, NULL, dir, "s", m, err, sizeof(err)), 0);
	assert_int_equal(resultset_write_cell(&rs, 1, make_cell("hdd", "A", "ok"),
					      err, sizeof(err)), 0);
	assert_int_equal(resultset_write_cell(&rs, 10000, make_cell("hdd", "B", "ok"),
					      err, sizeof(err)), 0);
	snprintf(from, sizeof(from), "%s/cells/0001.json", dir);
	snprintf(to, sizeof(to), "%s/cells/00002.json", dir);
	assert_int_equal(link(from, to), 0);

	assert_int_equal(resultset_open(&back, dir, err, sizeof(err)), 0);
	assert_non_null(resultset_cell_entry(&back, 1));
	assert_non_null(resultset_cell_entry(&back, 10000));
	assert_null(resultset_cell_entry(&back, 2));
	resultset_release(&back);
	resultset_release(&rs);
}

/* steady/DEV.json: what resultset_steady_write writes, resultset_steady_read
 * reads back; a hostile rounds_done (1e400) or a track with fewer values
 * than rounds_done restarts the device instead of an undefined cast. */
static void test_steady_file_roundtrip(void **state)
{
	struct suite_rounds cfg = { .on = true, .metric = SS_IOPS };
	struct rounds_track t[2], back_t[2];
	double v0[6] = { 100, 110, 105 }, v1[6] = { 7, 8, 9 }, b0[6], b1[6];
	struct rounds_state st = { .cfg = &cfg, .rounds_done = 3, .t = t, .nt = 2 };
	struct rounds_state back = { .cfg = &cfg, .t = back_t, .nt = 2 };
	char err[256], path[256];
	(void)state;

	steady_rule_init(&cfg.rule);
	cfg.rule.window = 3;
	cfg.rule.max = 5;
	memset(t, 0, sizeof(t));
	snprintf(st.device, sizeof(st.device), "ssd");
	snprintf(t[0].label, sizeof(t[0].label), "A");
	snprintf(t[1].label, sizeof(t[1].label), "B");
	t[0].values = v0;
	t[1].values = v1;
	t[0].n = t[1].n = 3;
	assert_int_equal(resultset_steady_write(tmpdir, &st, err, sizeof(err)), 0);

	memset(back_t, 0, sizeof(back_t));
	snprintf(back.device, sizeof(back.device), "ssd");
	snprintf(back_t[0].label, sizeof(back_t[0].label), "B"); /* by label */
	snprintf(back_t[1].label, sizeof(back_t[1].label), "A");
	back_t[0].values = b0;
	back_t[1].values = b1;
	assert_int_equal(resultset_steady_read(tmpdir, &back), 0);
	assert_int_equal(back.rounds_done, 3);
	assert_int_equal(back_t[0].n, 3);
	assert_true(b0[2] == 9 && b1[0] == 100 && b1[2] == 105);

	/* no file: round 0 */
	snprintf(back.device, sizeof(back.device), "hdd");
	assert_int_equal(resultset_steady_read(tmpdir, &back), -1);

	snprintf(back.device, sizeof(back.device), "ssd");
	snprintf(path, sizeof(path), "%s/steady/ssd.json", tmpdir);
	static const char *const bad[] = {
		"{\"rounds_done\": 1e400, \"tracks\": []}",
		"{\"rounds_done\": 3, \"tracks\": [{\"label\": \"A\", \"values\": [1, 2, 3]},"
		" {\"label\": \"B\", \"values\": [1]}]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(fsutil_write_atomic(path, bad[i], strlen(bad[i])), 0);
		back.rounds_done = 99;
		assert_int_equal(resultset_steady_read(tmpdir, &back), 0);
		assert_int_equal(back.rounds_done, 0);
	}
}

/* The fleet objects: what a fleet manifest says, --resume reads back;
 * a set without "fleet" is refused. */
static void test_fleet_facts_roundtrip(void **state)
{
	struct resultset rs, back;
	struct resultset_fleet_facts f;
	char err[512], dir[128];
	static const char *const devs[] = { "d=/x", "h2:d=/y" };
	(void)state;

	snprintf(dir, sizeof(dir), "%s/fleet", tmpdir);
	cJSON *m = cJSON_CreateObject();
	cJSON_AddNumberToObject(m, "schema_version", RESULTSET_SCHEMA_VERSION);
	cJSON_AddNumberToObject(m, "scale", 0.5);
	assert_int_equal(resultset_fleet_manifest(m, true, 4, devs, 2), 0);
	assert_int_equal(resultset_create(&rs, NULL, dir, "s", m, err, sizeof(err)), 0);
	cJSON *hosts = cJSON_CreateArray();
	struct resultset_fleet_host h = { .name = "h1", .status = "done" };
	cJSON_AddItemToArray(hosts, resultset_fleet_host_json(&h));
	h.name = "h2";
	h.status = "failed";
	h.error = "lost";
	cJSON_AddItemToArray(hosts, resultset_fleet_host_json(&h));
	assert_int_equal(resultset_fleet_save_hosts(&rs, hosts, NULL, 5000000), 0);
	assert_true(resultset_is_fleet(dir));

	assert_int_equal(resultset_open(&back, dir, err, sizeof(err)), 0);
	assert_int_equal(resultset_fleet_facts(&back, &f, err, sizeof(err)), 0);
	assert_true(f.aggregate);
	assert_int_equal(f.nhosts, 2);
	assert_string_equal(f.hosts[0], "h1");
	assert_string_equal(f.hosts[1], "h2");
	assert_null(f.hosts[2]);
	assert_int_equal(f.ndevice_args, 2);
	assert_string_equal(f.device_args[1], "h2:d=/y");
	assert_true(f.scale == 0.5);
	resultset_fleet_facts_release(&f);
	resultset_release(&back);
	resultset_release(&rs);

	assert_false(resultset_is_fleet(tmpdir));
	snprintf(dir, sizeof(dir), "%s/plain", tmpdir);
	m = cJSON_CreateObject();
	cJSON_AddNumberToObject(m, "schema_version", RESULTSET_SCHEMA_VERSION);
	assert_int_equal(resultset_create(&rs, NULL, dir, "s", m, err, sizeof(err)), 0);
	assert_false(resultset_is_fleet(dir));
	assert_int_equal(resultset_fleet_facts(&rs, &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a fleet result set"));
	resultset_release(&rs);
}

static void test_open_refuses_newer_schema(void **state)
{
	struct resultset rs;
	char err[512], path[128];
	(void)state;

	snprintf(path, sizeof(path), "%s/manifest.json", tmpdir);
	assert_int_equal(fsutil_write_atomic(path, "{\"schema_version\": 99}", 22), 0);
	assert_int_not_equal(resultset_open(&rs, tmpdir, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "schema_version"));
	/* nor a version that is not exactly ours (1.5 truncates to 1) */
	static const char *const bad[] = { "{\"schema_version\": 1.5}",
		"{\"schema_version\": 0}", "{\"schema_version\": -1}",
		"{\"schema_version\": \"1\"}" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(fsutil_write_atomic(path, bad[i], strlen(bad[i])), 0);
		assert_int_not_equal(resultset_open(&rs, tmpdir, err, sizeof(err)), 0);
	}
}

static void test_stale_temps_removed(void **state)
{
	struct resultset rs;
	char err[512], dir[128], path[256];
	(void)state;

	snprintf(dir, sizeof(dir), "%s/set", tmpdir);
	assert_int_equal(resultset_create(&rs, NULL, dir, "s",
					  cJSON_CreateObject(), err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/manifest.json.tmp.99999", dir);
	assert_int_equal(fsutil_write_atomic(path, "{", 1), 0);
	snprintf(path, sizeof(path), "%s/cells/0001.json.tmp.99999", dir);
	assert_int_equal(fsutil_write_atomic(path, "{", 1), 0);
	assert_int_equal(resultset_remove_stale_temps(&rs), 2);
	assert_int_equal(count_entries(dir), 2); /* manifest.json, cells */
	resultset_release(&rs);
}

static void test_iso8601_format(void **state)
{
	char buf[32];
	(void)state;

	iso8601_now(buf, sizeof(buf));
	assert_int_equal(strlen(buf), 20);
	assert_int_equal(buf[10], 'T');
	assert_int_equal(buf[19], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_atomic_write_replaces_and_leaves_no_temp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_atomic_write_reports_errno, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_names_are_unique, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_dir_refuses_existing_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_manifest_cell_index_sorted_and_on_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cell_file_name_grammar, setup, teardown),
		cmocka_unit_test_setup_teardown(test_steady_file_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fleet_facts_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_refuses_newer_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_temps_removed, setup, teardown),
		cmocka_unit_test(test_iso8601_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
