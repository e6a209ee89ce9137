/*
 * test_history_json.c - `history --format json` is written as it is made
 * (report/archive/history_json.c) and must give, byte for byte, what
 * cJSON_PrintUnformatted gives for the same tree: numbers of every kind
 * (integral, beyond int, tiny, needing 17 digits, negative zero, NaN and
 * infinities as null), strings with every control character, quotes,
 * backslashes and UTF-8, empty series and lists; and 30,000 points in
 * series of many sizes (the writer makes its second half on a thread).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/archive/history.h"

/* The tree history's JSON had before it was streamed: the reference. */
static char *history_json_cjson(const struct history *h)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(root, "series");
	for (size_t i = 0; i < h->nseries; i++) {
		const struct hist_series *s = &h->series[i];
		const struct hist_ident *id = &h->idents[s->ident];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "host", id->host);
		cJSON_AddStringToObject(o, "device", id->device);
		cJSON_AddStringToObject(o, "workload", s->workload);
		cJSON_AddStringToObject(o, "metric", arc_metric_names[s->metric]);
		cJSON *pts = cJSON_AddArrayToObject(o, "points");
		for (size_t k = 0; k < s->n; k++) {
			const struct hist_point *p = &s->pts[k];
			cJSON *q = cJSON_CreateObject();
			cJSON_AddStringToObject(q, "set", h->sets[p->set].name);
			cJSON_AddStringToObject(q, "date", h->sets[p->set].date);
			cJSON_AddNumberToObject(q, "value", p->v.mean);
			cJSON_AddNumberToObject(q, "ci95", p->v.ci95);
			cJSON_AddNumberToObject(q, "n", p->v.n);
			cJSON_AddBoolToObject(q, "change", p->cp.kind != CP_NONE);
			cJSON *ec = cJSON_AddArrayToObject(q, "env_changes");
			for (size_t x = 0; x < p->nenv_changes; x++)
				cJSON_AddItemToArray(ec, cJSON_CreateString(p->env_changes[x]));
			cJSON_AddItemToArray(pts, q);
		}
		cJSON_AddItemToArray(arr, o);
	}
	cJSON *fv = cJSON_AddArrayToObject(root, "failed_verification");
	for (size_t i = 0; i < h->nfailed; i++) {
		cJSON *f = cJSON_CreateObject();
		cJSON_AddStringToObject(f, "set", h->failed[i].set);
		cJSON_AddStringToObject(f, "path", h->failed[i].path);
		cJSON_AddStringToObject(f, "problems", h->failed[i].problems);
		cJSON_AddItemToArray(fv, f);
	}
	char *s = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return s;
}

static char *history_json_streamed(const struct history *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(history_write_json(h, f), 0);
	fclose(f);
	assert_true(len > 0 && buf[len - 1] == '\n');
	buf[len - 1] = 0;   /* cJSON prints no newline */
	return buf;
}

static void same_bytes(const struct history *h)
{
	char *want = history_json_cjson(h), *got = history_json_streamed(h);
	assert_non_null(want);
	size_t i = 0;
	while (got[i] && got[i] == want[i])
		i++;
	if (got[i] != want[i])
		fprintf(stderr, "differ at %zu:\n got  %.60s\n want %.60s\n", i,
			got + (i > 20 ? i - 20 : 0), want + (i > 20 ? i - 20 : 0));
	assert_string_equal(got, want);
	free(want);
	free(got);
}

static const double values[] = {
	0, -0.0, 1, -1, 3, 123456789, 2147483647.0, 2147483648.0, -2147483648.0,
	-2147483649.0, 1e15, 1e300, -1e300, 0.1, 1.0 / 3, 2.0 / 3, 1e-300, 4.9e-324,
	123.456, 99999.99999, 0.30000000000000004, 1234567.8901234567, NAN, INFINITY,
	-INFINITY, 12.5, 5e-7, 999999999999999.0, -123, 1e14, 4503599627370497.0,
	/* 17 digits that are an exact tie: %.16e rounds half to even */
	1000000000000000.25, -1000000000000000.75, 4503599627370495.5,
};

static void test_numbers_and_strings(void **state)
{
	(void)state;
	enum { NV = sizeof(values) / sizeof(values[0]) };
	char ctl[40];
	for (int i = 0; i < 32; i++)
		ctl[i] = (char)(i + 1 < 32 ? i + 1 : 0x7f);
	ctl[32] = 0;
	char *env[3] = { ctl, "kernel 6.1 \xe2\x86\x92 6.6", "\"q\" back\\slash </script>" };
	struct hist_set sets[2] = { { "2026-01-01T000000Z_a\tb", "2026-01-01T00:00:00Z", "s", 1 },
				    { ctl, "date \"x\"", "s", 1 } };
	struct hist_ident ids[2] = { { .host = "h\x1b[2J", .device = "d\\e\"v" },
				     { .host = "web1", .device = "ssd" } };
	struct hist_point pts[NV];
	for (int i = 0; i < NV; i++)
		pts[i] = (struct hist_point){ .set = (size_t)i % 2,
					      .v = { values[i], 0, values[NV - 1 - i], i * 7 },
					      .cp = { i % 3 ? CP_NONE : CP_STEP, 0 },
					      .env_changes = env, .nenv_changes = (size_t)i % 4 };
	struct hist_series series[3] = {
		{ .ident = 0, .metric = 0, .workload = "RND4K Q1T1 randread \x01", .pts = pts, .n = NV },
		{ .ident = 1, .metric = 3, .workload = "empty", .pts = NULL, .n = 0 },
		{ .ident = 1, .metric = 1, .workload = "one", .pts = pts + 5, .n = 1 },
	};
	struct hist_failed failed[2] = { { "set\n1", "/a/b", "changed cells/0001.json" },
					 { "s2", "p\x7f", "x" } };
	struct history h = { .sets = sets, .nsets = 2, .idents = ids, .nidents = 2,
			     .series = series, .nseries = 3, .failed = failed, .nfailed = 2 };
	same_bytes(&h);
	failed[0].set = NULL;   /* cJSON adds no item for a NULL string */
	ids[0].host = NULL;
	sets[1].name = NULL;
	same_bytes(&h);
	h.nfailed = 0;
	same_bytes(&h);
	h.nseries = 0;
	same_bytes(&h);
}

/* Next of a fixed xorshift sequence: the same numbers every run. */
static unsigned long long next_bits(unsigned long long *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* 30,000 numbers of the kinds that decide history_json's digits: any
 * bit pattern, measurements of every magnitude, 16 digits ending in 5
 * (the 15 digits a tie, or next to one), nines below a power of ten and
 * the doubles just below one (the rounding carries into a new digit). */
static void test_numbers_many(void **state)
{
	(void)state;
	enum { N = 30000 };
	static struct hist_point pts[N];
	unsigned long long x = 88172645463325252ull;
	char t[64];
	for (int i = 0; i < N; i++) {
		double v;
		unsigned long long r = next_bits(&x);
		switch (i % 4) {
		case 0:
			memcpy(&v, &r, sizeof(v));
			if (!isfinite(v))
				v = (double)r;
			break;
		case 1:
			v = (double)(r >> 11) / 9007199254740992.0 * pow(10, (int)(r % 31) - 10);
			break;
		case 2:
			snprintf(t, sizeof(t), "%015llu5e%d", r % 1000000000000000ull,
				 (int)(next_bits(&x) % 60) - 30);
			v = strtod(t, NULL) * (r & 1 ? -1 : 1);
			break;
		default:
			snprintf(t, sizeof(t), "%.*s%de%d", (int)(r % 17) + 1, "99999999999999999",
				 (int)(r % 10), (int)(next_bits(&x) % 40) - 20);
			v = strtod(t, NULL);
			if (r & 2)   /* 1e5 less 1, 2 or 3 units in the last place */
				for (int k = 0, n = (int)(r >> 2) % 3 + 1; k < n; k++)
					v = nextafter(k ? v : pow(10, (int)(r >> 4) % 40 - 20), 0);
			break;
		}
		pts[i] = (struct hist_point){ .set = (size_t)i % 3, .v = { v, 0, -v / 3, 1 } };
	}
	struct hist_set sets[3] = { { "s", "2026-01-01T00:00:00Z", "s", 1 },
				    { "t\"q", "2026-01-02T00:00:00Z", "s", 1 },
				    { NULL, "2026-01-03T00:00:00Z", "s", 1 } };
	struct hist_ident ids[1] = { { .host = "h", .device = "d" } };
	/* series of many sizes: the writer's two halves (by points) meet
	 * inside them */
	static const size_t sizes[] = { 1, 9000, 0, 5000, 7999, 8000 };
	enum { NS = sizeof(sizes) / sizeof(sizes[0]) + 1 };
	struct hist_series series[NS];
	size_t at = 0;
	for (size_t i = 0; i < NS; i++) {
		size_t n = i < NS - 1 ? sizes[i] : N - at;
		series[i] = (struct hist_series){ .ident = 0, .workload = "w", .pts = pts + at, .n = n };
		at += n;
	}
	struct history h = { .sets = sets, .nsets = 3, .idents = ids, .nidents = 1,
			     .series = series, .nseries = NS };
	same_bytes(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_and_strings),
		cmocka_unit_test(test_numbers_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
