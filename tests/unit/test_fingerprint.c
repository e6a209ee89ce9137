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
#include "host/fpkeys.h"
#include "import/import.h"
#include "util/errlist.h"
#include "util/fsutil.h"

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

/* o holds exactly the keys of the table: every non-optional one, and no key
 * the table does not know.  what names o in the failure message. */
static void keys_match_table(const cJSON *o, const struct fp_key *keys,
			     const char *what)
{
	assert_non_null(o);
	for (const struct fp_key *k = keys; k->name; k++)
		if (!k->optional && !cJSON_HasObjectItem(o, k->name))
			fail_msg("%s: key '%s' of host/fpkeys.c missing", what, k->name);
	for (const cJSON *c = o->child; c; c = c->next) {
		const struct fp_key *k = keys;
		while (k->name && strcmp(k->name, c->string))
			k++;
		if (!k->name)
			fail_msg("%s: key '%s' is not in host/fpkeys.c", what, c->string);
	}
}

static void test_host_keys_are_the_table(void **state)
{
	cJSON *h = fingerprint_host();
	(void)state;

	keys_match_table(h, fp_host_keys, "fingerprint_host()");
	cJSON_Delete(h);
}

static void test_device_keys_are_the_table(void **state)
{
	const char *paths[] = { "/tmp", "/tmp/iomatrix-no-such-file",
				"/no-such-dir/no-such-file", "/dev/shm", "/dev/null" };
	(void)state;

	for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		if (p >= 3 && access(paths[p], F_OK) < 0)
			continue;
		cJSON *d = fingerprint_device(paths[p]);
		keys_match_table(d, fp_device_keys, paths[p]);
		cJSON_Delete(d);
	}
}

static void test_unknown_fingerprints_are_all_null(void **state)
{
	cJSON *h = fp_host_unknown("lab1"), *h0 = fp_host_unknown(NULL);
	cJSON *d = fp_device_unknown();
	(void)state;

	keys_match_table(h, fp_host_keys, "fp_host_unknown");
	keys_match_table(h0, fp_host_keys, "fp_host_unknown(NULL)");
	keys_match_table(d, fp_device_keys, "fp_device_unknown");
	assert_string_equal(str(h, "hostname"), "lab1");
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(h0, "hostname")));
	for (const cJSON *c = h->child; c; c = c->next)
		assert_true(!strcmp(c->string, "hostname") || cJSON_IsNull(c));
	for (const cJSON *c = d->child; c; c = c->next)
		assert_true(cJSON_IsNull(c));
	cJSON_Delete(h);
	cJSON_Delete(h0);
	cJSON_Delete(d);
}

/* An imported set's manifest carries the same keys as a run's: the
 * importer builds its fingerprints from the one table. */
static void test_import_writes_the_table(void **state)
{
	char csv[] = "/tmp/test_fingerprint.XXXXXX", dir[] = "/tmp/test_fingerprint.d.XXXXXX";
	char setdir[4096], out[4096], path[4200], err[512];
	const char *text = "device,pattern,bs,iops,lat_ms,mb_s\nssd,randread,4k,1000,0.5,4.096\n";
	struct import_set s;
	struct errlist e = ERRLIST_INIT;
	size_t len;
	(void)state;

	int fd = mkstemp(csv);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_non_null(mkdtemp(dir));
	snprintf(setdir, sizeof(setdir), "%s/set", dir);
	import_set_init(&s, "csv");
	assert_int_equal(import_csv_file(&s, csv, &e), 0);
	assert_int_equal(import_set_write(&s, dir, setdir, out, sizeof(out), err,
					  sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/manifest.json", out);
	char *json = fsutil_read(path, 1 << 20, &len);
	assert_non_null(json);
	cJSON *m = cJSON_Parse(json);
	assert_non_null(m);
	keys_match_table(cJSON_GetObjectItemCaseSensitive(m, "host"), fp_host_keys,
			 "imported manifest host");
	const cJSON *dev = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m, "devices"), 0);
	keys_match_table(cJSON_GetObjectItemCaseSensitive(dev, "fingerprint"),
			 fp_device_keys, "imported manifest device");
	cJSON_Delete(m);
	free(json);
	import_set_release(&s);
	errlist_release(&e);
	unlink(csv);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
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
		cmocka_unit_test(test_host_keys_are_the_table),
		cmocka_unit_test(test_device_keys_are_the_table),
		cmocka_unit_test(test_unknown_fingerprints_are_all_null),
		cmocka_unit_test(test_import_writes_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
