/*
 * test_reprofile.c - the manifest's "reproduces" object and an original
 * set read for a reproduction (bench/resultset/reprofile.h): the round
 * trip through the one manifest reader, malformed objects refused,
 * suite.yaml held to the manifest's sha256, a newer schema refused.
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/sha256.h"
#include "resultset/reprofile.h"
#include "resultset/rset.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* m written as DIR/manifest.json and read back by the one manifest reader
 * (rset_load_manifest): what report, list, the site and reproduce see. */
static void reread(const cJSON *m, struct rset *rs)
{
	char dir[] = "/tmp/test_reprofile.XXXXXX", p[64], why[256];
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/manifest.json", dir);
	char *t = cJSON_Print(m);
	write_file(p, t);
	free(t);
	assert_int_equal(rset_load_manifest(dir, rs, why, sizeof(why)), 0);
	unlink(p);
	rmdir(dir);
}

static void test_round_trip(void **state)
{
	(void)state;
	cJSON *m = cJSON_CreateObject();
	struct reproduces in = { "2026-12-01T000000Z_q_h", "ab", "/x/y", 7.5 };
	struct rset rs;
	assert_int_equal(reprofile_add(m, &in), 0);
	reread(m, &rs);
	assert_true(rs.reproduces.present);
	assert_string_equal(rs.reproduces.set, in.set);
	assert_string_equal(rs.reproduces.manifest_sha256, "ab");
	assert_string_equal(rs.reproduces.path, "/x/y");
	assert_true(rs.reproduces.tolerance_pct == 7.5);
	rset_release(&rs);
	/* a second add replaces the first: one "reproduces" */
	in.tolerance_pct = 0;
	assert_int_equal(reprofile_add(m, &in), 0);
	reread(m, &rs);
	assert_true(rs.reproduces.tolerance_pct == 0);
	assert_int_equal(cJSON_GetArraySize(m), 1);
	rset_release(&rs);
	cJSON_Delete(m);
}

static void test_malformed(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"{}", "{\"reproduces\": 1}", "{\"reproduces\": {\"set\": \"a\"}}",
		"{\"reproduces\": {\"set\": 1, \"manifest_sha256\": \"x\"}}",
	};
	struct rset rs;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cJSON *m = cJSON_Parse(bad[i]);
		reread(m, &rs);
		assert_false(rs.reproduces.present);
		rset_release(&rs);
		cJSON_Delete(m);
	}
	/* a tolerance out of range is ignored, not trusted */
	cJSON *m = cJSON_Parse("{\"reproduces\": {\"set\": \"a\", \"manifest_sha256\": \"b\", "
			       "\"tolerance_pct\": -3}}");
	reread(m, &rs);
	assert_true(rs.reproduces.present);
	assert_true(rs.reproduces.tolerance_pct == 0);
	rset_release(&rs);
	cJSON_Delete(m);
}

static void test_original_suite_checked(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_reprofile.XXXXXX", p[256], m[512], hex[65], err[512];
	const char *suite = "suite: x\n";
	struct repro_original o;

	assert_non_null(mkdtemp(dir));
	sha256_hex(suite, strlen(suite), hex);
	snprintf(p, sizeof(p), "%s/suite.yaml", dir);
	write_file(p, suite);
	snprintf(m, sizeof(m), "{\"scale\": 0.5, \"status\": \"complete\", \"suite\": {\"sha256\": \"%s\"}}", hex);
	snprintf(p, sizeof(p), "%s/manifest.json", dir);
	write_file(p, m);
	assert_int_equal(reprofile_original_open(&o, dir, err, sizeof(err)), 0);
	assert_true(o.manifest.scale == 0.5);
	assert_string_equal(o.manifest.source_kind, "iomatrix");   /* the default */
	assert_string_equal(o.manifest.status, "complete");
	assert_string_equal(o.manifest.suite_sha256, hex);
	sha256_hex(m, strlen(m), hex);
	assert_string_equal(o.manifest_sha256, hex);
	reprofile_original_release(&o);

	snprintf(p, sizeof(p), "%s/suite.yaml", dir);
	write_file(p, "suite: y\n");    /* changed after the run */
	assert_int_equal(reprofile_original_open(&o, dir, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the suite was changed after the run"));
	reprofile_original_release(&o);

	/* a scale that is no --scale is the full size, for every reader; a
	 * newer schema is refused before anything of it is used */
	snprintf(p, sizeof(p), "%s/suite.yaml", dir);
	write_file(p, suite);
	sha256_hex(suite, strlen(suite), hex);
	snprintf(m, sizeof(m), "{\"scale\": -2, \"suite\": {\"sha256\": \"%s\"}}", hex);
	snprintf(p, sizeof(p), "%s/manifest.json", dir);
	write_file(p, m);
	assert_int_equal(reprofile_original_open(&o, dir, err, sizeof(err)), 0);
	assert_true(o.manifest.scale == 1);
	assert_string_equal(o.manifest.status, "unknown");
	reprofile_original_release(&o);
	snprintf(m, sizeof(m), "{\"schema_version\": 9, \"suite\": {\"sha256\": \"%s\"}}", hex);
	write_file(p, m);
	assert_int_equal(reprofile_original_open(&o, dir, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "has schema_version 9, newer than this iomatrix reads"));
	reprofile_original_release(&o);

	unlink(p);
	snprintf(p, sizeof(p), "%s/suite.yaml", dir);
	unlink(p);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_original_suite_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
