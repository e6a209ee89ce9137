/*
 * test_sums.c - SHA256SUMS of a set (bench/resultset/sums.h): the list is
 * coreutils' format, sorted, over every file but itself, temp files and
 * report/; the checker says intact, "no checksums" without a list, and
 * names each changed, missing, extra file and malformed line; a FIFO or a
 * link in the set is extra (never opened or followed).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util/fsutil.h"
#include "resultset/sums.h"

static char tmpdir[64];
static int dfd = -1;

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/iomatrix-sums.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	dfd = open(tmpdir, O_RDONLY | O_DIRECTORY);
	return dfd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	close(dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text)
{
	assert_int_equal(fsutil_write_atomic_at(dfd, name, text, strlen(text)), 0);
}

static void make_set(void)
{
	assert_int_equal(mkdirat(dfd, "cells", 0755), 0);
	assert_int_equal(mkdirat(dfd, "report", 0755), 0);
	put("manifest.json", "{}\n");
	put("plan.json", "[]\n");
	put("cells/0001.json", "{\"id\": 1}\n");
	put("report/report.md", "# r\n");
	put(".iomatrix-tmp.abc", "half");
}

/* Does check c name exactly `problem` among its problems? */
static int has(const struct sums_check *c, const char *problem)
{
	for (size_t i = 0; i < c->nproblems; i++)
		if (!strcmp(c->problems[i], problem))
			return 1;
	return 0;
}

static void test_list_format(void **state)
{
	size_t len;
	(void)state;
	make_set();
	assert_int_equal(sums_write_at(dfd, SUMS_SET), 0);
	char *text = fsutil_read_at(dfd, SUMS_FILE, 1 << 20, 0, &len);
	assert_non_null(text);
	/* sorted by path, two spaces, no report/, no temp file, not itself */
	char want[4][128];
	const char *names[4] = { "cells/0001.json", "manifest.json", "plan.json", NULL };
	char *line = text;
	for (int i = 0; names[i]; i++) {
		char hex[65];
		assert_int_equal(fsutil_sha256_at(dfd, names[i], hex), 0);
		snprintf(want[i], sizeof(want[i]), "%s  %s\n", hex, names[i]);
		assert_memory_equal(line, want[i], strlen(want[i]));
		line += strlen(want[i]);
	}
	assert_string_equal(line, "");
	free(text);
}

static void test_verify_states(void **state)
{
	struct sums_check c;
	(void)state;
	make_set();
	assert_int_equal(sums_verify_at(dfd, SUMS_SET, &c), 0);
	assert_int_equal(c.state, SUMS_NONE);
	assert_string_equal(sums_state_name(c.state), "no checksums");
	sums_check_release(&c);

	assert_int_equal(sums_write_at(dfd, SUMS_SET), 0);
	assert_int_equal(sums_verify_at(dfd, SUMS_SET, &c), 0);
	assert_int_equal(c.state, SUMS_INTACT);
	assert_int_equal(c.nfiles, 3);
	sums_check_release(&c);

	put("cells/0001.json", "{\"id\": 2}\n");
	assert_int_equal(unlinkat(dfd, "plan.json", 0), 0);
	put("notes.txt", "mine\n");
	assert_int_equal(mkfifoat(dfd, "fifo", 0600), 0);
	assert_int_equal(symlinkat("/etc/passwd", dfd, "cells/link"), 0);
	assert_int_equal(sums_verify_at(dfd, SUMS_SET, &c), 0);
	assert_int_equal(c.state, SUMS_FAILED);
	assert_true(has(&c, "changed cells/0001.json"));
	assert_true(has(&c, "missing plan.json"));
	assert_true(has(&c, "extra notes.txt"));
	assert_true(has(&c, "extra fifo"));
	assert_true(has(&c, "extra cells/link"));
	assert_int_equal(c.nproblems, 5);
	sums_check_release(&c);
}

static void test_malformed_lists(void **state)
{
	struct sums_check c;
	(void)state;
	put("manifest.json", "{}\n");
	put(SUMS_FILE, "zz  manifest.json\n"
		       "0000000000000000000000000000000000000000000000000000000000000000  ../x\n"
		       "0000000000000000000000000000000000000000000000000000000000000000  /etc/passwd\n");
	assert_int_equal(sums_verify_at(dfd, SUMS_SET, &c), 0);
	assert_int_equal(c.state, SUMS_FAILED);
	assert_true(has(&c, "malformed line at SHA256SUMS:1:"));
	assert_true(has(&c, "a name outside the set ('/' first, '..') or a directory ('/' last) at SHA256SUMS:2:"));
	assert_true(has(&c, "a name outside the set ('/' first, '..') or a directory ('/' last) at SHA256SUMS:3:"));
	assert_true(has(&c, "extra manifest.json"));
	sums_check_release(&c);
}

/* Every form of a line that sha256sum -c (GNU coreutils 9.1) accepts
 * names the file it opens: "./cells/x" gave "malformed line" on every
 * line of a list a user made with `find . -type f | xargs sha256sum`. */
static void test_lines_as_sha256sum_reads_them(void **state)
{
	struct sums_check c;
	char hm[65], hc[65], hp[65], list[2048];
	(void)state;
	assert_int_equal(mkdirat(dfd, "cells", 0755), 0);
	put("manifest.json", "{}\n");
	put("cells/0001.json", "{\"id\": 1}\n");
	put("plan.json", "[]\n");
	assert_int_equal(fsutil_sha256_at(dfd, "manifest.json", hm), 0);
	assert_int_equal(fsutil_sha256_at(dfd, "cells/0001.json", hc), 0);
	assert_int_equal(fsutil_sha256_at(dfd, "plan.json", hp), 0);
	static const char *const forms[] = {
		"%s  ./cells/0001.json\n%s  ./manifest.json\n%s  ./plan.json\n",   /* find . | xargs */
		"%s *cells//0001.json\n  %s  ./manifest.json\n%s\tplan.json\n",  /* binary, blanks */
		"SHA256 (./cells/0001.json) = %s\n# a comment\nSHA256 (manifest.json) = %s\n"
		"%s cells/./../plan.json\n",                                    /* tagged; '..' */
		"\\%s  cells/0001.json\n%s  manifest.json\r\n%s  plan.json\n", /* escaped, CRLF */
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(list, sizeof(list), forms[i], hc, hm, hp);
		put(SUMS_FILE, list);
		assert_int_equal(sums_verify_at(dfd, 0, &c), 0);
		if (i == 2) {   /* the one sha256sum would open, iomatrix does not */
			assert_int_equal(c.state, SUMS_FAILED);
			assert_true(has(&c, "a name outside the set ('/' first, '..') or a directory ('/' last) at SHA256SUMS:4:"));
			assert_true(has(&c, "extra plan.json"));
			assert_int_equal(c.nproblems, 2);
		} else {
			if (c.state != SUMS_INTACT)
				fail_msg("form %zu: %s", i, c.nproblems ? c.problems[0] : "?");
			assert_int_equal(c.nfiles, 3);
		}
		sums_check_release(&c);
	}
	/* the same file named twice, in two spellings, is listed twice */
	snprintf(list, sizeof(list), "%s  manifest.json\n%s  ./manifest.json\n%s  cells/0001.json\n"
		 "%s  plan.json\n", hm, hm, hc, hp);
	put(SUMS_FILE, list);
	assert_int_equal(sums_verify_at(dfd, 0, &c), 0);
	assert_true(has(&c, "listed twice manifest.json"));
	sums_check_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed_lists, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines_as_sha256sum_reads_them, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
