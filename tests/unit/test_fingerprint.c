/*
 * test_fingerprint.c - fingerprints are complete objects whatever the
 * machine hides: every documented key present (null when unknown), kinds
 * right for directories and not-yet-existing files, sysfs values trimmed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <yaml.h>

#include "testutil.h"
#include "host/fingerprint.h"

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_host_has_identity(void **state)
{
	cJSON *h = fingerprint_host();
	(void)state;

	assert_non_null(h);
	assert_non_null(str(h, "kernel"));
	assert_non_null(str(h, "arch"));
	assert_true(cJSON_GetObjectItemCaseSensitive(h, "cpus")->valuedouble >= 1);
	assert_true(cJSON_HasObjectItem(h, "virtualization"));
	assert_true(cJSON_HasObjectItem(h, "governor"));
	cJSON_Delete(h);
}

static void test_tool_names_libraries(void **state)
{
	cJSON *t = fingerprint_tool_build("1.2.3", NULL, "cc");
	(void)state;

	assert_string_equal(str(t, "name"), "iomatrix");
	assert_string_equal(str(t, "version"), "1.2.3");
	assert_string_equal(str(t, "git_commit"), "unknown");
	const cJSON *libs = cJSON_GetObjectItemCaseSensitive(t, "libs");
	assert_string_equal(str(libs, "libyaml"), yaml_get_version_string());
	assert_string_equal(str(libs, "cjson"), cJSON_Version());
	assert_true(cJSON_HasObjectItem(libs, "liburing"));
	cJSON_Delete(t);
}

static void test_device_keys_always_present(void **state)
{
	static const char *const keys[] = {
		"kind", "block_device", "model", "vendor", "firmware",
		"serial_sha256", "size_bytes", "rotational",
		"logical_block_bytes", "physical_block_bytes", "scheduler",
		"write_cache", "virtual", "fs_type", "mount_options",
	};
	const char *paths[] = { "/tmp", "/tmp/iomatrix-no-such-file", "/dev/shm" };
	(void)state;

	for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		if (access(paths[p], F_OK) < 0 && p == 2)
			continue;
		cJSON *d = fingerprint_device(paths[p]);
		assert_non_null(d);
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!cJSON_HasObjectItem(d, keys[i]))
				fail_msg("'%s': key '%s' missing", paths[p], keys[i]);
		cJSON_Delete(d);
	}
}

static void test_device_kind(void **state)
{
	cJSON *d = fingerprint_device("/tmp");
	(void)state;

	assert_string_equal(str(d, "kind"), "directory");
	assert_non_null(str(d, "fs_type"));
	cJSON_Delete(d);
	d = fingerprint_device("/tmp/iomatrix-no-such-file");
	assert_string_equal(str(d, "kind"), "file");
	cJSON_Delete(d);
}

static void test_serial_is_a_hash(void **state)
{
	cJSON *d = fingerprint_device("/tmp");
	const char *s = str(d, "serial_sha256");
	(void)state;

	if (s) {
		assert_int_equal(strlen(s), 64);
		for (const char *p = s; *p; p++)
			assert_true((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'));
	}
	cJSON_Delete(d);
}

static void test_sysfs_read_trims(void **state)
{
	char path[] = "/tmp/iomatrix-fp.XXXXXX", buf[64];
	int fd = mkstemp(path);
	(void)state;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "  Samsung SSD 870   \nsecond\n", 28), 28);
	close(fd);
	assert_int_equal(sysfs_read(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Samsung SSD 870");
	unlink(path);
	assert_int_equal(sysfs_read(path, buf, sizeof(buf)), -ENOENT);
}

static void test_anonymous_device_is_not_a_block_device(void **state)
{
	struct blkdev b;
	(void)state;

	assert_int_equal(blkdev_resolve(makedev(0, 42), &b), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_has_identity),
		cmocka_unit_test(test_tool_names_libraries),
		cmocka_unit_test(test_device_keys_always_present),
		cmocka_unit_test(test_device_kind),
		cmocka_unit_test(test_serial_is_a_hash),
		cmocka_unit_test(test_sysfs_read_trims),
		cmocka_unit_test(test_anonymous_device_is_not_a_block_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
