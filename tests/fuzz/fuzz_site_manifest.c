/*
 * fuzz_site_manifest.c - libFuzzer target for the site's records read back
 * (report/archive/site_manifest.c): byte 0 chooses the reader (even: the
 * manifest .iomatrix-site.json, odd: a set page's lattime.json), the rest
 * is the file.  Besides "no crash, no UB, no leak", it aborts when a
 * believed record holds a name outside the site (a page or file name that
 * is not a plain relative name, a set not one folder name, a chart not one
 * file below charts/lattime-), a hash that is not 64 hex digits, a name
 * twice or out of order, or when what the writer prints does not read
 * back the same.
 * Also built into tests/unit/test_fuzz_regress.c to replay regress inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultset/site_manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fsm_die(const char *what, const char *name)
{
	fprintf(stderr, "site manifest: %s: '%s'\n", what, name);
	abort();
}

static void fsm_check_map(const struct site_manifest_map *m, bool one_name, bool empty_ok)
{
	for (size_t i = 0; i < m->n; i++) {
		const char *n = m->v[i].name, *h = m->v[i].hex;
		if (!site_manifest_rel_ok(n) || (one_name && strchr(n, '/')))
			fsm_die("a name outside the site believed", n);
		if (i && strcmp(m->v[i - 1].name, n) >= 0)
			fsm_die("names twice or out of order", n);
		if (!(empty_ok && !h[0]) && (strlen(h) != 64 || strspn(h, "0123456789abcdef") != 64))
			fsm_die("a hash that is not one", h);
	}
}

static void fsm_same_map(const struct site_manifest_map *a, const struct site_manifest_map *b)
{
	if (a->n != b->n)
		fsm_die("printed and read back: another count", "");
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, b->v[i].name) || strcmp(a->v[i].hex, b->v[i].hex))
			fsm_die("printed and read back: another entry", a->v[i].name);
}

static void fsm_manifest(const char *buf, size_t len)
{
	struct site_manifest m, back;
	char why[256];
	if (site_manifest_parse(&m, buf, len, why, sizeof(why)) < 0) {
		if (m.version || m.sets.n || m.pages.n || m.files.n)
			fsm_die("refused but not empty", why);
		return;
	}
	if (m.version != SITE_MANIFEST_VERSION)
		fsm_die("another version believed", "");
	fsm_check_map(&m.sets, true, true);
	fsm_check_map(&m.pages, false, false);
	fsm_check_map(&m.files, false, false);
	char *text = site_manifest_print(&m, "fuzz");
	if (text) {
		if (site_manifest_parse(&back, text, strlen(text), why, sizeof(why)) < 0)
			fsm_die("printed and not read back", why);
		fsm_same_map(&m.sets, &back.sets);
		fsm_same_map(&m.pages, &back.pages);
		fsm_same_map(&m.files, &back.files);
		site_manifest_release(&back);
	}
	free(text);
	site_manifest_release(&m);
}

static void fsm_lattime(const char *buf, size_t len)
{
	struct site_lattime l, back;
	char why[256];
	size_t np = strlen(SITE_LATTIME_PREFIX);
	if (site_lattime_parse(&l, buf, len, why, sizeof(why)) < 0) {
		if (l.n)
			fsm_die("refused but not empty", why);
		return;
	}
	for (size_t i = 0; i < l.n; i++)
		if (strncmp(l.v[i].chart, SITE_LATTIME_PREFIX, np) ||
		    !site_manifest_rel_ok(l.v[i].chart) || strchr(l.v[i].chart + np, '/'))
			fsm_die("a chart outside its folder believed", l.v[i].chart);
	char *text = site_lattime_print(&l);
	if (text) {
		if (site_lattime_parse(&back, text, strlen(text), why, sizeof(why)) < 0 ||
		    back.n != l.n)
			fsm_die("printed and not read back", why);
		for (size_t i = 0; i < l.n; i++)
			if (strcmp(l.v[i].device, back.v[i].device) ||
			    strcmp(l.v[i].label, back.v[i].label) || strcmp(l.v[i].chart, back.v[i].chart))
				fsm_die("printed and read back: another entry", l.v[i].chart);
		site_lattime_release(&back);
	}
	free(text);
	site_lattime_release(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	/* as fsutil_read_at gives it: a NUL after the bytes */
	char *buf = malloc(size);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = 0;
	if (data[0] & 1)
		fsm_lattime(buf, size - 1);
	else
		fsm_manifest(buf, size - 1);
	free(buf);
	return 0;
}
