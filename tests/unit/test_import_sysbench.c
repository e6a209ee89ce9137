/*
 * test_import_sysbench.c - `import sysbench` on real sysbench 1.0.20 fileio
 * logs (tests/data/sysbench/README.md): parameters from the header, figures
 * from the tail, several runs in one log (seed 003's script), command-line
 * fallbacks and errors with file:line.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"
#include "util/fsutil.h"

static int load(struct import_set *s, const char *name,
		const struct import_sysbench_opts *o, struct errlist *e)
{
	char path[4096];
	const char *r = getenv("IOMATRIX_ROOT");
	struct import_sysbench_opts none = { 0 };

	if (name[0] == '/')
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/tests/data/sysbench/%s",
			 r && r[0] ? r : ".", name);
	import_set_init(s, "sysbench");
	return import_sysbench_file(s, path, o ? o : &none, e);
}

static void test_rndrw_header_and_figures(void **state)
{
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	(void)state;
	assert_int_equal(load(&s, "rndrw-bs4096-t4.log", NULL, &e), 0);
	assert_int_equal(s.ncells, 1);
	const struct import_cell *c = &s.cells[0];
	assert_int_equal(c->params.pattern, PAT_RANDRW);
	assert_int_equal(c->params.bs, 4096);
	assert_int_equal(c->params.jobs, 4);
	assert_int_equal(c->params.files, 4);
	assert_int_equal(c->params.size, 16u << 20);
	assert_int_equal(c->params.rwmixread, 60); /* ratio 1.50 */
	assert_true(c->params.direct);
	assert_true(c->params.end_fsync);
	assert_string_equal(c->params.engine, "psync");
	const struct dir_result *r = &c->reps[0].dir[DIR_READ], *w = &c->reps[0].dir[DIR_WRITE];
	assert_true(r->iops == 25361.10);
	assert_true(w->iops == 16908.73);
	assert_true(fabs(r->bw_bytes_s - 99.07 * 1048576) < 1);
	assert_true(fabs(r->lat_mean_ns - 0.09e6) < 1);
	assert_true(fabs(r->lat_max_ns - 4.13e6) < 1);
	assert_int_equal(r->npct, 1);
	assert_true(r->pct_p[0] == 95);
	assert_int_equal(c->reps[0].runtime_ns, 2000700000ULL);
	/* device from the log's name when nothing else says */
	assert_string_equal(c->params.device, "rndrw-bs4096-t4");
	import_set_release(&s);
	errlist_release(&e);
}

static void test_modes(void **state)
{
	static const struct { const char *file; enum pattern p; uint64_t bs; unsigned t; } m[] = {
		{ "rndrd-bs4096-t16.log", PAT_RANDREAD, 4096, 16 },
		{ "rndwr-bs16384-t16.log", PAT_RANDWRITE, 16384, 16 },
		{ "seqrd-bs16384-t1.log", PAT_READ, 16384, 1 },
		{ "seqwr-bs4096-t2.log", PAT_WRITE, 4096, 2 },
		{ "seqrewr-bs16384-t16.log", PAT_REWRITE, 16384, 16 },
		{ "seed003-style-rndrd-16k.log", PAT_RANDREAD, 16384, 16 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct import_set s;
		struct errlist e = ERRLIST_INIT;
		assert_int_equal(load(&s, m[i].file, NULL, &e), 0);
		assert_int_equal(s.ncells, 1);
		assert_int_equal(s.cells[0].params.pattern, m[i].p);
		assert_int_equal(s.cells[0].params.bs, m[i].bs);
		assert_int_equal(s.cells[0].params.jobs, m[i].t);
		/* sysbench's sequential threads share one position */
		assert_int_equal(s.cells[0].params.sequential_shared,
				 !pattern_is_random(m[i].p));
		/* only the directions the mode performs */
		assert_int_equal(s.cells[0].reps[0].dir[DIR_READ].present, pattern_reads(m[i].p));
		assert_int_equal(s.cells[0].reps[0].dir[DIR_WRITE].present, pattern_writes(m[i].p));
		import_set_release(&s);
		errlist_release(&e);
	}
}

static void test_buffered_with_periodic_fsync(void **state)
{
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	(void)state;
	assert_int_equal(load(&s, "rndwr-buffered-fsync.log", NULL, &e), 0);
	assert_false(s.cells[0].params.direct);
	/* sysbench's rule, not fio's per-file fsync count */
	assert_int_equal(s.cells[0].params.sysbench_fsync_freq, 100);
	assert_int_equal(s.cells[0].params.fsync, 0);
	assert_true(s.cells[0].params.norandommap);
	import_set_release(&s);
	errlist_release(&e);
}

static void test_script_log_with_six_runs(void **state)
{
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	(void)state;
	assert_int_equal(load(&s, "seed003-script-fileio.log", NULL, &e), 0);
	assert_int_equal(s.ncells, 6);
	/* "----/tmp/iomx-sb 4096 rndrd----": device from the directory */
	assert_string_equal(s.cells[0].params.device, "iomx-sb");
	assert_int_equal(s.cells[0].params.pattern, PAT_RANDREAD);
	assert_int_equal(s.cells[0].params.bs, 4096);
	assert_int_equal(s.cells[5].params.pattern, PAT_READ);
	assert_int_equal(s.cells[5].params.bs, 16384);
	import_set_release(&s);
	errlist_release(&e);
}

static const char *tmp_with(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/test_import_sb.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* Only the figures (the header was not saved): --mode/--bs/--threads. */
static const char *tail_only =
	"File operations:\n    reads/s:                      100.00\n"
	"    writes/s:                     0.00\n    fsyncs/s:                     0.00\n\n"
	"Throughput:\n    read, MiB/s:                  1.56\n    written, MiB/s:               0.00\n\n"
	"General statistics:\n    total time:                          10.0010s\n"
	"    total number of events:              1000\n";

static void test_command_line_fills_gaps(void **state)
{
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	const char *p = tmp_with(tail_only);
	struct import_sysbench_opts o = { .mode = "rndrd", .bs = 16384, .threads = 8,
					  .device = "sata" };
	(void)state;
	assert_int_equal(load(&s, p, &o, &e), 0);
	assert_int_equal(s.cells[0].params.pattern, PAT_RANDREAD);
	assert_int_equal(s.cells[0].params.bs, 16384);
	assert_int_equal(s.cells[0].params.jobs, 8);
	assert_string_equal(s.cells[0].params.device, "sata");
	assert_false(s.cells[0].reps[0].dir[DIR_READ].known & REP_LAT);
	import_set_release(&s);
	errlist_release(&e);

	assert_int_equal(load(&s, p, NULL, &e), -1);
	assert_non_null(strstr(e.msgs[0], "give --mode"));
	import_set_release(&s);
	errlist_release(&e);
	unlink(p);
}

static void test_errors_have_lines(void **state)
{
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	char want[128];
	(void)state;
	const char *p = tmp_with("sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"
				 "Number of threads: 4\nBlock size 16KiB\n"
				 "Doing random read test\n    reads/s:   12,5\n");
	assert_int_equal(load(&s, p, NULL, &e), -1);
	snprintf(want, sizeof(want), "%s:5:", p);
	if (!strstr(e.msgs[0], want) || !strstr(e.msgs[0], "reads/s"))
		fail_msg("got '%s'", e.msgs[0]);
	import_set_release(&s);
	errlist_release(&e);
	unlink(p);

	p = tmp_with("sysbench 1.0.20\nNumber of threads: 4\nBlock size 16KiB\n"
		     "Doing random read test\n    reads/s:   12.5\n");
	assert_int_equal(load(&s, p, NULL, &e), -1);
	snprintf(want, sizeof(want), "%s:1:1: sysbench run is incomplete", p);
	if (!strstr(e.msgs[0], want))
		fail_msg("got '%s'", e.msgs[0]);
	import_set_release(&s);
	errlist_release(&e);
	unlink(p);

	p = tmp_with("hello\n");
	assert_int_equal(load(&s, p, NULL, &e), -1);
	assert_non_null(strstr(e.msgs[0], "no sysbench fileio results"));
	import_set_release(&s);
	errlist_release(&e);
	unlink(p);
}

/* The real rndrd log with one figure edited.
 * Each is refused with the line and the cause; nothing reaches the set. */
static void test_edited_figures_refused(void **state)
{
	static const struct { const char *from, *to, *line, *says; } cases[] = {
		/* decimal only: strtod read 0x10 as 16 */
		{ "67970.51", "0x10", ":23:", "bad number for reads/s: '0x10'" },
		{ "67970.51", "1e308", ":23:", "bad number for reads/s" },
		/* a second reads/s replaced the first */
		{ "    writes/s:", "    reads/s:                      16.00\n    writes/s:", ":24:",
		  "a second 'reads/s' line" },
		{ "67970.51", "100000000000000000000.00", ":1:", "iops" },
		{ "100000\n\nLatency", "100000000000000000000000\n\nLatency", ":1:", "events" },
		{ "min:                                    0.02", "min:                                    99.00",
		  ":1:", "out of order" },
		{ "1.4703s", "1e300s", ":32:", "bad number for total time" },
		{ "1.4703s", "1000000000.0000s", ":1:", "runtime_ns" },
		{ "95th percentile:                        0.29", "95th percentile:                        900.00",
		  ":1:", "p95.000000 is 900000000 ns, above max 9340000 ns" },
	};
	const char *r = getenv("IOMATRIX_ROOT");
	char src[4096];
	(void)state;
	snprintf(src, sizeof(src), "%s/tests/data/sysbench/rndrd-bs4096-t16.log", r && r[0] ? r : ".");
	char *log = fsutil_read(src, 1 << 20, NULL);
	assert_non_null(log);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *at = strstr(log, cases[i].from), text[8192];
		assert_non_null(at);
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - log), log, cases[i].to,
			 at + strlen(cases[i].from));
		const char *p = tmp_with(text);
		struct import_set s;
		struct errlist e = ERRLIST_INIT;
		char want[128];
		snprintf(want, sizeof(want), "%s%s", p, cases[i].line);
		if (load(&s, p, NULL, &e) != -1 || !e.n || !strstr(e.msgs[0], want) ||
		    !strstr(e.msgs[0], cases[i].says))
			fail_msg("case %zu: got '%s'", i, e.n ? e.msgs[0] : "no error");
		import_set_release(&s);
		errlist_release(&e);
		unlink(p);
	}
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rndrw_header_and_figures),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_buffered_with_periodic_fsync),
		cmocka_unit_test(test_script_log_with_six_runs),
		cmocka_unit_test(test_command_line_fills_gaps),
		cmocka_unit_test(test_errors_have_lines),
		cmocka_unit_test(test_edited_figures_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
