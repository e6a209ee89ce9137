/*
 * test_testhook.c - the test hooks (util/testhook.h): a signal at exactly
 * the Nth count and never again, N+ at every count from N, the pause's
 * line on the FIFO and its wait for the answer, a malformed value
 * ignored, the settings beside the event (fifo=, fleet_*_ms=) and the
 * lines testhook_log appends (stop_log=).  The environment is read once
 * per process, so each case runs in a child of its own.
 */
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/testhook.h"

static volatile sig_atomic_t hits, hit_at;
static int counted;

static void on_usr(int sig)
{
	(void)sig;
	hits++;
	hit_at = counted;
}

/* In a child: set the hook, count EVENT n times (SIGINT is the action in
 * these cases; a handler counts it), exit with hits * 16 + count at the
 * last hit. */
static int child_counts(const char *hook, const char *event, int n)
{
	pid_t p = fork();
	if (p == 0) {
		setenv("IOMATRIX_TEST_HOOK", hook, 1);
		signal(SIGINT, on_usr);
		for (counted = 1; counted <= n; counted++)
			testhook_point(event);
		_exit(hits * 16 + hit_at);
	}
	int st;
	waitpid(p, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_signal_once_at_n(void **state)
{
	(void)state;
	assert_int_equal(child_counts("cell:3:int", "cell", 6), 1 * 16 + 3);
	/* another event does not count */
	assert_int_equal(child_counts("cell:3:int", "round", 6), 0);
	/* never reached */
	assert_int_equal(child_counts("cell:9:int", "cell", 6), 0);
}

static void test_every_from_n(void **state)
{
	(void)state;
	assert_int_equal(child_counts("round:2+:int", "round", 5), 4 * 16 + 5);
}

static void test_malformed_ignored(void **state)
{
	(void)state;
	assert_int_equal(child_counts("cell:0:int", "cell", 3), 0);
	assert_int_equal(child_counts("cell:x:int", "cell", 3), 0);
	assert_int_equal(child_counts("cell:1:bogus", "cell", 3), 0);
	assert_int_equal(child_counts("cell:1", "cell", 3), 0); /* pause without a FIFO */
	assert_int_equal(child_counts("", "cell", 3), 0);
	/* at most one event: a second one drops both */
	assert_int_equal(child_counts("cell:1:int,cell:2:int", "cell", 3), 0);
	assert_int_equal(child_counts("cell:1:int,cell:x,cell:2:int", "cell", 3), 0);
	/* an unknown setting is ignored, the event still counts */
	assert_int_equal(child_counts("bogus=1,cell:2:int", "cell", 3), 1 * 16 + 2);
}

/* In a child: set the hook, exit with what testhook_ms(name, 7) says
 * (small numbers only) or 255 when testhook_value(name) is not want. */
static int child_setting(const char *hook, const char *name, const char *want)
{
	pid_t p = fork();
	if (p == 0) {
		setenv("IOMATRIX_TEST_HOOK", hook, 1);
		const char *v = testhook_value(name);
		if (want ? !v || strcmp(v, want) : v != NULL)
			_exit(255);
		_exit((int)testhook_ms(name, 7));
	}
	int st;
	waitpid(p, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* settings: the one variable holds the test-only values beside an event */
static void test_settings(void **state)
{
	(void)state;
	assert_int_equal(child_setting("fleet_line_ms=25", "fleet_line_ms", "25"), 25);
	assert_int_equal(child_setting("cell:3:int,fleet_cell_ms=9,fleet_silence_ms=30",
				       "fleet_silence_ms", "30"), 30);
	assert_int_equal(child_setting("proc=/tmp/p,fifo=/tmp/f", "proc", "/tmp/p"), 7);
	/* unset, empty, zero, not a number: the default */
	assert_int_equal(child_setting("cell:3:int", "fleet_line_ms", NULL), 7);
	assert_int_equal(child_setting("fleet_line_ms=", "fleet_line_ms", NULL), 7);
	assert_int_equal(child_setting("fleet_line_ms=0", "fleet_line_ms", "0"), 7);
	assert_int_equal(child_setting("fleet_line_ms=2s", "fleet_line_ms", "2s"), 7);
	/* a name testhook.h does not list is never a setting */
	assert_int_equal(child_setting("nosuch=1", "nosuch", NULL), 7);
}

/* stop_log=PATH: each testhook_log line is appended there; nothing
 * without the setting */
static void test_log_appends(void **state)
{
	(void)state;
	char dir[] = "/tmp/iomatrix-hook.XXXXXX", path[64], hook[128], buf[64] = "";
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/log", dir);
	snprintf(hook, sizeof(hook), "wait:1,fifo=/nonexistent,stop_log=%s", path);
	for (int k = 0; k < 2; k++) {
		pid_t p = fork();
		if (p == 0) {
			if (k)
				unsetenv("IOMATRIX_TEST_HOOK");
			else
				setenv("IOMATRIX_TEST_HOOK", hook, 1);
			testhook_log("stop_log", "stopped_ms %.1f\n", 12.5);
			testhook_log("stop_log", "n %d\n", 2);
			_exit(0);
		}
		int st;
		waitpid(p, &st, 0);
	}
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_string_equal(buf, "stopped_ms 12.5\nn 2\n");
	unlink(path);
	rmdir(dir);
}

/* pause: the line names the event and its count, and the process waits
 * until the test answers */
static void test_pause_waits_for_answer(void **state)
{
	(void)state;
	char dir[] = "/tmp/iomatrix-hook.XXXXXX", fifo[64], line[64] = "";
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/f", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	int done[2];
	assert_int_equal(pipe(done), 0);
	pid_t p = fork();
	if (p == 0) {
		char hook[128];
		snprintf(hook, sizeof(hook), "import_cell:2,fifo=%s", fifo);
		setenv("IOMATRIX_TEST_HOOK", hook, 1);
		close(done[0]);
		testhook_point("import_cell");
		testhook_point("import_cell");
		(void)!write(done[1], "x", 1);
		_exit(0);
	}
	close(done[1]);
	FILE *f = fopen(fifo, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_string_equal(line, "import_cell 2\n");
	/* paused: nothing on the pipe yet */
	int fl = fcntl(done[0], F_GETFL);
	fcntl(done[0], F_SETFL, fl | O_NONBLOCK);
	char c;
	assert_int_equal(read(done[0], &c, 1), -1);
	f = fopen(fifo, "w");
	assert_non_null(f);
	fputs("go\n", f);
	fclose(f);
	fcntl(done[0], F_SETFL, fl);
	assert_int_equal(read(done[0], &c, 1), 1);
	int st;
	waitpid(p, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_once_at_n),
		cmocka_unit_test(test_every_from_n),
		cmocka_unit_test(test_malformed_ignored),
		cmocka_unit_test(test_pause_waits_for_answer),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_log_appends),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
