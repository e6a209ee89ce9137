/*
 * test_fsdir.c - a stream on a dup leaves the caller's descriptor open and
 * lists from the first entry even after a read moved the shared position;
 * a stream on a descriptor closes it, also when it is not a directory; a
 * failed open handed in keeps its errno.
 */
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fsdir.h"

static size_t count_entries(DIR *d)
{
	size_t n = 0;
	while (readdir(d))
		n++;
	return n;
}

static void test_dup_keeps_fd_and_rewinds(void **state)
{
	char dir[] = "/tmp/test_fsdir.XXXXXX", p[64];
	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/f%d", dir, i);
		int f = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		assert_true(f >= 0);
		close(f);
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	DIR *d = fsdir_open_dup(fd);
	assert_non_null(d);
	assert_int_equal(count_entries(d), 5); /* ".", "..", f0-f2 */
	closedir(d);
	assert_true(fcntl(fd, F_GETFD) >= 0);  /* still open */
	d = fsdir_open_dup(fd);                /* the shared position was at the end */
	assert_non_null(d);
	assert_int_equal(count_entries(d), 5);
	closedir(d);
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "f%d", i);
		assert_int_equal(unlinkat(fd, p, 0), 0);
	}
	close(fd);
	assert_int_equal(rmdir(dir), 0);
}

static void test_fd_taken_over(void **state)
{
	(void)state;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	errno = 0;
	assert_null(fsdir_open_fd(fd));        /* not a directory */
	assert_int_equal(errno, ENOTDIR);
	assert_true(fcntl(fd, F_GETFD) < 0);   /* closed */
	errno = ENOENT;                        /* as a failed open leaves it */
	assert_null(fsdir_open_fd(-1));
	assert_int_equal(errno, ENOENT);
	assert_null(fsdir_open_dup(-1));
	assert_int_equal(errno, EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dup_keeps_fd_and_rewinds),
		cmocka_unit_test(test_fd_taken_over),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
