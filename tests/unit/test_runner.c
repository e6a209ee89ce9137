/*
 * test_runner.c - the runner on small real files in /tmp (and the null
 * engine): exact request/byte budgets, rwmixread, seed reproducibility via
 * IOMATRIX_TRACE, contiguous sequential slices, incompressible never-sparse
 * layout, reuse, ramp exclusion, stop within a second, clear errors.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "suite/cell.h"
#include "engines/engine.h"
#include "resultset/resultset.h"
#include "runner/runner.h"
#include "host/scratch.h"

static char dir[64];
static char trace[96];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/iomatrix-runner.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(trace, sizeof(trace), "%s.trace", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, trace);
	return system(cmd) == 0 ? 0 : -1;
}

static void base_cell(struct cell *c, const char *engine, enum pattern p)
{
	cell_init(c);
	c->device = "t";
	c->path = dir;
	snprintf(c->engine, sizeof(c->engine), "%s", engine);
	c->pattern = p;
	c->size = 4 << 20;
}

/* prepare + one repetition; asserts success */
static void run_ok(const struct cell *c, struct rep_result *r)
{
	struct target t;
	char err[512] = "";
	int ret = runner_prepare(c, &t, NULL, err, sizeof(err));
	if (ret)
		fail_msg("prepare: %d %s", ret, err);
	ret = runner_run_rep(c, &t, NULL, r, err, sizeof(err));
	if (ret)
		fail_msg("run: %d %s", ret, err);
	runner_cleanup(&t, c->keep_files);
	target_release(&t);
}

static void test_requests_exact(void **state)
{
	struct cell c;
	struct rep_result r;
	(void)state;
	base_cell(&c, "null", PAT_RANDREAD);
	c.jobs = 3;
	c.iodepth = 16;
	c.requests = 10007;
	run_ok(&c, &r);
	assert_int_equal(r.dir[DIR_READ].ios, 10007);
	assert_int_equal(r.dir[DIR_READ].bytes, 10007ull * 4096);
	assert_int_equal(r.dir[DIR_READ].hist->total, 10007);
	assert_null(r.dir[DIR_WRITE].hist);
	rep_result_release(&r);

	const char *engines[] = { "libaio", "psync", "io_uring" };
	for (size_t i = 0; i < 3; i++) {
		if (!engine_find(engines[i]))
			continue;
		base_cell(&c, engines[i], PAT_RANDWRITE);
		c.jobs = 2;
		c.iodepth = 4;
		c.requests = 301;
		run_ok(&c, &r);
		assert_int_equal(r.dir[DIR_WRITE].ios, 301);
		assert_int_equal(r.dir[DIR_WRITE].bytes, 301ull * 4096);
		rep_result_release(&r);
	}
}

static void test_io_size_exact(void **state)
{
	struct cell c;
	struct rep_result r;
	(void)state;
	base_cell(&c, "libaio", PAT_READ);
	c.bs = 64 << 10;
	c.iodepth = 4;
	c.jobs = 2;
	c.io_size = 3 << 20;
	run_ok(&c, &r);
	assert_int_equal(r.dir[DIR_READ].bytes, 3 << 20);
	assert_int_equal(r.dir[DIR_READ].ios, 48);
	rep_result_release(&r);
}

static void test_one_pass(void **state)
{
	struct cell c;
	struct rep_result r;
	(void)state;
	base_cell(&c, "psync", PAT_READ);
	c.files = 3;
	c.jobs = 2;
	run_ok(&c, &r);
	assert_int_equal(r.dir[DIR_READ].bytes, 3ull * (4 << 20));
	rep_result_release(&r);
}

static void test_rwmixread(void **state)
{
	struct cell c;
	struct rep_result r;
	(void)state;
	base_cell(&c, "null", PAT_RANDRW);
	c.rwmixread = 70;
	c.requests = 20000;
	c.iodepth = 8;
	run_ok(&c, &r);
	uint64_t rd = r.dir[DIR_READ].ios, wr = r.dir[DIR_WRITE].ios;
	assert_int_equal(rd + wr, 20000);
	double pct = 100.0 * (double)rd / 20000.0;
	if (pct < 68 || pct > 72)
		fail_msg("reads %.2f %%, want 70 +- 2", pct);
	rep_result_release(&r);
}

/* Run with IOMATRIX_TRACE and return the trace text (caller frees). */
static char *traced_run(struct cell *c)
{
	struct rep_result r;
	unlink(trace);
	setenv("IOMATRIX_TRACE", trace, 1);
	run_ok(c, &r);
	unsetenv("IOMATRIX_TRACE");
	rep_result_release(&r);
	FILE *f = fopen(trace, "r");
	assert_non_null(f);
	char *buf = calloc(1, 1 << 20), line[256];
	assert_non_null(buf);
	size_t n = 0;
	/* the issued IOs only: submit and data lines have a word there */
	while (fgets(line, sizeof(line), f)) {
		char w[8] = "";
		size_t len = strlen(line);
		if (sscanf(line, "%*u %7s", w) == 1 && (!strcmp(w, "read") || !strcmp(w, "write")) &&
		    n + len < (1 << 20)) {
			memcpy(buf + n, line, len);
			n += len;
		}
	}
	fclose(f);
	buf[n] = 0;
	return buf;
}

static void test_seed_reproducible(void **state)
{
	struct cell c;
	(void)state;
	base_cell(&c, "psync", PAT_RANDREAD);
	c.requests = 500;
	c.seed = 42;
	char *a = traced_run(&c);
	char *b = traced_run(&c);
	c.seed = 43;
	char *x = traced_run(&c);
	assert_true(strlen(a) > 500 * 10);
	assert_string_equal(a, b);
	assert_true(strcmp(a, x) != 0);
	/* every offset is bs-aligned and inside the file */
	char *save = NULL;
	for (char *l = strtok_r(a, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned job, file;
		char dirn[8];
		unsigned long long off, len;
		assert_int_equal(sscanf(l, "%u %7s %llu %llu %u", &job, dirn, &off, &len, &file), 5);
		assert_int_equal(off % 4096, 0);
		assert_true(off + len <= (4u << 20));
	}
	free(a);
	free(b);
	free(x);
}

static void test_sequential_contiguous(void **state)
{
	struct cell c;
	(void)state;
	base_cell(&c, "libaio", PAT_READ);
	c.jobs = 4;
	c.iodepth = 8;
	c.bs = 16 << 10;
	char *t = traced_run(&c);
	unsigned long long next[4] = { 0 }, count[4] = { 0 }, first[4];
	char *save = NULL;
	for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned job, file;
		char dirn[8];
		unsigned long long off, len;
		assert_int_equal(sscanf(l, "%u %7s %llu %llu %u", &job, dirn, &off, &len, &file), 5);
		assert_true(job < 4);
		assert_string_equal(dirn, "read");
		if (count[job] && off != next[job])
			fail_msg("job %u: offset %llu after %llu", job, off, next[job]);
		if (!count[job])
			first[job] = off;
		next[job] = off + len;
		count[job]++;
	}
	/* each job owns one quarter, in order */
	for (unsigned j = 0; j < 4; j++) {
		assert_int_equal(count[j], 64);
		assert_int_equal(first[j], (unsigned long long)j * (1 << 20));
	}
	free(t);
}

static void test_layout_incompressible_reused(void **state)
{
	struct cell c;
	struct target t;
	char err[512], cmd[512];
	struct stat st1, st2;
	(void)state;
	base_cell(&c, "libaio", PAT_RANDREAD);
	c.size = 2 << 20;
	assert_int_equal(runner_prepare(&c, &t, NULL, err, sizeof(err)), 0);
	assert_true(t.created);
	assert_int_equal(t.nfiles, 1);
	assert_int_equal(stat(t.paths[0], &st1), 0);
	assert_int_equal(st1.st_size, (2 << 20) + SCRATCH_MARK_BYTES);
	/* never sparse: every block allocated */
	assert_true((uint64_t)st1.st_blocks * 512 >= (uint64_t)st1.st_size);
	snprintf(cmd, sizeof(cmd), "gzip -c '%s' | wc -c", t.paths[0]);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	unsigned long long gz = 0;
	assert_int_equal(fscanf(p, "%llu", &gz), 1);
	pclose(p);
	if ((double)gz / (double)st1.st_size <= 0.99)
		fail_msg("layout compresses to %llu of %lld bytes", gz, (long long)st1.st_size);
	/* same size again: reused, not rewritten.  The file's mtime is set
	 * back to a fixed past instant first (no sleep waiting for the clock
	 * to move): any rewrite would stamp it with now. */
	const struct timespec past[2] = { { 946684800, 123456789 }, { 946684800, 123456789 } };
	assert_int_equal(utimensat(AT_FDCWD, t.paths[0], past, 0), 0);
	target_release(&t);

	assert_int_equal(runner_prepare(&c, &t, NULL, err, sizeof(err)), 0);
	assert_int_equal(stat(t.paths[0], &st2), 0);
	assert_int_equal(st2.st_mtim.tv_nsec, past[1].tv_nsec);
	assert_int_equal(st2.st_mtim.tv_sec, past[1].tv_sec);
	assert_int_equal(st1.st_size, st2.st_size);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s", t.paths[0]);
	runner_cleanup(&t, false);
	target_release(&t);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_ramp_excluded(void **state)
{
	struct cell c;
	struct rep_result r;
	(void)state;
	base_cell(&c, "null", PAT_RANDREAD);
	c.ramp_ns = 300000000;
	c.runtime_ns = 200000000;
	c.iodepth = 4;
	run_ok(&c, &r);
	assert_true(r.runtime_ns >= c.runtime_ns);
	assert_true(r.runtime_ns < c.runtime_ns + c.ramp_ns);
	/* a short cell records every 100 ms (cell_interval_ns), and the
	 * series starts at the end of the ramp: 2 intervals and the partial
	 * last one, where the 300 ms ramp would add 3 more */
	assert_int_equal(r.dir[DIR_READ].series.interval_ns, 100000000);
	assert_true(r.dir[DIR_READ].series.n <= 3);
	rep_result_release(&r);
}

static volatile sig_atomic_t stop_flag;

static void *stopper(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 200000000 };
	nanosleep(&ts, NULL);
	stop_flag = 1;
	return NULL;
}

static void test_stop_flag(void **state)
{
	struct cell c;
	struct target t;
	struct rep_result r;
	char err[256];
	pthread_t th;
	(void)state;
	base_cell(&c, "psync", PAT_RANDREAD);
	c.runtime_ns = 60000000000ull;
	c.jobs = 2;
	stop_flag = 0;
	struct run_ctl ctl = { .stop = &stop_flag };
	assert_int_equal(runner_prepare(&c, &t, &ctl, err, sizeof(err)), 0);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pthread_create(&th, NULL, stopper, NULL);
	assert_int_equal(runner_run_rep(&c, &t, &ctl, &r, err, sizeof(err)), -EINTR);
	clock_gettime(CLOCK_MONOTONIC, &b);
	pthread_join(th, NULL);
	assert_true(b.tv_sec - a.tv_sec < 10);
	rep_result_release(&r);
	runner_cleanup(&t, false);
	target_release(&t);
}

static void test_errors(void **state)
{
	struct cell c;
	struct target t;
	struct rep_result r;
	char err[512];
	(void)state;
	base_cell(&c, "libaio", PAT_RANDREAD);
	c.size = 1ull << 50;
	assert_int_equal(runner_prepare(&c, &t, NULL, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "not enough free space"));

	base_cell(&c, "nosuch", PAT_RANDREAD);
	assert_int_equal(runner_prepare(&c, &t, NULL, err, sizeof(err)), 0);
	assert_int_equal(runner_run_rep(&c, &t, NULL, &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "unknown engine 'nosuch'");
	runner_cleanup(&t, false);
	target_release(&t);

	base_cell(&c, "libaio", PAT_RANDREAD);
	char missing[sizeof(dir) + 32];
	snprintf(missing, sizeof(missing), "%s/no/such/dir/file", dir);
	c.path = missing;
	assert_int_equal(runner_prepare(&c, &t, NULL, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no such directory"));
}

/* ramfs has no O_DIRECT (needs root to mount; skipped otherwise). */
static void test_direct_refused_message(void **state)
{
	struct cell c;
	struct target t;
	char err[512], mnt[128], cmd[256];
	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(mnt, sizeof(mnt), "%s/ramfs", dir);
	mkdir(mnt, 0755);
	snprintf(cmd, sizeof(cmd), "mount -t ramfs none '%s' 2>/dev/null", mnt);
	if (system(cmd) != 0)
		skip();
	base_cell(&c, "libaio", PAT_RANDREAD);
	c.path = mnt;
	int ret = runner_prepare(&c, &t, NULL, err, sizeof(err));
	snprintf(cmd, sizeof(cmd), "umount '%s'", mnt);
	if (system(cmd) != 0)
		fail_msg("cannot unmount '%s'", mnt);
	assert_int_equal(ret, -EINVAL);
	char want[600];
	snprintf(want, sizeof(want), "O_DIRECT is not supported by the filesystem of '%s'; "
		 "set direct: false or use another path", mnt);
	assert_string_equal(err, want);
}

static void test_rep_json(void **state)
{
	struct cell c;
	struct rep_result r;
	(void)state;
	base_cell(&c, "null", PAT_RANDREAD);
	c.requests = 1000;
	run_ok(&c, &r);
	cJSON *j = resultset_rep_to_json(&r, 2);
	assert_non_null(j);
	assert_int_equal(cJSON_GetObjectItem(j, "rep")->valueint, 2);
	assert_non_null(cJSON_GetObjectItem(j, "cpu"));
	assert_null(cJSON_GetObjectItem(j, "write"));
	cJSON *rd = cJSON_GetObjectItem(j, "read");
	assert_non_null(rd);
	assert_int_equal(cJSON_GetObjectItem(rd, "ios")->valuedouble, 1000);
	cJSON *p = cJSON_GetObjectItem(cJSON_GetObjectItem(rd, "lat_ns"), "percentiles");
	assert_non_null(cJSON_GetObjectItem(p, "99.990000"));
	cJSON *h = cJSON_GetObjectItem(rd, "hist");
	assert_string_equal(cJSON_GetObjectItem(h, "scheme")->valuestring, "loglin64");
	struct lat_hist *back = calloc(1, sizeof(*back));
	assert_non_null(back);
	assert_int_equal(hist_from_json(h, back), 0);
	assert_memory_equal(back, r.dir[DIR_READ].hist, sizeof(*back));
	free(back);
	cJSON *s = cJSON_GetObjectItem(rd, "series");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(s, "ios")), 1);
	cJSON_Delete(j);
	rep_result_release(&r);
}

static void test_engine_registry(void **state)
{
	(void)state;
	assert_non_null(engine_find("libaio"));
	assert_non_null(engine_find("psync"));
	assert_non_null(engine_find("null"));
	assert_null(engine_find("nosuch"));
	assert_true(engine_known("io_uring"));
	assert_false(engine_known("posixaio"));
#ifdef HAVE_LIBURING
	assert_non_null(engine_find("io_uring"));
#else
	assert_null(engine_find("io_uring"));
#endif
	const char *const *n = engine_names();
	size_t k = 0;
	while (n[k])
		k++;
	assert_true(k >= 3);
}

/* Write n blocks (one slot, depth 1) with the given data kind and read them
 * back, in issue order, into blk (n * 4096 bytes). */
static void write_n(enum data_kind kind, unsigned pct, unsigned n, char *blk)
{
	struct cell c;
	base_cell(&c, "psync", PAT_RANDWRITE);
	c.data = kind;
	c.compress_pct = pct;
	c.requests = n;
	c.keep_files = true;
	char *t = traced_run(&c);
	char path[256];
	snprintf(path, sizeof(path), "%s/" CELL_FILE_FMT, dir, "t", 0u);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	char *save = NULL, *l = strtok_r(t, "\n", &save);
	for (unsigned i = 0; i < n; i++, l = strtok_r(NULL, "\n", &save)) {
		unsigned job, file;
		char dirn[8];
		unsigned long long off, len;
		assert_non_null(l);
		assert_int_equal(sscanf(l, "%u %7s %llu %llu %u", &job, dirn, &off, &len, &file), 5);
		assert_string_equal(dirn, "write");
		assert_int_equal(pread(fd, blk + i * 4096, 4096, (off_t)off), 4096);
	}
	close(fd);
	free(t);
}

static bool all_zero(const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static void test_data_kinds(void **state)
{
	static char b[3 * 4096];
	(void)state;
	write_n(DATA_ZERO, 0, 1, b);
	assert_true(all_zero(b, 4096));
	write_n(DATA_COMPRESSIBLE, 50, 1, b);
	assert_true(all_zero(b, 2048));
	assert_false(all_zero(b + 2048, 2048));
	/* random data: the same buffer slot never writes the same block twice,
	 * and no two 512-byte sectors of a block are equal (not dedupable) */
	write_n(DATA_RANDOM, 0, 3, b);
	assert_true(memcmp(b, b + 4096, 4096) != 0);
	assert_true(memcmp(b + 4096, b + 8192, 4096) != 0);
	for (int k = 0; k < 8; k++)
		for (int m = k + 1; m < 8; m++)
			assert_true(memcmp(b + 512 * k, b + 512 * m, 512) != 0);
}

static void test_fsync_and_drop_caches(void **state)
{
	struct cell c;
	struct rep_result r;
	(void)state;
	base_cell(&c, "libaio", PAT_RANDRW);
	c.iodepth = 8;
	c.requests = 500;
	c.fsync = 7;
	c.end_fsync = true;
	c.drop_caches = true;
	run_ok(&c, &r);
	assert_int_equal(r.dir[DIR_READ].ios + r.dir[DIR_WRITE].ios, 500);
	if (geteuid() != 0)
		assert_string_equal(r.warning, "drop_caches skipped: not root");
	else
		assert_true(r.warning[0] == 0 || strstr(r.warning, "drop_caches failed"));
	rep_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_registry),
		cmocka_unit_test(test_requests_exact),
		cmocka_unit_test(test_io_size_exact),
		cmocka_unit_test(test_one_pass),
		cmocka_unit_test(test_rwmixread),
		cmocka_unit_test(test_seed_reproducible),
		cmocka_unit_test(test_sequential_contiguous),
		cmocka_unit_test(test_layout_incompressible_reused),
		cmocka_unit_test(test_ramp_excluded),
		cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_direct_refused_message),
		cmocka_unit_test(test_rep_json),
		cmocka_unit_test(test_data_kinds),
		cmocka_unit_test(test_fsync_and_drop_caches),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
