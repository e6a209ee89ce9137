/*
 * test_devident.c - the device identity (host/devident.h): a model device
 * is its keys, never the disk under its directory; storage is its disk on
 * its machine; an unknown target is one device with nothing.
 */
#include "testutil.h"

#include "host/devident.h"

/* Two model devices, one twice the other's service time, in
 * directories on one disk, were "the same device (/dev/vda)". */
static void test_model_is_its_keys(void **state)
{
	(void)state;
	struct dev_ident a = { "vm", { "/dev/vda", "/dev/vda", NULL }, "model" };
	struct dev_ident b = { "vm", { "/dev/vda", "/dev/vda", NULL }, "model;model_latency=200us" };
	const char *what = NULL;
	assert_false(devident_same(&a, &b, &what));
	b.model = "model";
	assert_true(devident_same(&a, &b, &what));
	assert_string_equal(what, "model device");
	/* on two machines, one model is still one model */
	b.host = "other";
	assert_true(devident_same(&a, &b, NULL));
	/* a model device is never the disk it sits on */
	b.model = NULL;
	b.host = "vm";
	assert_false(devident_same(&a, &b, NULL));
	assert_false(devident_same(&b, &a, NULL));
}

static void test_storage_is_its_disk(void **state)
{
	(void)state;
	struct dev_ident a = { "vm", { "/dev/vda1", "/dev/vda", NULL }, NULL };
	struct dev_ident b = { "vm", { "/dev/vda1", "/dev/vda", NULL }, NULL };
	const char *what = NULL;
	assert_true(devident_same(&a, &b, &what));
	assert_string_equal(what, "/dev/vda1");
	/* a loop over a file on vda2 measures vda too */
	b.disk = (struct fp_disk){ "/dev/loop0", "/dev/loop0", "/dev/vda" };
	assert_true(devident_same(&a, &b, &what));
	assert_string_equal(what, "/dev/vda");
	/* another machine's vda1 is another disk */
	b = a;
	b.host = "other";
	assert_false(devident_same(&a, &b, NULL));
	/* unknown (an import): one device with nothing */
	b = (struct dev_ident){ NULL, { NULL, NULL, NULL }, NULL };
	assert_false(devident_same(&a, &b, NULL));
	assert_false(devident_same(&b, &b, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_is_its_keys),
		cmocka_unit_test(test_storage_is_its_disk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
