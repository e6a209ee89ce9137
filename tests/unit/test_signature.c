/*
 * test_signature.c - libblkid's reading of what a device holds, on image
 * files (libblkid probes regular files as it probes devices, so no root is
 * needed): an ext4 filesystem is named with its label and UUID, a label
 * with terminal escape sequences comes out printable, an empty image says
 * nothing was found, and a missing path is an error with the reason.
 * Skips when mkfs.ext4 is not installed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "host/signature.h"

static char dir[] = "/tmp/iomatrix-sig.XXXXXX";

/* An image of 8 MiB at dir/NAME, made with mkfs.ext4 -L label (NULL: left
 * empty).  0, or -1 when mkfs.ext4 is missing or failed. */
static int image(const char *name, const char *label, char *path, size_t len)
{
	char cmd[1024];

	snprintf(path, len, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "truncate -s 8M '%s'", path);
	if (system(cmd) != 0)
		return -1;
	if (!label)
		return 0;
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F -L \"$IOMATRIX_T_LABEL\" '%s' >/dev/null 2>&1",
		 path);
	setenv("IOMATRIX_T_LABEL", label, 1);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_ext4_named(void **state)
{
	char path[512], out[1024];
	(void)state;

	if (image("ext4.img", "precious", path, sizeof(path)) < 0)
		skip();
	assert_int_equal(signature_describe(path, out, sizeof(out)), 1);
	assert_non_null(strstr(out, "ext4 'precious' (UUID "));
}

static void test_label_made_printable(void **state)
{
	char path[512], out[1024];
	(void)state;

	if (image("esc.img", "\033[2Jx", path, sizeof(path)) < 0)
		skip();
	assert_true(signature_describe(path, out, sizeof(out)) >= 1);
	assert_null(strchr(out, '\033'));
	assert_non_null(strstr(out, "'?[2Jx'"));
}

static void test_empty_and_missing(void **state)
{
	char path[512], out[1024];
	(void)state;

	assert_int_equal(image("empty.img", NULL, path, sizeof(path)), 0);
	assert_int_equal(signature_describe(path, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "no filesystem, partition table"));
	snprintf(path, sizeof(path), "%s/absent", dir);
	assert_int_equal(signature_describe(path, out, sizeof(out)), -ENOENT);
	assert_non_null(strstr(out, "cannot read its signatures"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ext4_named),
		cmocka_unit_test(test_label_made_printable),
		cmocka_unit_test(test_empty_and_missing),
	};
	char cmd[128];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
