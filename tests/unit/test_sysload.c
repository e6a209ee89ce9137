/*
 * test_sysload.c - /proc/loadavg and /proc/stat read from a directory of
 * fake files, the delta between two readings (busy, iowait, steal, our own
 * share, other work in CPUs), and the rule that says other work competed.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/sysload.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char p[128];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_sysload.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char p[128];
	snprintf(p, sizeof(p), "%s/loadavg", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/stat", dir);
	unlink(p);
	rmdir(dir);
	return 0;
}

static void test_read_and_delta(void **state)
{
	(void)state;
	struct sysload a, b;
	struct sysload_delta d;
	put("loadavg", "1.50 0.75 0.25 2/300 4242\n");
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	put("stat", "cpu  100 10 90 700 50 5 5 40 7 0\ncpu0 x\ncpu1 x\ncpu2 x\ncpu3 x\nintr 9\n");
	assert_int_equal(sysload_read(dir, &a), 0);
	assert_true(a.have_load && a.have_stat);
	assert_true(fabs(a.load[0] - 1.5) < 1e-12 && fabs(a.load[2] - 0.25) < 1e-12);
	assert_int_equal(a.ncpu, 4);
	assert_int_equal(a.busy, 200);   /* user + nice + system; guest is in user */
	assert_int_equal(a.total, 1000); /* user .. steal */
	/* 400 ticks later: 200 busy, 40 iowait, 20 steal, 10 irq+softirq */
	put("stat", "cpu  250 10 140 830 90 10 10 60 7 0\ncpu0 x\ncpu1 x\ncpu2 x\ncpu3 x\n");
	assert_int_equal(sysload_read(dir, &b), 0);
	/* we used 0.5 s of CPU at 100 ticks/s: 50 of the 200 busy ticks */
	sysload_delta(&a, &b, 0.5, 100, &d);
	assert_true(d.have_cpu);
	assert_true(fabs(d.busy_pct - 50) < 1e-9);
	assert_true(fabs(d.iowait_pct - 10) < 1e-9);
	assert_true(fabs(d.steal_pct - 5) < 1e-9);
	assert_true(fabs(d.own_pct - 12.5) < 1e-9);
	assert_true(fabs(d.other_cpus - 1.5) < 1e-9); /* 150 of 400 ticks x 4 CPUs */
	/* our own usage never exceeds busy (ticks are sampled) */
	sysload_delta(&a, &b, 5, 100, &d);
	assert_true(fabs(d.other_cpus) < 1e-12 && fabs(d.own_pct - 50) < 1e-9);
	/* no time passed, or the counters went back: no CPU numbers */
	sysload_delta(&b, &b, 0, 100, &d);
	assert_false(d.have_cpu);
	sysload_delta(&b, &a, 0, 100, &d);
	assert_false(d.have_cpu);
}

static void test_missing_and_malformed(void **state)
{
	(void)state;
	struct sysload s;
	teardown(NULL);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(sysload_read(dir, &s), -1);
	put("loadavg", "garbage\n");
	put("stat", "intr 1\ncpu  1 2\n");
	assert_int_equal(sysload_read(dir, &s), -1);
	assert_false(s.have_load || s.have_stat);
	put("loadavg", "0.1 0.2 0.3 1/1 1\n");
	assert_int_equal(sysload_read(dir, &s), 0);
	assert_true(s.have_load && !s.have_stat);
}

static void test_rule(void **state)
{
	(void)state;
	assert_false(sysload_competed(0, 0));
	assert_false(sysload_competed(0.49, 9.9));
	assert_true(sysload_competed(SYSLOAD_OTHER_CPUS, 0));
	assert_true(sysload_competed(0, SYSLOAD_STEAL_PCT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_and_delta),
		cmocka_unit_test(test_missing_and_malformed),
		cmocka_unit_test(test_rule),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
