/*
 * test_tmpdir.c - whose a hidden temporary set directory is
 * (resultset/tmpdir.h): unpack's .iomatrix-tmp.unpack.PID.N and import's
 * .iomatrix-tmp.NAME.importing.PID give their PID; every other name,
 * fsutil's own temp files included, gives 0 and is never swept.
 */
#include "testutil.h"

#include "resultset/tmpdir.h"

static void test_owner(void **state)
{
	(void)state;
	assert_int_equal(resultset_tmp_owner(".iomatrix-tmp.unpack.1234.0"), 1234);
	assert_int_equal(resultset_tmp_owner(".iomatrix-tmp.unpack.7.12"), 7);
	assert_int_equal(resultset_tmp_owner(".iomatrix-tmp.set.importing.99"), 99);
	/* the last ".importing." counts: a set may be named so */
	assert_int_equal(resultset_tmp_owner(".iomatrix-tmp.a.importing.b.importing.5"), 5);
	const char *no[] = {
		".iomatrix-tmp.unpack.x1.0", ".iomatrix-tmp.unpack.12", ".iomatrix-tmp.unpack.12.",
		".iomatrix-tmp.unpack.0.1", ".iomatrix-tmp.unpack.012.1", ".iomatrix-tmp.unpack.1.2x",
		".iomatrix-tmp.set.importing.", ".iomatrix-tmp.set.importing.12a",
		".iomatrix-tmp.set.importing.-3", ".iomatrix-tmp.Ab3dE9fGh1Jk",
		".iomatrix-tmp.other.1.0", "unpack.1.0", "x.importing.5", "",
		".iomatrix-tmp.unpack.99999999999.0",
	};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (resultset_tmp_owner(no[i]) != 0)
			fail_msg("'%s' taken for a temporary set directory", no[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
