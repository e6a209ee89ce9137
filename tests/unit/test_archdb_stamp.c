/*
 * test_archdb_stamp.c - the stamps history, list and site check an index's
 * row by (report/archive/archdb_stamp.c): several sets stamped at once
 * through io_uring say exactly what each says alone by fstatat (sets of
 * 300 cells: more than a ring's batch and a getdents64 buffer; a set
 * without cells/, one gone, a directory and a link among the cells);
 * the stamp starts with the set's and cells/'s own stat; whether each is
 * a set is resultset_is_set's answer (one without cells/ but with a
 * manifest is, one whose manifest.json is a directory is not); and a cell
 * rewritten in place under its own name changes the batch's stamp.
 */
#include "testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archdb_stamp.h"
#include "resultset/setwalk.h"

#define NSETS 11

static void put(const char *dir, const char *name, const char *text)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Set i of root: most with a few files, 2 and 7 with 300 cells, 4
 * without cells/, 9 never made, 5 with a directory and a link in cells/,
 * 10 no set (its manifest.json a directory, no cells/). */
static void make_set(const char *root, int i)
{
	char d[256], c[300], n[32];
	if (i == 9)
		return;
	snprintf(d, sizeof(d), "%s/set%02d", root, i);
	assert_int_equal(mkdir(d, 0755), 0);
	if (i == 10) {   /* no set: a manifest.json that is a directory */
		snprintf(c, sizeof(c), "%s/manifest.json", d);
		assert_int_equal(mkdir(c, 0755), 0);
		put(d, "notes.txt", "x");
		return;
	}
	put(d, "manifest.json", "{}");
	put(d, "SHA256SUMS", "");
	if (i == 4)
		return;
	snprintf(c, sizeof(c), "%s/cells", d);
	assert_int_equal(mkdir(c, 0755), 0);
	int cells = i == 2 || i == 7 ? 300 : 3 + i;
	for (int k = 1; k <= cells; k++) {
		snprintf(n, sizeof(n), "%04d.json", k);
		put(c, n, "{\"id\": 1}");
	}
	if (i == 5) {
		char p[320];
		snprintf(p, sizeof(p), "%s/sub", c);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/link.json", c);
		assert_int_equal(symlink("0001.json", p), 0);
	}
}

static void test_batch_is_each_alone(void **state)
{
	char root[] = "/tmp/test_archdb_stamp.XXXXXX", rels[NSETS][16];
	const char *r[NSETS];
	char many[NSETS][ARC_DIRS_STAMP_MAX], one[ARC_DIRS_STAMP_MAX];
	bool is_set[NSETS];
	(void)state;
	assert_non_null(mkdtemp(root));
	for (int i = 0; i < NSETS; i++) {
		make_set(root, i);
		snprintf(rels[i], sizeof(rels[i]), "set%02d", i);
		r[i] = rels[i];
	}
	int at = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(at >= 0);
	struct arc_statq *q = arc_statq_new();
	assert_non_null(q);
	/* set09 is gone: -1, and "" for it alone */
	assert_int_equal(arc_dirs_stamp_many(q, at, r, NSETS, many, is_set), -1);
	for (int i = 0; i < NSETS; i++) {
		int rc = arc_dirs_stamp_at(at, r[i], one);
		char p[300];
		snprintf(p, sizeof(p), "%s/%s", root, r[i]);
		assert_int_equal(is_set[i], resultset_is_set(p));
		assert_int_equal(is_set[i], i != 9 && i != 10);
		assert_int_equal(rc, i == 9 ? -1 : 0);
		assert_string_equal(many[i], one);
		if (i == 9)
			continue;
		/* the set's own line first: device:inode:size:mtime:ctime */
		struct stat st;
		char line[128];
		assert_int_equal(fstatat(at, r[i], &st, 0), 0);
		snprintf(line, sizeof(line), "%llx:%llx:%llx:%llx.%lx:%llx.%lx;",
			 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
			 (unsigned long long)st.st_size, (unsigned long long)st.st_mtim.tv_sec,
			 (unsigned long)st.st_mtim.tv_nsec, (unsigned long long)st.st_ctim.tv_sec,
			 (unsigned long)st.st_ctim.tv_nsec);
		assert_memory_equal(many[i], line, strlen(line));
		if (i == 4)   /* no cells/ */
			assert_memory_equal(many[i] + strlen(line), "-;", 2);
	}
	/* a cell rewritten in place: the set's directories keep their times */
	char before[ARC_DIRS_STAMP_MAX], p[512];
	memcpy(before, many[7], sizeof(before));
	snprintf(p, sizeof(p), "%s/set07/cells/0150.json", root);
	int f = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(f >= 0);
	assert_int_equal(write(f, "{\"id\": 2}", 9), 9);
	close(f);
	assert_int_equal(arc_dirs_stamp_many(q, at, r, NSETS, many, NULL), -1);
	assert_string_not_equal(many[7], before);
	assert_int_equal(arc_dirs_stamp_at(at, r[7], one), 0);
	assert_string_equal(many[7], one);
	arc_statq_free(q);
	close(at);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_is_each_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
