/*
 * test_rset.c - the typed model of a result set (bench/resultset/rset.h):
 * the example set's repetitions, histograms and series read as stored,
 * its preconditioning file, a steady-state file with and without its
 * rule, the write cliff (found, old two-segment, wrong types), and the
 * summaries-only load that keeps no repetitions.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resultset/rset.h"
#include "resultset/rset_int.h"
#include "resultset/resultset.h"
#include "resultset/rset_out.h"
#include "suite/keys.h"

#define EXAMPLE "results/examples/2026-12-01T192406Z_hdd-vs-ssd_vm"

static void test_example_reps(void **state)
{
	(void)state;
	struct rset rs;
	struct errlist errs = ERRLIST_INIT;
	assert_int_equal(rset_load(EXAMPLE, &rs, &errs), 0);
	assert_int_equal(rs.ncells, 82);
	const struct rset_cell *c = &rs.cells[0];
	assert_int_equal(c->id, 1);
	assert_int_equal(c->nreps, 3);
	assert_non_null(c->reps);
	const struct rset_rep *r = &c->reps[0];
	const struct rset_rep_dir *d = &r->dir[DIR_READ];
	assert_true(d->present);
	assert_true(r->runtime_ns == 1000018196);
	assert_true(d->iops == 10799.803486775754);
	assert_true(d->ios == 10800);
	assert_true(d->lat_mean_ns == 92346.28148148148);
	assert_int_equal(d->nhist, 138);
	assert_true(d->hist[0].lo_ns == 51712 && d->hist[0].count == 1);
	assert_true(d->series.interval_ns == 100000000);
	assert_int_equal(d->series.n, 11);
	assert_true(d->series.bytes[0] == 3944448);
	/* a randread cell has no write direction: unknown, not zero */
	assert_false(r->dir[DIR_WRITE].present);
	assert_true(isnan(r->dir[DIR_WRITE].iops));
	assert_null(rset_rep_cliff(r));
	/* the ratio values are the repetitions' sums */
	assert_int_equal(c->nrepv, 3);
	assert_true(c->rep_iops[0] == d->iops);
	assert_false(c->steady.present);
	rset_release(&rs);
	errlist_release(&errs);
}

static void test_example_summaries(void **state)
{
	(void)state;
	struct rset rs;
	struct errlist errs = ERRLIST_INIT;
	assert_int_equal(rset_load_summaries(EXAMPLE, &rs, &errs), 0);
	assert_int_equal(rs.cells[0].nreps, 0);
	assert_null(rs.cells[0].reps);
	assert_true(rs.cells[0].dir[DIR_READ].iops.mean > 0);
	rset_release(&rs);
	errlist_release(&errs);
}

static void test_example_precondition(void **state)
{
	(void)state;
	struct rset_precond p;
	struct rset_steady s;
	char why[512];
	assert_int_equal(rset_precond_load(EXAMPLE, "ssd", &p, why, sizeof(why)), 1);
	assert_true(p.present);
	assert_false(p.purged);          /* "purge": null */
	assert_int_equal(p.npasses, 1);
	assert_int_equal(p.passes[0].pattern, PAT_WRITE);
	assert_true(p.passes[0].bs == 131072);
	assert_true(p.passes[0].rep.dir[DIR_WRITE].bytes == 855638016);
	/* its cliff object says found: false: no cliff claim */
	assert_true(p.passes[0].rep.dir[DIR_WRITE].cliff.present);
	assert_null(rset_rep_cliff(&p.passes[0].rep));
	rset_precond_release(&p);
	/* no steady/ in the example: absent, and no complaint */
	assert_int_equal(rset_steady_load(EXAMPLE, "ssd", &s, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_false(s.present);
	rset_steady_release(&s);
	/* a name the suite language does not allow is never opened */
	assert_int_equal(rset_precond_load(EXAMPLE, "../ssd", &p, why, sizeof(why)), 0);
	rset_precond_release(&p);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_steady_file(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_rset.XXXXXX", sub[64], path[128], why[512];
	struct rset_steady s;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/steady", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(path, sizeof(path), "%s/disk.json", sub);
	write_file(path, "{\"status\": \"steady\", \"metric\": \"bw_bytes_s\","
		   " \"rule\": {\"window\": 4, \"max\": 9, \"range_pct\": 15},"
		   " \"rounds_done\": 6, \"steady_round\": 5,"
		   " \"window\": {\"first\": 2, \"last\": 5},"
		   " \"tracks\": [{\"label\": \"SW\", \"values\": [1, 2, \"x\"]}, {}]}");
	assert_int_equal(rset_steady_load(dir, "disk", &s, why, sizeof(why)), 1);
	assert_string_equal(s.metric, "bw_bytes_s");
	assert_false(s.running);
	assert_int_equal(s.window, 4);
	assert_int_equal(s.max, 9);
	assert_true(s.range_pct == 15 && s.slope_pct == 10); /* default slope */
	assert_int_equal(s.rounds_done, 6);
	assert_int_equal(s.steady_round, 5);
	assert_int_equal(s.win_first, 2);
	assert_int_equal(s.win_last, 5);
	assert_int_equal(s.ntracks, 2);
	assert_string_equal(s.tracks[0].label, "SW");
	assert_int_equal(s.tracks[0].n, 3);
	assert_true(isnan(s.tracks[0].values[2]));
	assert_null(s.tracks[1].label);
	rset_steady_release(&s);
	/* no status: the rounds were cut short; defaults for the rule */
	write_file(path, "{\"tracks\": 7}");
	assert_int_equal(rset_steady_load(dir, "disk", &s, why, sizeof(why)), 1);
	assert_true(s.running);
	assert_string_equal(s.metric, "iops");
	assert_int_equal(s.window, 5);
	assert_int_equal(s.max, 25);
	assert_int_equal(s.ntracks, 0);
	rset_steady_release(&s);
	/* a corrupt file is not read, and says why */
	write_file(path, "{\"tracks\": [");
	assert_int_equal(rset_steady_load(dir, "disk", &s, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "truncated"));
	rset_steady_release(&s);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}

static const char *CLIFF =
	"{\"runtime_ns\": 4e9, \"write\": {\"iops\": 5, \"cliff\": {\"found\": true,"
	" \"samples\": 40, \"interval_ns\": 1e8, \"break_ns\": 1e9, \"drop_pct\": 80,"
	" \"head_from_fine\": true, \"stalls\": [3, 7],"
	" \"plateaus\": [{\"first_index\": 0, \"start_ns\": 0, \"duration_ns\": 1e9,"
	" \"level_bw_bytes_s\": 5e8, \"bytes\": 5e8}, {\"first_index\": 10,"
	" \"start_ns\": 1e9, \"duration_ns\": 3e9, \"level_bw_bytes_s\": 1e8,"
	" \"bytes\": 3e8}]}, \"series\": {\"interval_ns\": 1e8, \"bytes\": [1, 2],"
	" \"fine\": {\"interval_ns\": 1e7, \"bytes\": [3]}}}}";

static void test_cliff(void **state)
{
	(void)state;
	struct rset_rep r;
	cJSON *j = cJSON_Parse(CLIFF);
	assert_int_equal(rset_rep_read(j, &r), 0);
	const struct rset_cliff *c = rset_rep_cliff(&r);
	assert_non_null(c);
	assert_true(c->head_from_fine);
	assert_int_equal(c->samples, 40);
	assert_true(c->break_ns == 1e9 && c->drop_pct == 80 && c->interval_ns == 1e8);
	assert_int_equal(c->nplateaus, 2);
	assert_true(c->plateaus[1].first_index == 10);
	assert_true(c->plateaus[1].level_bw_bytes_s == 1e8);
	assert_int_equal(c->nstalls, 2);
	assert_true(c->stalls[1] == 7);
	assert_true(r.dir[DIR_WRITE].series.n == 2);
	assert_true(r.dir[DIR_WRITE].fine.interval_ns == 10000000);
	assert_false(r.dir[DIR_READ].present);
	rset_rep_release(&r);
	/* the old two-segment fit (no plateaus) makes no cliff claim */
	cJSON_DeleteItemFromObject(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "write"),
						       "cliff"), "plateaus");
	assert_int_equal(rset_rep_read(j, &r), 0);
	assert_true(r.dir[DIR_WRITE].cliff.present && r.dir[DIR_WRITE].cliff.found);
	assert_null(rset_rep_cliff(&r));
	rset_rep_release(&r);
	cJSON_Delete(j);
	/* wrong types read as unknown */
	j = cJSON_Parse("{\"runtime_ns\": \"x\", \"write\": {\"iops\": \"5\", \"cliff\":"
			" {\"found\": 1, \"samples\": -3, \"plateaus\": [1, {}], \"stalls\": {}},"
			" \"series\": {\"interval_ns\": -1, \"bytes\": [null]}}}");
	assert_int_equal(rset_rep_read(j, &r), 0);
	assert_true(r.runtime_ns == 0);
	assert_true(isnan(r.dir[DIR_WRITE].iops));
	c = &r.dir[DIR_WRITE].cliff;
	assert_false(c->found);
	assert_int_equal(c->samples, -1);
	assert_int_equal(c->nplateaus, 2);
	assert_true(isnan(c->plateaus[0].first_index));
	assert_int_equal(c->nstalls, 0);
	assert_true(r.dir[DIR_WRITE].series.interval_ns == 0);
	assert_true(isnan(r.dir[DIR_WRITE].series.bytes[0]));
	rset_rep_release(&r);
	cJSON_Delete(j);
}

static void test_example_manifest(void **state)
{
	(void)state;
	struct rset rs;
	struct errlist errs = ERRLIST_INIT;
	assert_int_equal(rset_load(EXAMPLE, &rs, &errs), 0);
	assert_true(rs.have_manifest && rs.have_plan && rs.status_given);
	assert_string_equal(rs.status, "complete");
	assert_int_equal(rs.manifest_cells_total, 82);
	assert_int_equal(rs.nindex, 82);
	assert_int_equal(rs.index[0].id, 1);
	assert_string_equal(rs.index[0].file, "cells/0001.json");
	assert_int_equal(rs.nplan_cells, 82);
	assert_string_equal(rs.plan_cells[0].label, "RND4K Q1T1");
	assert_string_equal(rs.plan_cells[0].pattern, "randread");
	assert_int_equal(rs.ncommand, 11);
	assert_string_equal(rs.command[0], "run");
	/* the host and the tool, typed: a number, a null, a string */
	assert_true(rset_obj_num(&rs.host, "mem_bytes", 0) == 25276059648.0);
	assert_int_equal(rset_obj_get(&rs.host, "governor")->type, RSET_V_NULL);
	assert_string_equal(rset_obj_str(&rs.host, "virtualization"), "kvm");
	assert_null(rset_obj_str(&rs.host, "cpus"));     /* a number */
	assert_string_equal(rset_obj_str(&rs.tool, "version"), "0.2.0");
	assert_int_equal(rset_obj_get(&rs.tool, "libs")->type, RSET_V_JSON);
	/* a device: its fingerprint and the disk under it */
	const struct rset_device *d = rset_device_find(&rs, "hdd");
	assert_non_null(d);
	assert_string_equal(d->disk.block_device, "/dev/vda");
	assert_null(d->disk.disk);                      /* null in the file */
	assert_string_equal(rset_obj_str(&d->fp, "block_device"), "/dev/vda");
	/* a cell's params, typed once (struct cell), with the keys the file
	 * recorded: this set is older than active_range_pct */
	const struct rset_cell *c = &rs.cells[0];
	assert_true(c->cell.direct);
	assert_int_equal(c->cell.iodepth, 1);
	assert_null(c->cell.cpus_allowed);
	assert_true(rset_cell_recorded(c, K_DIRECT));
	assert_true(rset_cell_recorded(c, K_CPUS_ALLOWED));
	assert_false(rset_cell_recorded(c, K_ACTIVE_RANGE));
	assert_false(rset_cell_recorded(c, K_RATE_IOPS));
	assert_string_equal(c->status, "ok");
	assert_int_equal(c->nwarnings, 0);
	assert_null(c->host);
	assert_false(c->fleet.present);
	assert_null(c->sweep);
	assert_false(rs.fleet.present);
	assert_false(rs.fleet.launch.present);
	assert_false(rs.reproduces.present);
	rset_release(&rs);
	errlist_release(&errs);
	/* the manifest alone gives the same set-level fields */
	char why[256];
	assert_int_equal(rset_load_manifest(EXAMPLE, &rs, why, sizeof(why)), 0);
	assert_string_equal(rs.status, "complete");
	assert_int_equal(rs.ndevices, 2);
	assert_int_equal(rs.ncells, 0);
	rset_release(&rs);
	assert_int_equal(rset_load_manifest("/nonexistent", &rs, why, sizeof(why)), -1);
	rset_release(&rs);
}

/* A cell's params as JSON again (report.json, the CSV, a reproduction's
 * differences) are the file's, member for member, from the struct alone:
 * every cell of the example set (older than several keys) and of the
 * reference sets (fsync, buffered psync). */
static void test_params_as_recorded(void **state)
{
	(void)state;
	static const char *const sets[] = {
		EXAMPLE, "results/reference/2026-11-30T033909Z_ref-tmp-vs-shm_vm",
		"results/reference/2026-11-30T034243Z_ref-fsync_vm",
	};
	char path[256];
	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		struct rset rs;
		struct errlist errs = ERRLIST_INIT;
		assert_int_equal(rset_load(sets[s], &rs, &errs), 0);
		for (size_t i = 0; i < rs.ncells; i++) {
			const struct rset_cell *c = &rs.cells[i];
			snprintf(path, sizeof(path), "%s/cells/%04d.json", sets[s], c->id);
			cJSON *f = resultset_read_json(path, path, sizeof(path));
			assert_non_null(f);
			char *want = cJSON_PrintUnformatted(cJSON_GetObjectItem(f, "params"));
			cJSON *p = rset_cell_params_json(c);
			char *have = cJSON_PrintUnformatted(p);
			assert_string_equal(have, want);
			free(want);
			free(have);
			cJSON_Delete(p);
			cJSON_Delete(f);
		}
		rset_release(&rs);
		errlist_release(&errs);
	}
}

/* Every file read back goes through the one bounded parser: 100 levels
 * of nesting (cJSON alone accepts 1000) are refused by setdir.c's
 * reader too, as by the set reader. */
static void test_one_bounded_reader(void **state)
{
	(void)state;
	char path[] = "/tmp/test_rset_deep.XXXXXX", err[256];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	for (int i = 0; i < 100; i++)
		fputc('[', f);
	for (int i = 0; i < 100; i++)
		fputc(']', f);
	fclose(f);
	assert_null(resultset_read_json(path, err, sizeof(err)));
	char why[128], hex[65];
	errno = 0;
	assert_null(rset_file_read(AT_FDCWD, path, NULL, NULL, why, sizeof(why)));
	assert_int_equal(errno, EBADMSG);
	assert_non_null(strstr(why, "deeper"));
	/* at the bound it parses */
	f = fopen(path, "w");
	fputs("{\"a\": [[1]]}", f);
	fclose(f);
	cJSON *j = resultset_read_json(path, err, sizeof(err));
	assert_non_null(j);
	cJSON_Delete(j);
	j = rset_file_read(AT_FDCWD, path, NULL, hex, why, sizeof(why));
	assert_non_null(j);
	cJSON_Delete(j);
	/* the sha256 of the bytes (sha256sum of '{"a": [[1]]}') */
	assert_string_equal(hex, "692171cc6aeb87ee593c17bcc929ac7be38436cd79076ced61e1aa460cc9bc57");
	/* what the set reader refuses, and how it says it */
	static const struct { const char *text, *why; int err; } bad[] = {
		{ "[1]", "not a JSON object", EBADMSG },
		{ "{\"schema_version\": 9}", "9", EPROTO },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = fopen(path, "w");
		fputs(bad[i].text, f);
		fclose(f);
		assert_null(rset_file_read(AT_FDCWD, path, NULL, NULL, why, sizeof(why)));
		assert_int_equal(errno, bad[i].err);
		assert_string_equal(why, bad[i].why);
	}
	unlink(path);
	assert_null(rset_file_read(AT_FDCWD, path, NULL, NULL, why, sizeof(why)));
	assert_int_equal(errno, ENOENT);
}

/* One reader of "percentiles" for the cell's merged latency and each
 * repetition's: plain decimal keys in (0, 100], finite values, sorted by
 * p; anything else passed over. */
static void test_pcts_read(void **state)
{
	double p[RSET_MAX_PCT], ns[RSET_MAX_PCT];
	(void)state;
	cJSON *j = cJSON_Parse("{\"99.000000\": 900, \"50.000000\": 500, \"100\": 1000,"
			       " \"0\": 1, \"99.0x\": 7, \"abc\": 8, \"90\": \"9\"}");
	assert_non_null(j);
	assert_int_equal(rset_pcts_read(j, p, ns), 3);
	assert_true(p[0] == 50 && ns[0] == 500);
	assert_true(p[1] == 99 && ns[1] == 900);
	assert_true(p[2] == 100 && ns[2] == 1000);
	assert_int_equal(rset_pcts_read(NULL, p, ns), 0);
	cJSON_Delete(j);
}

static void test_fleet_manifest(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_rset_fleet.XXXXXX", path[128], why[256];
	struct rset rs;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	write_file(path, "{\"status\": \"complete\", \"cells_total\": 2.5,"
		   " \"reproduces\": {\"set\": \"2026-x\", \"manifest_sha256\": \"ab\","
		   " \"path\": \"/o\", \"tolerance_pct\": 7},"
		   " \"cells\": [{\"id\": 3, \"status\": \"failed\"}, {\"id\": \"x\"}],"
		   " \"fleet\": {\"mode\": \"aggregate\", \"same_machine\": [[\"a\", 5, \"b\"], 7],"
		   " \"launch\": {\"launcher\": \"srun\", \"implementation\": \"Open MPI v4.1.4\","
		   " \"ranks\": 64, \"nodes\": 1e300},"
		   " \"hosts\": [{\"name\": \"a\", \"hostname\": \"ha\", \"version\": \"0.2\","
		   " \"status\": \"ok\", \"host\": {\"kernel\": \"6.1\"},"
		   " \"clock\": {\"wall_offset_s\": 0.001, \"error_ns\": 5000},"
		   " \"devices\": [{\"name\": \"d\", \"path\": \"/x\","
		   " \"fingerprint\": {\"model\": \"M\"}}]}, {}]}}");
	assert_int_equal(rset_load_manifest(dir, &rs, why, sizeof(why)), 0);
	assert_int_equal(rs.manifest_cells_total, -2);        /* not a whole number */
	assert_int_equal(rs.nindex, 2);
	assert_int_equal(rs.index[0].id, 3);
	assert_string_equal(rs.index[0].status, "failed");
	assert_int_equal(rs.index[1].id, -1);
	assert_true(rs.reproduces.present);
	assert_string_equal(rs.reproduces.set, "2026-x");
	assert_true(rs.reproduces.tolerance_pct == 7);
	const struct rset_fleet *f = &rs.fleet;
	assert_true(f->present);
	assert_string_equal(f->mode, "aggregate");
	assert_int_equal(f->nhosts, 2);
	const struct rset_fleet_host *h = &f->hosts[0];
	assert_string_equal(h->hostname, "ha");
	assert_string_equal(rset_obj_str(&h->host, "kernel"), "6.1");
	assert_true(h->wall_offset_s == 0.001 && h->clock_error_ns == 5000);
	assert_true(isnan(h->rtt_min_ns));
	assert_int_equal(h->ndevices, 1);
	assert_string_equal(rset_obj_str(&h->devices[0].fp, "model"), "M");
	assert_null(f->hosts[1].name);                        /* {}: all unknown */
	assert_int_equal(f->nsame_machine, 1);                /* 7 is no group */
	assert_int_equal(f->same_machine[0].n, 2);            /* 5 is no name */
	assert_string_equal(f->same_machine[0].v[1], "b");
	assert_true(f->launch.present);                       /* run --mpi */
	assert_string_equal(f->launch.launcher, "srun");
	assert_string_equal(f->launch.implementation, "Open MPI v4.1.4");
	assert_int_equal(f->launch.ranks, 64);
	assert_int_equal(f->launch.nodes, -1);                /* 1e300: unknown */
	rset_release(&rs);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_reps),
		cmocka_unit_test(test_pcts_read),
		cmocka_unit_test(test_example_summaries),
		cmocka_unit_test(test_example_precondition),
		cmocka_unit_test(test_steady_file),
		cmocka_unit_test(test_cliff),
		cmocka_unit_test(test_example_manifest),
		cmocka_unit_test(test_params_as_recorded),
		cmocka_unit_test(test_one_bounded_reader),
		cmocka_unit_test(test_fleet_manifest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
