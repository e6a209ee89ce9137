/*
 * test_ramkind.c - the one list of RAM kinds: disk names map to kinds only
 * with a digit after the prefix (ram0 yes, ramdisk no), filesystem types
 * map to kinds, and every kind the fingerprint can record or an older set
 * may hold (brd) is RAM for the report; real disks and loop are not.
 */
#include <string.h>

#include "testutil.h"
#include "util/ramkind.h"

static void test_disks(void **state)
{
	(void)state;
	assert_string_equal(ram_kind_of_disk("zram0"), "zram");
	assert_string_equal(ram_kind_of_disk("zram12"), "zram");
	assert_string_equal(ram_kind_of_disk("ram3"), "ram");
	assert_string_equal(ram_kind_of_disk("pmem0"), "pmem");
	assert_null(ram_kind_of_disk("ramdisk"));
	assert_null(ram_kind_of_disk("loop0"));
	assert_null(ram_kind_of_disk("sda"));
	assert_null(ram_kind_of_disk("zram"));
	assert_null(ram_kind_of_disk(NULL));
}

static void test_filesystems(void **state)
{
	(void)state;
	assert_string_equal(ram_kind_of_fs("tmpfs"), "tmpfs");
	assert_string_equal(ram_kind_of_fs("ramfs"), "ramfs");
	assert_string_equal(ram_kind_of_fs("devtmpfs"), "devtmpfs");
	assert_null(ram_kind_of_fs("ext4"));
	assert_null(ram_kind_of_fs("zram")); /* a disk kind, not a filesystem */
}

static void test_kinds(void **state)
{
	static const char *const ram[] = { "zram", "ram", "brd", "pmem", "tmpfs",
					   "ramfs", "devtmpfs" };
	static const char *const not_ram[] = { "loop", "virtio", "nbd", "qemu", "" };
	(void)state;
	for (size_t i = 0; i < sizeof(ram) / sizeof(ram[0]); i++)
		assert_true(ram_kind_is(ram[i]));
	for (size_t i = 0; i < sizeof(not_ram) / sizeof(not_ram[0]); i++)
		assert_false(ram_kind_is(not_ram[i]));
	assert_false(ram_kind_is(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disks),
		cmocka_unit_test(test_filesystems),
		cmocka_unit_test(test_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
