/*
 * test_site_manifest.c - the site's records (report/archive/site_manifest.c)
 * are believed whole or not at all: a good manifest reads into sorted
 * maps and prints back the same; each malformed field, a missing, older,
 * newer or huge version, a hostile name (climbing out, absolute, control
 * characters, too long, listed twice) and a huge number make the whole
 * file no record, with a why; lattime.json likewise for its charts.
 */
#include "testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultset/site_manifest.h"

#define H64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define G64 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

static int parse(struct site_manifest *m, const char *text, char *why, size_t n)
{
	why[0] = 0;
	return site_manifest_parse(m, text, strlen(text), why, n);
}

/* A manifest of version 1 whose "files" map is body. */
static int parse_files(const char *body, char *why, size_t n)
{
	struct site_manifest m;
	char text[8192];
	snprintf(text, sizeof(text), "{\"version\": 1, \"sets\": {}, \"pages\": {}, \"files\": %s}",
		 body);
	int r = parse(&m, text, why, n);
	if (r < 0) {   /* not believed: nothing kept */
		assert_int_equal(m.version, 0);
		assert_int_equal(m.files.n, 0);
		assert_null(m.files.v);
	}
	site_manifest_release(&m);
	return r;
}

static void test_good_round_trip(void **state)
{
	(void)state;
	struct site_manifest m, again;
	char why[256];
	static const char text[] =
		"{\"version\": 1, \"generator\": \"iomatrix 1.0\","
		" \"sets\": {\"2026-01-02_b\": \"" H64 "\", \"2026-01-01_a\": \"\"},"
		" \"pages\": {\"index.html\": \"" H64 "\", \"sets/s1/report.html\": \"" G64 "\"},"
		" \"files\": {\"suites/x.html\": \"" G64 "\", \"devices/d/w1.svg\": \"" H64 "\"}}";
	assert_int_equal(parse(&m, text, why, sizeof(why)), 0);
	assert_int_equal(m.version, 1);
	assert_int_equal(m.sets.n, 2);
	assert_string_equal(m.sets.v[0].name, "2026-01-01_a");   /* sorted */
	assert_string_equal(site_manifest_get(&m.sets, "2026-01-01_a"), "");
	assert_string_equal(site_manifest_get(&m.sets, "2026-01-02_b"), H64);
	assert_null(site_manifest_get(&m.sets, "2026-01-03_c"));
	assert_string_equal(site_manifest_get(&m.pages, "sets/s1/report.html"), G64);
	assert_string_equal(site_manifest_get(&m.files, "devices/d/w1.svg"), H64);
	assert_null(site_manifest_get(&m.files, "devices/d"));

	char *out = site_manifest_print(&m, "iomatrix 2.0");
	assert_non_null(out);
	assert_non_null(strstr(out, "\"version\":\t1"));
	assert_int_equal(parse(&again, out, why, sizeof(why)), 0);
	assert_int_equal(again.files.n, 2);
	assert_int_equal(again.pages.n, 2);
	for (size_t i = 0; i < m.files.n; i++) {
		assert_string_equal(again.files.v[i].name, m.files.v[i].name);
		assert_string_equal(again.files.v[i].hex, m.files.v[i].hex);
	}
	free(out);
	site_manifest_release(&again);
	site_manifest_release(&m);
	assert_int_equal(m.files.n, 0);
}

static void test_added_sorted_last_wins(void **state)
{
	(void)state;
	struct site_manifest_map m = { 0 };
	assert_int_equal(site_manifest_add(&m, "b", H64), 0);
	assert_int_equal(site_manifest_add(&m, "a", H64), 0);
	assert_int_equal(site_manifest_add(&m, "b", G64), 0);
	site_manifest_sort(&m);
	assert_int_equal(m.n, 2);
	assert_string_equal(site_manifest_get(&m, "b"), G64);
	assert_string_equal(site_manifest_get(&m, "a"), H64);
	site_manifest_map_release(&m);
}

static void test_version(void **state)
{
	(void)state;
	struct site_manifest m;
	char why[256];
	static const struct {
		const char *v, *why;
	} bad[] = {
		{ NULL, "no version" },      /* an older build's manifest */
		{ "2", "newer version 2" },
		{ "999999", "newer version" },
		{ "0", "not a whole number" },
		{ "-1", "not a whole number" },
		{ "1.5", "not a whole number" },
		{ "1e300", "not a whole number" },
		{ "-1e999", "not a whole number" },
		{ "1e999", "not a whole number" },
		{ "\"1\"", "not a whole number" },
		{ "true", "not a whole number" },
		{ "null", "not a whole number" },
		{ "[1]", "not a whole number" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[512];
		if (bad[i].v)
			snprintf(text, sizeof(text), "{\"version\": %s, \"sets\": {}, \"pages\": {}, "
				 "\"files\": {}}", bad[i].v);
		else
			snprintf(text, sizeof(text), "{\"sets\": {}, \"pages\": {}, \"files\": {\"a\": \""
				 H64 "\"}}");
		assert_int_equal(parse(&m, text, why, sizeof(why)), -1);
		assert_int_equal(m.version, 0);
		if (!strstr(why, bad[i].why))
			fail_msg("version %s: why '%s' lacks '%s'", bad[i].v ? bad[i].v : "(none)", why,
				 bad[i].why);
	}
	assert_int_equal(parse(&m, "{\"version\": 1.0, \"sets\": {}, \"pages\": {}, \"files\": {}}",
			       why, sizeof(why)), 0);
	site_manifest_release(&m);
}

static void test_malformed_fields(void **state)
{
	(void)state;
	struct site_manifest m;
	char why[256];
	static const char *const bad[] = {
		"",
		"[]",
		"\"manifest\"",
		"{\"version\": 1, \"sets\": {}, \"pages\": {}, \"files\": {}",      /* cut */
		"{\"version\": 1, \"pages\": {}, \"files\": {}}",                  /* no sets */
		"{\"version\": 1, \"sets\": {}, \"files\": {}}",                   /* no pages */
		"{\"version\": 1, \"sets\": {}, \"pages\": {}}",                   /* no files */
		"{\"version\": 1, \"sets\": [], \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {}, \"pages\": \"x\", \"files\": {}}",
		"{\"version\": 1, \"sets\": {}, \"pages\": {}, \"files\": null}",
		"{\"version\": 1, \"generator\": 7, \"sets\": {}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"extra\": {}, \"sets\": {}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"version\": 1, \"sets\": {}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {\"a\": \"xyz\"}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {\"a\": 7}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {\"\": \"" H64 "\"}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {\"a\\u001b[2J\": \"" H64 "\"}, \"pages\": {}, \"files\": {}}",
		/* a set is named by its folder in the site, never by a path */
		"{\"version\": 1, \"sets\": {\"/arc/a\": \"" H64 "\"}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {\"arc/a\": \"" H64 "\"}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {\"..\": \"" H64 "\"}, \"pages\": {}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {}, \"pages\": {\"index.html\": \"\"}, \"files\": {}}",
		"{\"version\": 1, \"sets\": {}, \"pages\": {\"../index.html\": \"" H64 "\"}, \"files\": {}}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(&m, bad[i], why, sizeof(why)) != -1)
			fail_msg("believed: %s", bad[i]);
		assert_int_equal(m.version, 0);
		assert_int_equal(m.sets.n + m.pages.n + m.files.n, 0);
		assert_true(why[0] != 0);
	}
	/* the files map's values */
	static const char *const hashes[] = {
		"\"\"", "\"0\"", "\"" H64 "0\"", "\"ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789\"",
		"\"" "g123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" "\"",
		"1e300", "-1e999", "123", "null", "true", "{}", "[\"" H64 "\"]",
	};
	for (size_t i = 0; i < sizeof(hashes) / sizeof(hashes[0]); i++) {
		char body[256];
		snprintf(body, sizeof(body), "{\"index.html\": %s}", hashes[i]);
		if (parse_files(body, why, sizeof(why)) != -1)
			fail_msg("believed hash %s", hashes[i]);
		assert_non_null(strstr(why, "sha256"));
	}
}

static void test_hostile_names(void **state)
{
	(void)state;
	char why[256], body[8192];
	static const char *const bad[] = {
		"../x", "/etc/passwd", "sets/../../x", "a/..", ".", "..", "./a", "a/./b", "a//b",
		"a/", "", "a\\u0001b", "a\\u001b]2;x\\u0007", "tab\\there", "new\\nline", "del\\u007f",
		"sets/s1/..",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(body, sizeof(body), "{\"index.html\": \"" H64 "\", \"%s\": \"" H64 "\"}",
			 bad[i]);
		if (parse_files(body, why, sizeof(why)) != -1)
			fail_msg("believed name %s", bad[i]);
		assert_non_null(strstr(why, "not a name inside the site"));
	}
	/* a component longer than NAME_MAX, a name as long as PATH_MAX */
	char *longc = malloc(NAME_MAX + 2), *longp = malloc(PATH_MAX + 1);
	assert_non_null(longc);
	assert_non_null(longp);
	memset(longc, 'a', NAME_MAX + 1);
	longc[NAME_MAX + 1] = 0;
	for (size_t i = 0; i < PATH_MAX; i++)
		longp[i] = i % 100 == 99 ? '/' : 'b';
	longp[PATH_MAX] = 0;
	assert_false(site_manifest_rel_ok(longc));
	assert_false(site_manifest_rel_ok(longp));
	longc[NAME_MAX] = 0;
	assert_true(site_manifest_rel_ok(longc));     /* NAME_MAX itself is a name */
	char *text = malloc(2 * PATH_MAX + 512);
	assert_non_null(text);
	snprintf(text, 2 * PATH_MAX + 512, "{\"%s\": \"" H64 "\"}", longp);
	assert_int_equal(parse_files(text, why, sizeof(why)), -1);
	longc[NAME_MAX] = 'a';
	snprintf(text, 2 * PATH_MAX + 512, "{\"d/%s\": \"" H64 "\"}", longc);
	assert_int_equal(parse_files(text, why, sizeof(why)), -1);
	free(text);
	free(longc);
	free(longp);

	/* a name listed twice: which hash? neither */
	assert_int_equal(parse_files("{\"a.html\": \"" H64 "\", \"a.html\": \"" H64 "\"}", why,
				     sizeof(why)), -1);
	assert_non_null(strstr(why, "twice"));
	/* plain names are names */
	assert_int_equal(parse_files("{\"sets/s-1/report.html\": \"" H64 "\", \"..a/b..\": \"" H64
				     "\", \"devices/x y.html\": \"" H64 "\"}", why, sizeof(why)), 0);
}

static int lparse(struct site_lattime *l, const char *text, char *why, size_t n)
{
	int r = site_lattime_parse(l, text, strlen(text), why, n);
	if (r < 0)
		assert_int_equal(l->n, 0);
	return r;
}

static void test_lattime(void **state)
{
	(void)state;
	struct site_lattime l = { 0 }, back;
	char why[256];
	assert_int_equal(site_lattime_add(&l, "ssd", "randread 4k", "charts/lattime-1-percentiles.svg"),
			 0);
	assert_int_equal(site_lattime_add(&l, "hdd\x1b", "w", "charts/lattime-2.svg"), 0);
	char *text = site_lattime_print(&l);
	assert_non_null(text);
	assert_int_equal(lparse(&back, text, why, sizeof(why)), 0);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.v[0].label, "randread 4k");
	assert_string_equal(back.v[1].device, "hdd\x1b");
	assert_string_equal(back.v[1].chart, "charts/lattime-2.svg");
	free(text);
	site_lattime_release(&back);
	site_lattime_release(&l);

	static const char *const bad[] = {
		"", "{}", "[1]", "[[]]",
		"[{\"device\": \"d\", \"label\": \"l\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": 7}]",
		"[{\"device\": 1, \"label\": \"l\", \"chart\": \"charts/lattime-1.svg\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"charts/lattime-1.svg\", \"x\": 1}]",
		"[{\"device\": \"d\", \"device\": \"d\", \"chart\": \"charts/lattime-1.svg\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"../../../etc/passwd\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"/etc/passwd\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"charts/lattime-../../x.svg\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"charts/lattime-a/b.svg\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"charts/x.svg\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"charts/lattime-\\u001b.svg\"}]",
		"[{\"device\": \"d\", \"label\": \"l\", \"chart\": \"charts/lattime-1.svg\"}, 5]",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (lparse(&l, bad[i], why, sizeof(why)) != -1)
			fail_msg("believed lattime %s", bad[i]);
	assert_int_equal(lparse(&l, "[]", why, sizeof(why)), 0);
	assert_int_equal(l.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_round_trip),
		cmocka_unit_test(test_added_sorted_last_wins),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_malformed_fields),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_lattime),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
