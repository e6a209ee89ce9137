/*
 * test_safety.c - the guards that need no root: paths that are not block
 * devices pass, and the results-directory check finds its nearest existing
 * parent and refuses a path through a regular file.  (Mounted, swap and
 * held block devices: tests/integration/safety/run_blockdev_guard.sh, as root.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "host/safety.h"

static void test_directory_and_file_pass_even_for_writes(void **state)
{
	char err[512] = "";
	(void)state;

	assert_int_equal(safety_check_device("d", "/tmp", true, false, false,
					     err, sizeof(err)), 0);
	assert_int_equal(safety_check_device("d", "/tmp/iomatrix-no-such-file",
					     true, false, false, err, sizeof(err)), 0);
	/* a character device is not a block device */
	assert_int_equal(safety_check_device("d", "/dev/null", true, false,
					     false, err, sizeof(err)), 0);
}

static void test_results_dir_nearest_parent(void **state)
{
	char err[512] = "", dir[64];
	(void)state;

	strcpy(dir, "/tmp/iomatrix-safety.XXXXXX");
	assert_non_null(mkdtemp(dir));
	char deep[128];
	snprintf(deep, sizeof(deep), "%s/a/b/c", dir);
	assert_int_equal(safety_check_results_dir(deep, err, sizeof(err)), 0);
	rmdir(dir);
}

static void test_results_dir_through_a_file_refused(void **state)
{
	char err[512] = "", path[64], bad[128];
	int fd;
	(void)state;

	strcpy(path, "/tmp/iomatrix-safety.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(bad, sizeof(bad), "%s/results", path);
	assert_int_equal(safety_check_results_dir(bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is not a directory"));
	assert_non_null(strstr(err, "--out"));
	unlink(path);
}

/* /proc reports 0 blocks free; the cause is that it
 * is no disk, not that it is full */
static void test_results_dir_on_proc_names_the_cause(void **state)
{
	char err[512] = "";
	(void)state;

	if (!safety_pseudo_fs("/proc")) {
		skip(); /* no procfs mounted at /proc */
		return;
	}
	assert_int_equal(safety_check_results_dir("/proc/x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "procfs"));
	assert_non_null(strstr(err, "--out"));
	assert_null(strstr(err, "full"));
	assert_null(strstr(err, "KiB free"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directory_and_file_pass_even_for_writes),
		cmocka_unit_test(test_results_dir_nearest_parent),
		cmocka_unit_test(test_results_dir_through_a_file_refused),
		cmocka_unit_test(test_results_dir_on_proc_names_the_cause),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
