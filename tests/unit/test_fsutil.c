/*
 * test_fsutil.c - the one file reader and writer: a FIFO, a device, a
 * directory or a link is refused before any read (a FIFO must not hang),
 * the size bound holds, atomic writes leave no temp file, make files
 * that follow the umask, work relative to a directory fd, and parent-of and
 * mkdir -p give the expected paths; a tree of any depth is removed whole,
 * never through a link; append to a file, never through a link or into a
 * FIFO.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util/fsutil.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/iomatrix-fsutil.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_read_whole_file(void **state)
{
	char path[256];
	size_t len = 0;
	(void)state;

	put("a", "hello\n");
	snprintf(path, sizeof(path), "%s/a", tmpdir);
	char *b = fsutil_read(path, 100, &len);
	assert_non_null(b);
	assert_int_equal(len, 6);
	assert_string_equal(b, "hello\n");
	free(b);
	/* exactly max is fine, one byte less is not */
	b = fsutil_read(path, 6, NULL);
	assert_non_null(b);
	free(b);
	errno = 0;
	assert_null(fsutil_read(path, 5, NULL));
	assert_int_equal(errno, EFBIG);
}

static void test_read_refuses_fifo_without_blocking(void **state)
{
	char path[256];
	(void)state;

	snprintf(path, sizeof(path), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* no writer: a plain open would block forever */
	alarm(10);
	errno = 0;
	assert_null(fsutil_read(path, 100, NULL));
	assert_int_equal(errno, EINVAL);
	alarm(0);
	assert_string_equal(fsutil_strerror(EINVAL), "not a regular file");
	/* a device too */
	errno = 0;
	assert_null(fsutil_read("/dev/zero", 100, NULL));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(fsutil_read(tmpdir, 100, NULL));
	assert_int_equal(errno, EISDIR);
}

static void test_read_at_refuses_links_unless_followed(void **state)
{
	char path[256];
	(void)state;

	put("target", "x");
	snprintf(path, sizeof(path), "%s/link", tmpdir);
	assert_int_equal(symlink("target", path), 0);
	int dfd = open(tmpdir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	errno = 0;
	assert_null(fsutil_read_at(dfd, "link", 100, 0, NULL));
	assert_int_equal(errno, ELOOP);
	char *b = fsutil_read_at(dfd, "link", 100, FSUTIL_FOLLOW, NULL);
	assert_non_null(b);
	assert_string_equal(b, "x");
	free(b);
	close(dfd);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Files follow the umask (0666 less it), as open(2) does: under 077 a
 * private set stays private, under 022 files are 0644. */
static void test_write_atomic_mode_and_no_temp(void **state)
{
	static const mode_t masks[][2] = { { 077, 0600 }, { 022, 0644 }, { 0, 0666 } };
	char path[256];
	struct stat st;
	(void)state;

	snprintf(path, sizeof(path), "%s/out.json", tmpdir);
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		mode_t old = umask(masks[i][0]);
		unlink(path);
		assert_int_equal(fsutil_write_atomic(path, "one", 3), 0);
		assert_int_equal(fsutil_write_atomic(path, "two", 3), 0);
		umask(old);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 07777, masks[i][1]);
	}
	char *b = fsutil_read(path, 100, NULL);
	assert_string_equal(b, "two");
	free(b);
	assert_int_equal(count_entries(tmpdir), 1);
}

static void test_write_atomic_at_subdir_and_errors(void **state)
{
	char path[256];
	(void)state;

	snprintf(path, sizeof(path), "%s/cells", tmpdir);
	assert_int_equal(mkdir(path, 0755), 0);
	int dfd = open(tmpdir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(fsutil_write_atomic_at(dfd, "cells/0001.json", "{}", 2), 0);
	char *b = fsutil_read_at(dfd, "cells/0001.json", 100, 0, NULL);
	assert_non_null(b);
	assert_string_equal(b, "{}");
	free(b);
	assert_int_equal(count_entries(path), 1);
	assert_int_equal(fsutil_write_atomic_at(dfd, "missing/x", "x", 1), -ENOENT);
	close(dfd);
}

static void test_temp_names(void **state)
{
	(void)state;
	assert_true(fsutil_is_temp_name(".iomatrix-tmp.abc"));
	assert_false(fsutil_is_temp_name("manifest.json"));
	assert_false(fsutil_is_temp_name("x.iomatrix-tmp.abc"));
}

static void test_parent(void **state)
{
	static const char *const cases[][2] = {
		{ "/a/b", "/a" }, { "b", "." }, { "/b", "/" }, { "a/b/", "a" },
		{ "a//b", "a" }, { "/", "/" }, { "./x", "." },
	};
	char out[64];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(fsutil_parent(cases[i][0], out, sizeof(out)), 0);
		assert_string_equal(out, cases[i][1]);
	}
	assert_int_equal(fsutil_parent("/abcdef/x", out, 4), -ENAMETOOLONG);
	assert_string_equal(out, "");
}

static void test_mkdir_p(void **state)
{
	char path[256];
	struct stat st;
	(void)state;

	snprintf(path, sizeof(path), "%s/x/y/z", tmpdir);
	assert_int_equal(fsutil_mkdir_p(path), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(fsutil_mkdir_p(path), 0); /* exists: fine */
	put("file", "");
	snprintf(path, sizeof(path), "%s/file", tmpdir);
	assert_int_equal(fsutil_mkdir_p(path), -ENOTDIR);
}

/* A relative path is walked without following a link in any component
 * (openat(dirfd, "a/b") would follow "a"); ".." is refused; the component
 * at fault is named by its length. */
static void test_open_dir_at_never_follows(void **state)
{
	char p[256];
	size_t bad = 0;
	(void)state;

	int top = open(tmpdir, O_RDONLY | O_DIRECTORY);
	assert_true(top >= 0);
	int fd = fsutil_open_dir_at(top, "a/b/c", true, NULL);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/a/b/c", tmpdir);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* a link in the middle, to a real directory */
	snprintf(p, sizeof(p), "%s/a/b", tmpdir);
	char q[256];
	snprintf(q, sizeof(q), "%s/a/link", tmpdir);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(fsutil_open_dir_at(top, "a/link/c", false, &bad), -ELOOP);
	assert_int_equal(bad, strlen("a/link"));
	assert_int_equal(fsutil_open_dir_at(top, "a/link/new", true, &bad), -ELOOP);
	snprintf(p, sizeof(p), "%s/a/b/new", tmpdir);
	assert_int_not_equal(stat(p, &st), 0);   /* nothing made through it */
	assert_int_equal(fsutil_open_dir_at(top, "a/../a", false, NULL), -EINVAL);
	assert_int_equal(fsutil_open_dir_at(top, "a//b", false, NULL), -EINVAL);
	fd = fsutil_open_dir_at(top, "", false, NULL);
	assert_true(fd >= 0);
	close(fd);
	close(top);
}

/* sha256 of a file: the known digest of "abc"; a link, a FIFO refused. */
static void test_sha256_at(void **state)
{
	char p[256], q[256], hex[65];
	(void)state;

	snprintf(p, sizeof(p), "%s/abc", tmpdir);
	assert_int_equal(fsutil_write_atomic(p, "abc", 3), 0);
	assert_int_equal(fsutil_sha256_at(AT_FDCWD, p, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	snprintf(q, sizeof(q), "%s/link", tmpdir);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(fsutil_sha256_at(AT_FDCWD, q, hex), -ELOOP);
	snprintf(q, sizeof(q), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(q, 0600), 0);
	assert_int_equal(fsutil_sha256_at(AT_FDCWD, q, hex), -EINVAL);
}

/* The one write/read loop: all bytes through a pipe, a read past the end
 * is -EPIPE, a write to a closed pipe -EPIPE (SIGPIPE ignored), a bad
 * descriptor -EBADF. */
static void test_write_read_all(void **state)
{
	(void)state;
	int fds[2];
	char in[1000], out[1000];
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (char)(i * 7);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fsutil_write_all(fds[1], in, sizeof(in)), 0);
	assert_int_equal(fsutil_read_all(fds[0], out, sizeof(out)), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(fsutil_write_all(fds[1], "abc", 3), 0);
	close(fds[1]);
	assert_int_equal(fsutil_read_all(fds[0], out, 4), -EPIPE);
	assert_int_equal(fsutil_read_all(fds[0], out, 0), 0);
	close(fds[0]);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(fsutil_write_all(fds[1], "x", 1), -EPIPE);
	close(fds[1]);
	assert_int_equal(fsutil_write_all(-1, "x", 1), -EBADF);
}

/* 3000 levels (the old recursion stopped at 64 and left the rest, data
 * included), a file at each level, and a link to a directory outside
 * whose file must survive: the whole tree goes, the outside stays. */
/* Append: made when missing, appended to when there, never through a
 * link at the path, never into a FIFO (without blocking) or a device. */
static void test_append(void **state)
{
	char path[256], link[256], fifo[256];
	(void)state;

	snprintf(path, sizeof(path), "%s/sum.md", tmpdir);
	assert_int_equal(fsutil_append(path, "one\n", 4), 0);
	assert_int_equal(fsutil_append(path, "two\n", 4), 0);
	char *b = fsutil_read(path, 100, NULL);
	assert_non_null(b);
	assert_string_equal(b, "one\ntwo\n");
	free(b);
	snprintf(link, sizeof(link), "%s/link", tmpdir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(fsutil_append(link, "x", 1), -ELOOP);
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(10);
	assert_int_equal(fsutil_append(fifo, "x", 1), -EINVAL);
	alarm(0);
	assert_int_equal(fsutil_append(tmpdir, "x", 1), -EISDIR);
	assert_int_equal(fsutil_append("/dev/null", "x", 1), -EINVAL);
	b = fsutil_read(path, 100, NULL);
	assert_non_null(b);
	assert_string_equal(b, "one\ntwo\n");
	free(b);
}

static void test_remove_tree_any_depth(void **state)
{
	char top[256], outside[256], keep[300];
	int fd;
	(void)state;
	snprintf(top, sizeof(top), "%s/deep", tmpdir);
	snprintf(outside, sizeof(outside), "%s/outside", tmpdir);
	snprintf(keep, sizeof(keep), "%s/keep", outside);
	assert_int_equal(mkdir(outside, 0755), 0);
	put("outside/keep", "stays");
	assert_int_equal(mkdir(top, 0755), 0);
	fd = open(top, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (int i = 0; i < 3000; i++) {
		int f = openat(fd, "data", O_WRONLY | O_CREAT | O_EXCL, 0644);
		assert_true(f >= 0);
		assert_int_equal(write(f, "x", 1), 1);
		close(f);
		if (i == 1500)
			assert_int_equal(symlinkat(outside, fd, "link"), 0);
		assert_int_equal(mkdirat(fd, "d", 0755), 0);
		int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		assert_true(sub >= 0);
		close(fd);
		fd = sub;
	}
	close(fd);
	fsutil_remove_tree_at(AT_FDCWD, top);
	struct stat st;
	assert_int_equal(lstat(top, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(lstat(keep, &st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_whole_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_refuses_fifo_without_blocking, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_at_refuses_links_unless_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_atomic_mode_and_no_temp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_atomic_at_subdir_and_errors, setup, teardown),
		cmocka_unit_test(test_temp_names),
		cmocka_unit_test(test_parent),
		cmocka_unit_test_setup_teardown(test_mkdir_p, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_dir_at_never_follows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sha256_at, setup, teardown),
		cmocka_unit_test(test_write_read_all),
		cmocka_unit_test_setup_teardown(test_remove_tree_any_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
