/*
 * test_fuzz_regress.c - replay every input in tests/fuzz/regress/<target>/
 * (crashes, leaks and hangs the fuzzers found) and the seed corpus
 * tests/fuzz/corpus/<target>/ through the same LLVMFuzzerTestOneInput entry
 * points, in the normal test build, so they run under `make test`, the
 * sanitizer pass and valgrind.  Each fuzz target .c is included here with its
 * entry point renamed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

#define LLVMFuzzerTestOneInput fuzz_units_one
#include "../fuzz/fuzz_units.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_cell_json_one
#include "../fuzz/fuzz_cell_json.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_template_one
#include "../fuzz/fuzz_template.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_suite_one
#include "../fuzz/fuzz_suite.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_rset_one
#include "../fuzz/fuzz_rset.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_import_fio_one
#include "../fuzz/fuzz_import_fio.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_import_sysbench_one
#include "../fuzz/fuzz_import_sysbench.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_import_csv_one
#include "../fuzz/fuzz_import_csv.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_report_one
#include "../fuzz/fuzz_report.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_cmds_one
#include "../fuzz/fuzz_cmds.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_fleet_one
#include "../fuzz/fuzz_fleet.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_set_tree_one
#include "../fuzz/fuzz_set_tree.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_fleet_controller_one
#include "../fuzz/fuzz_fleet_controller.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_unpack_one
#include "../fuzz/fuzz_unpack.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_reproduce_one
#include "../fuzz/fuzz_reproduce.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_archdb_one
#include "../fuzz/fuzz_archdb.c"
#undef LLVMFuzzerTestOneInput

#define LLVMFuzzerTestOneInput fuzz_site_manifest_one
#include "../fuzz/fuzz_site_manifest.c"
#undef LLVMFuzzerTestOneInput

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

/* Root of the source tree: $IOMATRIX_ROOT, else the directory the test runs
 * from (tests/run.sh and the Makefile run from the top). */
static const char *src_root(void)
{
	const char *r = getenv("IOMATRIX_ROOT");
	return r && *r ? r : ".";
}

static int read_whole(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, alloc = 0;

	if (!f)
		return -errno;
	for (;;) {
		if (n == alloc) {
			size_t na = alloc ? alloc * 2 : 4096;
			uint8_t *nb = realloc(buf, na);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
			alloc = na;
		}
		size_t r = fread(buf + n, 1, alloc - n, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}

/* Feed every regular file of root/sub/target to fn; returns how many. */
static int replay_dir(const char *sub, const char *target, fuzz_fn fn)
{
	char dir[4096], path[4096 + 256];
	struct dirent *de;
	DIR *d;
	int count = 0;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/%s/%s", src_root(), sub, target);
	d = opendir(dir);
	if (!d)
		return 0; /* no inputs for this target yet */
	while ((de = readdir(d))) {
		struct stat st;
		uint8_t *data = NULL;
		size_t len = 0;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (read_whole(path, &data, &len) < 0) {
			closedir(d);
			fail_msg("cannot read '%s'", path);
		}
		/* A crash, sanitizer report or abort() here names no file: say
		 * which one before running it. */
		print_message("# replay %s\n", path);
		fn(data, len);
		free(data);
		count++;
	}
	closedir(d);
	return count;
}

static void replay(const char *target, fuzz_fn fn)
{
	int n = replay_dir("regress", target, fn);
	n += replay_dir("corpus", target, fn);
	print_message("# %s: %d inputs replayed\n", target, n);
	if (n == 0) /* a missing corpus must not pass as "nothing crashed" */
		fail_msg("no inputs for %s under %s/tests/fuzz (set IOMATRIX_ROOT)",
			 target, src_root());
}

static void test_replay_units(void **state)
{
	(void)state;
	replay("fuzz_units", fuzz_units_one);
}

static void test_replay_cell_json(void **state)
{
	(void)state;
	replay("fuzz_cell_json", fuzz_cell_json_one);
}

static void test_replay_template(void **state)
{
	(void)state;
	replay("fuzz_template", fuzz_template_one);
}

static void test_replay_suite(void **state)
{
	(void)state;
	replay("fuzz_suite", fuzz_suite_one);
}

static void test_replay_rset(void **state)
{
	(void)state;
	replay("fuzz_rset", fuzz_rset_one);
}

static void test_replay_import_fio(void **state)
{
	(void)state;
	replay("fuzz_import_fio", fuzz_import_fio_one);
}

static void test_replay_import_sysbench(void **state)
{
	(void)state;
	replay("fuzz_import_sysbench", fuzz_import_sysbench_one);
}

static void test_replay_import_csv(void **state)
{
	(void)state;
	replay("fuzz_import_csv", fuzz_import_csv_one);
}

static void test_replay_report(void **state)
{
	(void)state;
	replay("fuzz_report", fuzz_report_one);
}

static void test_replay_fleet(void **state)
{
	(void)state;
	replay("fuzz_fleet", fuzz_fleet_one);
}

/* A fake agent's replies driven into the controller's state machine. */
static void test_replay_fleet_controller(void **state)
{
	(void)state;
	replay("fuzz_fleet_controller", fuzz_fleet_controller_one);
}

static void test_replay_cmds(void **state)
{
	(void)state;
	replay("fuzz_cmds", fuzz_cmds_one);
}

/* Hostile set trees (links, FIFOs, odd types in every position): report,
 * compare, list and --resume must change nothing outside the tree. */
static void test_replay_set_tree(void **state)
{
	(void)state;
	replay("fuzz_set_tree", fuzz_set_tree_one);
}

/* Packs from anyone: unpack leaves one verified set or nothing. */
static void test_replay_unpack(void **state)
{
	(void)state;
	replay("fuzz_unpack", fuzz_unpack_one);
}

/* Received sets: the rule holds for whatever manifest, suite and cells. */
static void test_replay_archdb(void **state)
{
	(void)state;
	replay("fuzz_archdb", fuzz_archdb_one);
}

static void test_replay_site_manifest(void **state)
{
	(void)state;
	replay("fuzz_site_manifest", fuzz_site_manifest_one);
}

static void test_replay_reproduce(void **state)
{
	(void)state;
	replay("fuzz_reproduce", fuzz_reproduce_one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_units),
		cmocka_unit_test(test_replay_reproduce),
		cmocka_unit_test(test_replay_archdb),
		cmocka_unit_test(test_replay_site_manifest),
		cmocka_unit_test(test_replay_cell_json),
		cmocka_unit_test(test_replay_template),
		cmocka_unit_test(test_replay_suite),
		cmocka_unit_test(test_replay_rset),
		cmocka_unit_test(test_replay_import_fio),
		cmocka_unit_test(test_replay_import_sysbench),
		cmocka_unit_test(test_replay_import_csv),
		cmocka_unit_test(test_replay_report),
		cmocka_unit_test(test_replay_fleet),
		cmocka_unit_test(test_replay_fleet_controller),
		cmocka_unit_test(test_replay_cmds),
		cmocka_unit_test(test_replay_set_tree),
		cmocka_unit_test(test_replay_unpack),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
