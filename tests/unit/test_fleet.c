/*
 * test_fleet.c - the fleet protocol's pure parts: the bounded line reader,
 * message parsing of hostile input, the NTP-style clock estimate, the
 * barrier margin, and aggregate merging (histogram totals add up exactly,
 * the merged p99 lies between the hosts' p99s, IOPS add up over the
 * common window, repetitions survive the JSON round trip).
 */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/merge.h"
#include "fleet/proto.h"
#include "resultset/resultset.h"

static void test_lines_split_and_partial(void **state)
{
	struct linebuf lb;
	size_t len;
	char *l;

	(void)state;
	linebuf_init(&lb, 100);
	assert_int_equal(linebuf_feed(&lb, "{\"op\":\"a\"}\n{\"op\"", 16), 0);
	l = linebuf_next(&lb, &len);
	assert_non_null(l);
	assert_string_equal(l, "{\"op\":\"a\"}");
	assert_null(linebuf_next(&lb, &len)); /* the second is not complete */
	assert_int_equal(linebuf_pending(&lb), 5);
	assert_int_equal(linebuf_feed(&lb, ":\"b\"}\n\n", 7), 0);
	l = linebuf_next(&lb, &len);
	assert_string_equal(l, "{\"op\":\"b\"}");
	l = linebuf_next(&lb, &len);
	assert_non_null(l); /* an empty line is a line */
	assert_int_equal(len, 0);
	assert_null(linebuf_next(&lb, &len));
	linebuf_release(&lb);
}

static void test_lines_bounded(void **state)
{
	struct linebuf lb;
	char big[300];
	size_t len;

	(void)state;
	memset(big, 'x', sizeof(big));
	linebuf_init(&lb, 100);
	/* 100 bytes then a newline is fine, 101 without one is not */
	assert_int_equal(linebuf_feed(&lb, big, 100), 0);
	assert_int_equal(linebuf_feed(&lb, "\n", 1), 0);
	assert_non_null(linebuf_next(&lb, &len));
	assert_int_equal(len, 100);
	assert_int_equal(linebuf_feed(&lb, big, 60), 0);
	assert_int_equal(linebuf_feed(&lb, big, 41), -EMSGSIZE);
	linebuf_release(&lb);
	/* one feed holding a complete but oversized line: never handed out */
	linebuf_init(&lb, 100);
	big[200] = '\n';
	assert_int_equal(linebuf_feed(&lb, big, 201), 0);
	assert_null(linebuf_next(&lb, &len));
	linebuf_release(&lb);
}

static void test_parse_hostile(void **state)
{
	char why[128];
	const char *bad[] = {
		"not json", "[1,2]", "{\"op\":1}", "{\"x\":\"y\"}", "{\"op\":\"\"}",
		"{\"op\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}",
		"{\"op\":\"a\"", "\"op\"",
	};
	char deep[4096];
	size_t k = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_null(proto_parse(bad[i], strlen(bad[i]), why, sizeof(why)));
		assert_true(why[0] != '\0');
	}
	k += (size_t)sprintf(deep, "{\"op\":\"x\",\"a\":");
	for (int i = 0; i < 1000; i++)
		deep[k++] = '[';
	for (int i = 0; i < 1000; i++)
		deep[k++] = ']';
	deep[k++] = '}';
	assert_null(proto_parse(deep, k, why, sizeof(why)));

	const char *ok = "{\"op\":\"pong\",\"t0\":5,\"t1\":-3,\"s\":\"x\",\"huge\":1e300}";
	cJSON *m = proto_parse(ok, strlen(ok), why, sizeof(why));
	int64_t v;
	uint64_t u;
	assert_non_null(m);
	assert_string_equal(proto_op(m), "pong");
	assert_true(proto_get_i64(m, "t0", &v) && v == 5);
	assert_false(proto_get_u64(m, "t1", &u));
	assert_false(proto_get_i64(m, "huge", &v));
	assert_false(proto_get_i64(m, "s", &v));
	assert_null(proto_get_str(m, "t0"));
	cJSON_Delete(m);
}

static void test_sanitize(void **state)
{
	char out[16];

	(void)state;
	proto_sanitize("a\033[31mb\n\xff", 9, out, sizeof(out));
	assert_string_equal(out, "a?[31mb??");
	proto_sanitize("0123456789abcdefghij", 20, out, sizeof(out));
	assert_int_equal(strlen(out), 15);
	assert_string_equal(out + 12, "...");
}

/* An agent whose clock is 5 ms ahead; the way out takes 100 us + noise,
 * the way back 100 us + noise: the least-delay sample gives the offset
 * within half its delay. */
static void test_clock_min_rtt(void **state)
{
	struct clock_sample s[8];
	struct clock_est e;
	const int64_t off = 5000000;
	const int64_t out_d[8] = { 900000, 150000, 100000, 2000000, 120000, 400000, 130000, 110000 };
	const int64_t back_d[8] = { 100000, 600000, 100000, 100000, 3000000, 100000, 105000, 100000 };

	(void)state;
	for (int i = 0; i < 8; i++) {
		int64_t t0 = 1000000000ll * (i + 1);
		s[i].t0 = t0;
		s[i].t1 = t0 + out_d[i] + off;
		s[i].t2 = s[i].t1 + 20000; /* the agent's own turnaround */
		s[i].t3 = s[i].t2 - off + back_d[i];
	}
	assert_int_equal(clock_estimate(s, 8, &e), 0);
	assert_int_equal(e.n, 8);
	assert_int_equal(e.rtt_min_ns, 200000); /* sample 2: 100 + 100 us */
	assert_true(e.offset_ns == off);        /* symmetric: exact */
	assert_true(e.rtt_med_ns >= e.rtt_min_ns);
	assert_int_equal(e.error_ns, 100000);
	/* a lying agent (t2 before t1) is ignored; all lies: refused */
	s[2].t2 = s[2].t1 - 1;
	assert_int_equal(clock_estimate(s, 8, &e), 0);
	assert_int_equal(e.n, 7);
	assert_true(llabs(e.offset_ns - off) <= e.error_ns);
	for (int i = 0; i < 8; i++)
		s[i].t3 = s[i].t0 - 1;
	assert_int_equal(clock_estimate(s, 8, &e), -1);
}

static void test_barrier_margin(void **state)
{
	struct clock_est e[3] = { { .rtt_med_ns = 200000 }, { .rtt_med_ns = 30000000 },
				  { .rtt_med_ns = 1000 } };

	(void)state;
	assert_int_equal(barrier_margin_ns(e, 3, 20000000), 120000000 + 150000); /* 4 x 30 ms */
	assert_int_equal(barrier_margin_ns(e, 1, 20000000), 20000000 + 50000);   /* floor */
	assert_int_equal(barrier_margin_ns(e, 0, 5), 5);
}

/* A host's repetition: n latencies around center_ns, over runtime_ns. */
static void make_rep(struct rep_result *r, uint64_t n, uint64_t center_ns,
		     uint64_t runtime_ns, uint64_t seed)
{
	memset(r, 0, sizeof(*r));
	r->runtime_ns = runtime_ns;
	struct dir_result *d = &r->dir[DIR_READ];
	d->hist = calloc(1, sizeof(*d->hist));
	assert_non_null(d->hist);
	welford_init(&d->lat);
	series_init(&d->series, 1000000000);
	for (uint64_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t v = center_ns / 2 + (seed >> 33) % center_ns;
		if (i % 100 == 0)
			v *= 8; /* a tail */
		hist_add(d->hist, v);
		welford_add(&d->lat, (double)v);
		assert_int_equal(series_add(&d->series, i * runtime_ns / n, 4096, v), 0);
	}
	d->ios = n;
	d->bytes = n * 4096;
	d->present = true;
	d->known = REP_EXACT;
	d->iops = (double)n / ((double)runtime_ns / 1e9);
	d->bw_bytes_s = d->iops * 4096;
}

static void test_merge_exact(void **state)
{
	struct rep_result h[3], m;
	uint64_t total = 0;
	uint64_t p99[3], lo = UINT64_MAX, hi = 0;
	const uint64_t rt[3] = { 1000000000, 1002000000, 999000000 };
	double iops_sum = 0;

	(void)state;
	make_rep(&h[0], 50000, 20000, rt[0], 1);
	make_rep(&h[1], 70000, 90000, rt[1], 2);
	make_rep(&h[2], 30000, 400000, rt[2], 3);
	for (int i = 0; i < 3; i++) {
		total += h[i].dir[DIR_READ].hist->total;
		p99[i] = hist_percentile(h[i].dir[DIR_READ].hist, 99);
		lo = p99[i] < lo ? p99[i] : lo;
		hi = p99[i] > hi ? p99[i] : hi;
		iops_sum += (double)h[i].dir[DIR_READ].ios / ((double)rt[i] / 1e9);
	}
	int64_t starts[3] = { 0, 2000000, 1000000 }, skew;
	uint64_t w = fleet_common_window(starts, rt, 3, &skew);
	assert_int_equal(skew, 2000000);
	assert_int_equal(w, 998000000); /* latest start 2 ms, earliest end 1000 ms */
	assert_int_equal(fleet_rep_merge(h, 3, w, &m), 0);
	const struct dir_result *d = &m.dir[DIR_READ];
	assert_int_equal(d->hist->total, total);
	assert_int_equal(d->lat.n, total);
	uint64_t mp99 = hist_percentile(d->hist, 99);
	assert_true(mp99 >= lo && mp99 <= hi);
	assert_true(d->lat.min == h[0].dir[DIR_READ].lat.min);
	double iops = (double)d->ios / ((double)m.runtime_ns / 1e9);
	assert_true(iops > iops_sum * 0.99999 && iops < iops_sum * 1.00001);
	assert_true(d->iops > iops_sum * 0.9999999 && d->iops < iops_sum * 1.0000001);
	assert_true(d->present && (d->known & REP_EXACT));
	uint64_t sios = 0;
	for (size_t i = 0; i < d->series.n; i++)
		sios += d->series.ios[i];
	assert_int_equal(sios, total);
	for (int i = 0; i < 3; i++)
		rep_result_release(&h[i]);
	rep_result_release(&m);
}

/* Two hosts each claiming 1e19 IOs in one bucket: the merged count would
 * be 2e19 mod 2^64; the merge refuses instead of wrapping. */
static void test_merge_refuses_overflow(void **state)
{
	struct rep_result h[2], m;
	unsigned idx = hist_index(100000);

	(void)state;
	make_rep(&h[0], 1000, 20000, 1000000000, 1);
	make_rep(&h[1], 1000, 20000, 1000000000, 2);
	for (int i = 0; i < 2; i++) {
		struct lat_hist *hh = h[i].dir[DIR_READ].hist;
		hh->total += 10000000000000000000ull - hh->count[idx];
		hh->count[idx] = 10000000000000000000ull;
	}
	assert_int_equal(fleet_rep_merge(h, 2, 1000000000, &m), -EOVERFLOW);
	rep_result_release(&m);
	/* the sample counts alone overflowing is refused too */
	for (int i = 0; i < 2; i++) {
		rep_result_release(&h[i]);
		make_rep(&h[i], 1000, 20000, 1000000000, (unsigned)i + 1);
		h[i].dir[DIR_READ].lat.n = UINT64_MAX - 5;
	}
	assert_int_equal(fleet_rep_merge(h, 2, 1000000000, &m), -EOVERFLOW);
	rep_result_release(&m);
	for (int i = 0; i < 2; i++)
		rep_result_release(&h[i]);
}

static void test_rep_json_round_trip(void **state)
{
	struct rep_result r, back;
	char why[128];

	(void)state;
	make_rep(&r, 10000, 50000, 1000000000, 7);
	cJSON *j = resultset_rep_to_json(&r, 1);
	assert_non_null(j);
	assert_int_equal(fleet_rep_from_json(j, &back, why, sizeof(why)), 0);
	const struct dir_result *a = &r.dir[DIR_READ], *b = &back.dir[DIR_READ];
	assert_int_equal(b->ios, a->ios);
	assert_int_equal(b->bytes, a->bytes);
	assert_int_equal(b->hist->total, a->hist->total);
	assert_memory_equal(b->hist->count, a->hist->count, sizeof(a->hist->count));
	assert_int_equal(b->lat.min, a->lat.min);
	assert_int_equal(b->lat.max, a->lat.max);
	assert_true(b->lat.mean > a->lat.mean * 0.999999 && b->lat.mean < a->lat.mean * 1.000001);
	assert_null(back.dir[DIR_WRITE].hist);
	assert_false(back.dir[DIR_WRITE].present);
	assert_true(b->present && b->iops > 0);
	rep_result_release(&back);
	/* a hostile repetition: a bucket that is not a boundary */
	cJSON *hist = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "read"), "hist");
	cJSON *b0 = cJSON_GetArrayItem(cJSON_GetObjectItem(hist, "buckets"), 0);
	cJSON_ReplaceItemInArray(b0, 0, cJSON_CreateNumber(12345677));
	assert_int_equal(fleet_rep_from_json(j, &back, why, sizeof(why)), -1);
	rep_result_release(&back);
	cJSON_Delete(j);
	rep_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_split_and_partial),
		cmocka_unit_test(test_lines_bounded),
		cmocka_unit_test(test_parse_hostile),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_clock_min_rtt),
		cmocka_unit_test(test_barrier_margin),
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_merge_refuses_overflow),
		cmocka_unit_test(test_rep_json_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
