/*
 * test_fio_map.c - the fio options of the SNIA keys export used to drop:
 * active_range scales size= (a percentage of a device, or bytes of a file
 * set), io_size as a multiple becomes bytes for a file set, io_size=N% for
 * a share of a device fio can express, and ${IOMATRIX_IO_SIZE} past fio's
 * 100 % limit (with the share run-all.sh must compute); none of them is
 * time_based, which would make fio ignore the amount.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "suite/fio_map.h"

struct opts {
	char text[4096];
};

static void collect(void *arg, const char *key, const char *val)
{
	struct opts *o = arg;
	size_t n = strlen(o->text);
	snprintf(o->text + n, sizeof(o->text) - n, "%s=%s\n", key, val);
}

static void base(struct cell *c, const char *path)
{
	cell_init(c);
	c->pattern = PAT_RANDWRITE;
	c->bs = 4096;
	c->path = path;
	c->device = "ssd";
}

static void test_active_range(void **state)
{
	struct cell c;
	struct opts o = { "" };
	(void)state;

	base(&c, "/dev/nvme0n1");
	c.size_pct = 100;
	c.active_range_pct = 75;
	fio_map_cell(&c, false, collect, &o);
	assert_non_null(strstr(o.text, "\nsize=75%\n"));
	memset(&o, 0, sizeof(o));
	base(&c, "/tmp/d/");
	c.size = 1 << 20;
	c.files = 2;
	c.active_range_pct = 50;
	fio_map_cell(&c, true, collect, &o);
	assert_non_null(strstr(o.text, "\nfilesize=1048576\n"));
	assert_non_null(strstr(o.text, "\nsize=1048576\n")); /* half of each of 2 */
}

static void test_io_size_mult(void **state)
{
	struct cell c;
	struct opts o = { "" };
	(void)state;

	base(&c, "/tmp/f");
	c.size = 1 << 20;
	c.io_size_mult = 1.5;
	c.runtime_ns = 60000000000ull;
	fio_map_cell(&c, false, collect, &o);
	assert_non_null(strstr(o.text, "\nio_size=1572864\n"));
	assert_null(strstr(o.text, "time_based"));
	assert_true(fio_map_io_size_env(&c) == 0);

	memset(&o, 0, sizeof(o));
	base(&c, "/dev/nvme0n1");
	c.size_pct = 100;
	c.io_size_mult = 0.5;
	fio_map_cell(&c, false, collect, &o);
	assert_non_null(strstr(o.text, "\nio_size=50%\n"));
	assert_true(fio_map_io_size_env(&c) == 0);

	/* 1.5x the device over 2 jobs: each job does 75 % of its size= */
	memset(&o, 0, sizeof(o));
	c.io_size_mult = 1.5;
	c.jobs = 2;
	fio_map_cell(&c, false, collect, &o);
	assert_non_null(strstr(o.text, "\nio_size=75%\n"));
	assert_true(fio_map_io_size_env(&c) == 0);

	/* one job: past fio's 100 %, bytes from the environment */
	memset(&o, 0, sizeof(o));
	c.jobs = 1;
	fio_map_cell(&c, false, collect, &o);
	assert_non_null(strstr(o.text, "\nio_size=${IOMATRIX_IO_SIZE}\n"));
	assert_true(fio_map_io_size_env(&c) > 1.499 && fio_map_io_size_env(&c) < 1.501);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_active_range),
		cmocka_unit_test(test_io_size_mult),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
