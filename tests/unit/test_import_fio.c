/*
 * test_import_fio.c - `import fio` on real fio 3.33 outputs
 * (tests/data/fio/README.md says how each was made): parameters from job
 * and global options, json+ bins into the histogram, several jobs, numjobs
 * without group_reporting, write-only jobs, gtod_reduce, status-interval
 * files, warning lines, and malformed input with line:col.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"
#include "import/fio_infer.h"
#include "util/fsutil.h"

static void load(struct import_set *s, const char *name, const char *device)
{
	char path[4096];
	struct errlist e = ERRLIST_INIT;
	const char *r = getenv("IOMATRIX_ROOT");
	struct import_fio_opts o = { .device = device };

	snprintf(path, sizeof(path), "%s/tests/data/fio/%s", r && r[0] ? r : ".", name);
	import_set_init(s, "fio");
	int rc = import_fio_file(s, path, &o, &e);
	if (rc != 0)
		errlist_print(&e, stderr);
	assert_int_equal(rc, 0);
	errlist_release(&e);
}

static bool near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

static void test_single_job_params(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "randread-4k-qd16.json", NULL);
	assert_int_equal(s.ncells, 1);
	const struct cell *p = &s.cells[0].params;
	assert_int_equal(p->pattern, PAT_RANDREAD);
	assert_int_equal(p->bs, 4096);
	assert_int_equal(p->iodepth, 16);
	assert_int_equal(p->jobs, 1);
	assert_string_equal(p->engine, "libaio");
	assert_true(p->direct);
	assert_int_equal(p->size, 32u << 20);
	assert_int_equal(p->runtime_ns, 2000000000ULL);
	assert_string_equal(p->label, "randread4k");
	/* filename=/tmp/iomx-fio/ssd.dat: the directory names the device */
	assert_string_equal(p->device, "iomx-fio");
	assert_string_equal(p->path, "/tmp/iomx-fio/ssd.dat");
	const struct dir_result *d = &s.cells[0].reps[0].dir[DIR_READ];
	assert_true(near(d->iops, 79033.483258, 1e-9));
	assert_int_equal(d->ios, 158146);
	assert_true(near(d->bw_bytes_s, 323721147, 1e-9));
	/* fio's default JSON: percentiles on clat only, so the cell holds
	 * completion latency, mean and percentiles alike, and fio's total
	 * latency (lat) is kept apart */
	assert_int_equal(s.cells[0].reps[0].lat_kind, LAT_COMPLETION);
	assert_true(near(d->lat_mean_ns, 198052.42787, 1e-9)); /* clat */
	assert_int_equal(d->lat_n, 158146);
	assert_int_equal(d->npct, 17);
	assert_true(d->other.present);
	assert_true(near(d->other.mean_ns, 202134.651588, 1e-9)); /* lat */
	assert_int_equal(d->other.npct, 0);
	assert_false(s.cells[0].reps[0].dir[DIR_WRITE].present);
	assert_string_equal(cJSON_GetObjectItem(s.source, "version")->valuestring, "fio-3.33");
	import_set_release(&s);
}

/* lat_percentiles=1: fio's percentiles are on lat, so the cell holds
 * total latency, and fio's clat (with its own percentiles) is kept apart,
 * never merged into it */
static void test_lat_percentiles_total_kind(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "lat-percentiles-jsonplus.json", NULL);
	const struct dir_result *d = &s.cells[0].reps[0].dir[DIR_READ];
	assert_int_equal(s.cells[0].reps[0].lat_kind, LAT_TOTAL);
	assert_true(d->other.present);
	assert_true(d->other.mean_ns < d->lat_mean_ns); /* clat excludes submission */
	assert_true(d->other.npct > 0);
	import_set_release(&s);
}

static void test_device_option_wins(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "randread-4k-qd16.json", "nvme0");
	assert_string_equal(s.cells[0].params.device, "nvme0");
	assert_int_equal(s.ndevices, 1);
	import_set_release(&s);
}

static void test_jsonplus_bins_become_histogram(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "randrw-75-jsonplus.json", NULL);
	const struct import_cell *c = &s.cells[0];
	assert_int_equal(c->params.pattern, PAT_RANDRW);
	assert_int_equal(c->params.rwmixread, 75);
	for (int d = 0; d < DIR__COUNT; d++) {
		const struct dir_result *x = &c->reps[0].dir[d];
		assert_true(x->present);
		assert_non_null(x->hist);
		/* every completed IO is in a bin */
		assert_int_equal(x->hist->total, x->ios);
		/* our percentile from fio's bins is within a bucket of fio's */
		double p99 = 0;
		for (size_t i = 0; i < x->npct; i++)
			if (x->pct_p[i] == 99)
				p99 = x->pct_ns[i];
		assert_true(p99 > 0);
		assert_true(near((double)hist_percentile(x->hist, 99), p99, 0.02));
	}
	import_set_release(&s);
}

static void test_multijob_global_options(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "multijob-global.json", NULL);
	assert_int_equal(s.ncells, 2);
	const struct cell *a = &s.cells[0].params, *b = &s.cells[1].params;
	assert_int_equal(a->pattern, PAT_READ);
	assert_int_equal(a->bs, 1 << 20);
	assert_int_equal(a->iodepth, 8);
	assert_int_equal(b->pattern, PAT_RANDWRITE);
	assert_int_equal(b->iodepth, 32);
	/* from "global options" */
	assert_string_equal(a->engine, "libaio");
	assert_string_equal(b->device, "hdd"); /* directory=/tmp/iomx-fio/hdd */
	assert_int_equal(b->size, 32u << 20);
	import_set_release(&s);
}

static void test_group_reporting(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "group-reporting-numjobs4-jsonplus.json", NULL);
	assert_int_equal(s.ncells, 1);
	assert_int_equal(s.cells[0].params.jobs, 4);
	assert_string_equal(s.cells[0].params.engine, "io_uring");
	assert_string_equal(s.cells[0].params.device, "nvme");
	import_set_release(&s);
}

static void test_numjobs_without_group_reporting_merges(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "numjobs2-no-group.json", NULL);
	assert_int_equal(s.ncells, 1);
	const struct import_cell *c = &s.cells[0];
	assert_int_equal(c->params.jobs, 2);
	const struct dir_result *d = &c->reps[0].dir[DIR_READ];
	/* the two entries' IOPS add up; their latency moments merge */
	assert_true(near(d->iops, 21967.032967 + 21962.037962, 1e-9));
	assert_int_equal(d->lat_n, 21989 + 21984);
	/* plain json: per-job percentiles cannot be merged */
	assert_int_equal(d->npct, 0);
	import_set_release(&s);
}

static void test_write_only_job(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "write-only-psync.json", NULL);
	const struct import_cell *c = &s.cells[0];
	assert_false(c->reps[0].dir[DIR_READ].present);
	assert_true(c->reps[0].dir[DIR_WRITE].present);
	assert_true(c->params.end_fsync);
	assert_string_equal(c->params.engine, "psync");
	cJSON *j = import_cell_to_json(c, 1);
	const cJSON *rep = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "repetitions"), 0);
	assert_null(cJSON_GetObjectItem(rep, "read"));
	assert_non_null(cJSON_GetObjectItem(rep, "write"));
	cJSON_Delete(j);
	import_set_release(&s);
}

static void test_gtod_reduce_has_no_latency(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "seed001-randrw-gtod.json", NULL);
	const struct dir_result *d = &s.cells[0].reps[0].dir[DIR_READ];
	assert_true(d->iops > 0);
	assert_false(d->known & REP_LAT);
	cJSON *j = import_cell_to_json(&s.cells[0], 1);
	const cJSON *rep = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "repetitions"), 0);
	assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "read"), "lat_ns"));
	cJSON_Delete(j);
	import_set_release(&s);
}

static void test_status_interval_takes_last_report(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "status-interval.json", NULL);
	assert_int_equal(s.ncells, 1);
	assert_true(near(s.cells[0].reps[0].dir[DIR_READ].iops, 62562.812396, 1e-9));
	import_set_release(&s);
}

static void test_warning_lines_before_json(void **state)
{
	struct import_set s;
	(void)state;
	load(&s, "warning-prefix.json", NULL);
	assert_int_equal(s.ncells, 1);
	import_set_release(&s);
}

static void test_same_job_in_two_files_is_two_repetitions(void **state)
{
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	struct import_fio_opts o = { 0 };
	(void)state;
	load(&s, "randread-4k-qd16.json", NULL);
	assert_int_equal(import_fio_file(&s, "tests/data/fio/randread-4k-qd16.json", &o, &e), 0);
	assert_int_equal(s.ncells, 1);
	assert_int_equal(s.cells[0].nreps, 2);
	errlist_release(&e);
	import_set_release(&s);
}

static const char *tmp_with(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/test_import_fio.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void expect_error(const char *text, const char *want)
{
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	struct import_fio_opts o = { 0 };
	const char *p = tmp_with(text);
	char buf[512];

	import_set_init(&s, "fio");
	assert_int_equal(import_fio_file(&s, p, &o, &e), -1);
	assert_true(e.n >= 1);
	snprintf(buf, sizeof(buf), "%s:%s", p, want);
	if (!strstr(e.msgs[0], buf))
		fail_msg("got '%s', want '%s'", e.msgs[0], buf);
	import_set_release(&s);
	errlist_release(&e);
	unlink(p);
}

static void test_malformed_json_position(void **state)
{
	(void)state;
	/* the error is at line 3, column 14 (the stray 'x') */
	expect_error("note: hello\n{\n  \"jobs\" : [ x ]\n}\n", "3:14: malformed JSON");
	/* cut short: the end of the file */
	expect_error("{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n", "4:1: malformed JSON");
	expect_error("no json here\n", "1:1: no JSON found");
	expect_error("{\"a\": 1}\n", "1:1: not fio output");
	expect_error("{\"fio version\": \"fio-1.59\", \"jobs\": []}\n", "1:17: 'fio-1.59' output is not supported");
	expect_error("{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", "
		     "\"job options\": {\"rw\": \"trim\"}}]}\n", "1:77: job 'j': rw 'trim'");
}

/* The real randread-4k-qd16.json with one number of the job's read
 * replaced (key path below "read"), then imported: -1, and the first
 * error says `says`. */
static void expect_edit_refused(const char *const *path, size_t n, const char *value,
				const char *says)
{
	const char *r = getenv("IOMATRIX_ROOT");
	char src[4096];
	snprintf(src, sizeof(src), "%s/tests/data/fio/randread-4k-qd16.json", r && r[0] ? r : ".");
	char *text = fsutil_read(src, 16u << 20, NULL);
	cJSON *doc = text ? cJSON_Parse(text) : NULL, *o;
	free(text);
	assert_non_null(doc);
	o = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive(doc, "jobs"), 0), "read");
	for (size_t i = 0; i + 1 < n; i++)
		o = cJSON_GetObjectItemCaseSensitive(o, path[i]);
	assert_non_null(o);
	cJSON_DeleteItemFromObjectCaseSensitive(o, path[n - 1]);
	cJSON_AddItemToObject(o, path[n - 1], cJSON_Parse(value));
	char *out = cJSON_Print(doc);
	cJSON_Delete(doc);
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	struct import_fio_opts opts = { 0 };
	const char *p = tmp_with(out);
	free(out);
	import_set_init(&s, "fio");
	if (import_fio_file(&s, p, &opts, &e) != -1 || !e.n || !strstr(e.msgs[0], says))
		fail_msg("%s = %s: got '%s', want '%s'", path[n - 1], value,
			 e.n ? e.msgs[0] : "no error", says);
	import_set_release(&s);
	errlist_release(&e);
	unlink(p);
}

#define KP(...) (const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)

/* Absurd numbers and percentiles are refused by
 * the import, which wrote them before (the report then said "treated as
 * failed"). */
static void test_absurd_numbers_refused(void **state)
{
	(void)state;
	expect_edit_refused(KP("iops"), "1e308", "'iops' is 1e+308");
	expect_edit_refused(KP("bw_bytes"), "1e308", "'bw_bytes_s' is 1e+308");
	expect_edit_refused(KP("iops"), "2e12", "iops is 2e+12, not in [0, 1e+12]");
	expect_edit_refused(KP("total_ios"), "1e30", "a count past 2^64");
	expect_edit_refused(KP("clat_ns", "percentile", "99.990000"), "1e308", "is 1e+308");
	/* p1 = 1000 s beside a max of 5.5 ms */
	expect_edit_refused(KP("clat_ns", "percentile", "1.000000"), "1e12",
			    "p1.000000 is 1000000000000 ns, above max 5537294 ns");
	expect_edit_refused(KP("clat_ns", "percentile", "50.000000"), "100000",
			    "fall as the percentile rises");
	/* keys that are no percentile: dropped silently before */
	expect_edit_refused(KP("clat_ns", "percentile", "nan"), "5000", "percentile key 'nan'");
	expect_edit_refused(KP("clat_ns", "percentile", "-3"), "5000", "percentile key '-3'");
	expect_edit_refused(KP("clat_ns", "percentile", "1e400"), "5000", "percentile key '1e400'");
	expect_edit_refused(KP("clat_ns", "percentile", "0x10"), "5000", "percentile key '0x10'");
	expect_edit_refused(KP("clat_ns", "percentile", "101"), "5000", "percentile key '101'");
}

/* A randseed a set cannot record exactly is refused at
 * its option, not written as another seed */
static void test_randseed_past_exact_refused(void **state)
{
	const char *r = getenv("IOMATRIX_ROOT");
	char src[4096];
	(void)state;
	snprintf(src, sizeof(src), "%s/tests/data/fio/randread-4k-qd16.json", r && r[0] ? r : ".");
	char *text = fsutil_read(src, 16u << 20, NULL);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	free(text);
	assert_non_null(doc);
	cJSON *jo = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(
		cJSON_GetObjectItemCaseSensitive(doc, "jobs"), 0), "job options");
	assert_non_null(jo);
	cJSON_DeleteItemFromObjectCaseSensitive(jo, "randseed");
	cJSON_AddStringToObject(jo, "randseed", "1234567890123456789");
	char *out = cJSON_Print(doc);
	cJSON_Delete(doc);
	const char *p = tmp_with(out);
	free(out);
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	struct import_fio_opts o = { 0 };
	import_set_init(&s, "fio");
	assert_int_equal(import_fio_file(&s, p, &o, &e), -1);
	if (!strstr(e.msgs[0], "randseed 1234567890123456789 is past 999999999999999"))
		fail_msg("got '%s'", e.msgs[0]);
	import_set_release(&s);
	errlist_release(&e);
	unlink(p);
}

static void test_linecol(void **state)
{
	unsigned l, c;
	(void)state;
	import_linecol("ab\ncd\n", 4, &l, &c);
	assert_int_equal(l, 2);
	assert_int_equal(c, 2);
	import_linecol("ab", 0, &l, &c);
	assert_int_equal(l, 1);
	assert_int_equal(c, 1);
}

/* A job without an iodepth option gets the depth fio's
 * iodepth_level shows most IOs at (the floor of its bucket, the bucket
 * said), or "not recorded" where no bucket holds 90 % of them; a block
 * size is the bytes per IO when that is a whole multiple of 512. */
static void test_infer_depth_and_bs(void **state)
{
	(void)state;
	char why[256];
	unsigned depth = 0;
	cJSON *job = cJSON_Parse("{\"iodepth_level\": {\"1\": 0.1, \"2\": 0.1, \"4\": 0.1, "
				 "\"8\": 0.1, \"16\": 0.1, \"32\": 0.1, \">=64\": 100.0}}");
	assert_int_equal(fio_infer_depth(job, &depth, why, sizeof(why)), 0);
	assert_int_equal(depth, 64);
	assert_non_null(strstr(why, "64 or more, from fio's iodepth_level (100.0 %"));
	cJSON_Delete(job);
	job = cJSON_Parse("{\"iodepth_level\": {\"1\": 0.1, \"16\": 2.0, \"32\": 97.9}}");
	assert_int_equal(fio_infer_depth(job, &depth, why, sizeof(why)), 0);
	assert_int_equal(depth, 32);
	assert_non_null(strstr(why, "32 to 63, from fio's iodepth_level"));
	cJSON_Delete(job);
	job = cJSON_Parse("{\"iodepth_level\": {\"1\": 50, \"32\": 50}}");
	assert_int_equal(fio_infer_depth(job, &depth, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not recorded"));
	cJSON_Delete(job);
	job = cJSON_Parse("{}");
	assert_int_equal(fio_infer_depth(job, &depth, why, sizeof(why)), -1);
	cJSON_Delete(job);

	uint64_t bs = 0;
	assert_int_equal(fio_infer_bs(937482ULL * 4096, 937482, &bs), 0);
	assert_int_equal(bs, 4096);
	assert_int_equal(fio_infer_bs(3 * 4096 + 512, 3, &bs), -1); /* a fraction: a bssplit */
	assert_int_equal(fio_infer_bs(0, 0, &bs), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_job_params),
		cmocka_unit_test(test_lat_percentiles_total_kind),
		cmocka_unit_test(test_device_option_wins),
		cmocka_unit_test(test_jsonplus_bins_become_histogram),
		cmocka_unit_test(test_multijob_global_options),
		cmocka_unit_test(test_group_reporting),
		cmocka_unit_test(test_numjobs_without_group_reporting_merges),
		cmocka_unit_test(test_write_only_job),
		cmocka_unit_test(test_gtod_reduce_has_no_latency),
		cmocka_unit_test(test_status_interval_takes_last_report),
		cmocka_unit_test(test_warning_lines_before_json),
		cmocka_unit_test(test_same_job_in_two_files_is_two_repetitions),
		cmocka_unit_test(test_malformed_json_position),
		cmocka_unit_test(test_linecol),
		cmocka_unit_test(test_absurd_numbers_refused),
		cmocka_unit_test(test_randseed_past_exact_refused),
		cmocka_unit_test(test_infer_depth_and_bs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
