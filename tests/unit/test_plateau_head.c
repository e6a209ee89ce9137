/*
 * test_plateau_head.c - the fine samples of a write's start (20 ms over
 * the first 2 s, stats/stats.h) and plateau_fit_head (stats/plateau.h):
 * a 0.3 s cache in 1 s intervals, or 0.16 s in 100 ms, that the coarse
 * fit cannot see is found in the fine samples with its level and length
 * (noise CV 5 %); stationary noise (CV 30 %) claims no head cliff; a cache
 * the coarse fit sees is not counted twice; the fine samples leave the
 * coarse series and the totals as they were; and the cliff object a cell
 * file stores names the head.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>

#include "stats/plateau.h"
#include "stats/prng.h"
#include "stats/stats.h"
#include "resultset/resultset.h"

#define TRIALS 2000

static double gauss(struct prng *p)
{
	double u1 = ((double)(prng_next(p) >> 11) + 1) / 9007199254740992.0;
	double u2 = (double)(prng_next(p) >> 11) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/*
 * A write at `hi` B/s for cache_s seconds, then `lo`, for run_s seconds:
 * the mean bandwidth of each interval of iv_s (the interval holding the
 * change mixes both), times (1 + cv * noise).
 */
static size_t synth(struct prng *p, double hi, double lo, double cache_s, double run_s,
		    double iv_s, double cv, double *x, size_t max)
{
	size_t n = (size_t)(run_s / iv_s + 0.5);
	for (size_t i = 0; i < n && i < max; i++) {
		double a = (double)i * iv_s, b = a + iv_s;
		double fast = cache_s <= a ? 0 : cache_s >= b ? iv_s : cache_s - a;
		double v = (hi * fast + lo * (iv_s - fast)) / iv_s;
		v *= 1 + cv * gauss(p);
		x[i] = v > 0 ? v : 0;
	}
	return n < max ? n : max;
}

/* A cache of cache_s at 1,000 MB/s, then 300 MB/s for run_s, coarse
 * intervals of iv_s: the coarse fit alone (the old behaviour) finds no
 * cliff from 1,000 MB/s; with the fine samples it is found in >= 95 % of
 * the trials, the head's level within 5 %, its length within one fine
 * interval, the sustained level within 5 %. */
static void short_cache(double cache_s, double run_s, double iv_s, uint64_t seed)
{
	struct prng p;
	double x[600], f[100];
	size_t found = 0, coarse_found = 0, good = 0;
	prng_seed(&p, seed);
	for (int t = 0; t < TRIALS; t++) {
		size_t n = synth(&p, 1000e6, 300e6, cache_s, run_s, iv_s, 0.05, x, 600);
		size_t nf = synth(&p, 1000e6, 300e6, cache_s, 2, 0.02, 0.05, f, 100);
		struct plateaus c, pl;
		assert_int_equal(plateau_fit(x, n, iv_s, false, &c), 0);
		coarse_found += c.cliff && c.p[0].level > 900e6;
		assert_int_equal(plateau_fit_head(x, n, iv_s, f, nf, 0.02, false, &pl), 0);
		if (!pl.cliff)
			continue;
		found++;
		good += pl.head && fabs(pl.p[0].level / 1000e6 - 1) < 0.05 &&
			fabs(pl.p[0].dur_s - cache_s) <= 0.0201 &&
			fabs(pl.p[pl.n - 1].level / 300e6 - 1) < 0.05 &&
			fabs(pl.drop - 0.7) < 0.05 && pl.p[0].start_s == 0 &&
			fabs(pl.p[1].start_s - pl.p[0].dur_s) < 1e-9;
	}
	print_message("%.2f s cache, %g s intervals: coarse fit %zu/%d, with fine samples "
		      "%zu/%d, level and length right %zu\n", cache_s, iv_s, coarse_found,
		      TRIALS, found, TRIALS, good);
	assert_true(coarse_found < TRIALS / 100);
	assert_true(found >= TRIALS * 95 / 100);
	assert_true(good >= found * 95 / 100);
}

/* A 0.3 s SLC-style cache in a 60 s write sampled every 1 s. */
static void test_cache_0_3s_in_1s_intervals(void **state)
{
	(void)state;
	short_cache(0.3, 60, 1.0, 21);
}

/* A 0.16 s cache in a 6 s write sampled every 100 ms (under 2 intervals). */
static void test_cache_0_16s_in_100ms_intervals(void **state)
{
	(void)state;
	short_cache(0.16, 6, 0.1, 24);
}

/* Stationary noise, CV 30 % in both (the fine samples are noisier in a
 * real run: fewer IOs each; here as noisy as the coarse): at most 1 %
 * false cliffs. */
static void test_stationary_no_head_cliff(void **state)
{
	(void)state;
	struct prng p;
	double x[60], f[100];
	size_t found = 0;
	prng_seed(&p, 22);
	for (int t = 0; t < TRIALS; t++) {
		size_t n = synth(&p, 500e6, 500e6, 0, 6, 0.1, 0.30, x, 60);
		size_t nf = synth(&p, 500e6, 500e6, 0, 2, 0.02, 0.30, f, 100);
		struct plateaus pl;
		assert_int_equal(plateau_fit_head(x, n, 0.1, f, nf, 0.02, false, &pl), 0);
		found += pl.cliff;
	}
	print_message("stationary CV 30 %%: %zu false cliffs in %d\n", found, TRIALS);
	assert_true(found <= TRIALS / 100);
}

/* Correlated noise (AR(1), phi 0.8, CV 30 % coarse, 50 % fine: a slow
 * wander, the hardest case): at most 1 % false cliffs. */
static void test_correlated_no_head_cliff(void **state)
{
	(void)state;
	struct prng p;
	double x[60], f[100];
	size_t found = 0;
	prng_seed(&p, 25);
	for (int t = 0; t < TRIALS; t++) {
		for (int k = 0; k < 2; k++) {
			double *v = k ? f : x, cv = k ? 0.5 : 0.3, e = gauss(&p);
			for (size_t i = 0; i < (k ? 100u : 60u); i++) {
				if (i)
					e = 0.8 * e + 0.6 * gauss(&p);
				v[i] = 500e6 * (1 + cv * e) > 0 ? 500e6 * (1 + cv * e) : 0;
			}
		}
		struct plateaus pl;
		assert_int_equal(plateau_fit_head(x, 60, 0.1, f, 100, 0.02, false, &pl), 0);
		found += pl.cliff;
	}
	print_message("AR(1) phi 0.8: %zu false cliffs in %d\n", found, TRIALS);
	assert_true(found <= TRIALS / 100);
}

/* A 1.5 s cache: the coarse fit sees it; the fine samples add nothing. */
static void test_long_cache_not_doubled(void **state)
{
	(void)state;
	struct prng p;
	double x[60], f[100];
	prng_seed(&p, 23);
	size_t n = synth(&p, 1000e6, 300e6, 1.5, 6, 0.1, 0.02, x, 60);
	size_t nf = synth(&p, 1000e6, 300e6, 1.5, 2, 0.02, 0.02, f, 100);
	struct plateaus pl;
	assert_int_equal(plateau_fit_head(x, n, 0.1, f, nf, 0.02, false, &pl), 0);
	assert_false(pl.head);
	assert_true(pl.cliff);
	assert_int_equal(pl.n, 2);
	/* RAM and no fine samples: the coarse verdict */
	n = synth(&p, 1000e6, 300e6, 0.25, 6, 0.1, 0.02, x, 60);
	nf = synth(&p, 1000e6, 300e6, 0.25, 2, 0.02, 0.02, f, 100);
	assert_int_equal(plateau_fit_head(x, n, 0.1, f, nf, 0.02, true, &pl), 0);
	assert_false(pl.cliff || pl.head);
	assert_int_equal(plateau_fit_head(x, n, 0.1, NULL, 0, 0.02, false, &pl), 0);
	assert_false(pl.head);
}

/* Bandwidth of [a, b) seconds under levels lv[k] from t[k] on (t[0] 0). */
static double piecewise(const double *t, const double *lv, size_t n, double a, double b)
{
	double bytes = 0;
	for (size_t k = 0; k < n; k++) {
		double lo = t[k] > a ? t[k] : a, hi = k + 1 < n && t[k + 1] < b ? t[k + 1] : b;
		if (hi > lo)
			bytes += lv[k] * (hi - lo);
	}
	return bytes / (b - a);
}

/*
 * A throttle's start: blk-throttle let 60 ms through at 125 MiB/s before
 * its 40 MiB/s held (a CI run's first 100 ms read 78 MiB/s), then the limit
 * fell to 16 MiB/s at 1 s.  The burst is shorter than PLATEAU_HEAD_MIN_S:
 * no head plateau; the cliff is the one at 1 s from 40 MiB/s.  (Before the
 * minimum, the fine fit's 60 ms at 125 MiB/s became the head and the cliff
 * was put at 0.06 s.)  A 0.16 s cache stays a head (above).
 */
static void test_throttle_burst_is_no_head(void **state)
{
	(void)state;
	static const double t[] = { 0, 0.06, 1.0 }, lv[] = { 125 * 1048576.0, 40 * 1048576.0,
							     16 * 1048576.0 };
	double x[40], f[100];
	struct prng p;
	prng_seed(&p, 31);
	size_t heads = 0, good = 0;
	for (int r = 0; r < 200; r++) {
		for (size_t i = 0; i < 40; i++)
			x[i] = piecewise(t, lv, 3, (double)i * 0.1, (double)(i + 1) * 0.1) *
			       (1 + 0.03 * gauss(&p));
		for (size_t i = 0; i < 100; i++)
			f[i] = piecewise(t, lv, 3, (double)i * 0.02, (double)(i + 1) * 0.02) *
			       (1 + 0.05 * gauss(&p));
		struct plateaus pl;
		assert_int_equal(plateau_fit_head(x, 40, 0.1, f, 100, 0.02, false, &pl), 0);
		heads += pl.head;
		good += pl.cliff && !pl.head && pl.p[pl.cliff_at].first >= 9 &&
			pl.p[pl.cliff_at].first <= 11 &&
			fabs(pl.p[pl.ref].level / lv[1] - 1) < 0.05 &&
			fabs(pl.p[pl.low].level / lv[2] - 1) < 0.05;
	}
	print_message("throttle burst: %zu heads, %zu cliffs at 1 s from 40 MiB/s, of 200\n",
		      heads, good);
	assert_int_equal(heads, 0);
	assert_true(good >= 195);
}

/* The fine samples are counted beside the coarse ones: the coarse series,
 * its totals and a merge of two jobs are as without them. */
static void test_fine_samples_keep_totals(void **state)
{
	(void)state;
	struct series a, b, plain;
	series_init(&a, 100000000ull);
	series_init(&b, 100000000ull);
	series_init(&plain, 100000000ull);
	assert_int_equal(series_init_fine(&a, SERIES_FINE_NS, SERIES_FINE_SPAN_NS), 0);
	assert_int_equal(series_init_fine(&b, SERIES_FINE_NS, SERIES_FINE_SPAN_NS), 0);
	assert_int_equal(a.fine_n, 100);
	uint64_t total = 0, early = 0;
	for (uint64_t t = 1; t < 3000000000ull; t += 7000001ull) {
		uint64_t by = 4096 * (1 + t % 7);
		assert_int_equal(series_add_n(&a, t, 1, by, 1000), 0);
		assert_int_equal(series_add_n(&b, t, 2, 2 * by, 2000), 0);
		assert_int_equal(series_add_n(&plain, t, 1, by, 1000), 0);
		total += by;
		early += t < SERIES_FINE_SPAN_NS ? by : 0;
	}
	assert_int_equal(a.n, plain.n);
	uint64_t sc = 0, sf = 0;
	for (size_t i = 0; i < a.n; i++) {
		assert_true(a.bytes[i] == plain.bytes[i] && a.ios[i] == plain.ios[i]);
		sc += a.bytes[i];
	}
	for (size_t i = 0; i < a.fine_n; i++)
		sf += a.fine_bytes[i];
	assert_true(sc == total && sf == early);
	/* merged into a series without fine samples (the runner's result) */
	struct series m;
	series_init(&m, 100000000ull);
	assert_int_equal(series_merge(&m, &a), 0);
	assert_int_equal(series_merge(&m, &b), 0);
	uint64_t mf = 0, mc = 0;
	for (size_t i = 0; i < m.fine_n; i++)
		mf += m.fine_bytes[i];
	for (size_t i = 0; i < m.n; i++)
		mc += m.bytes[i];
	assert_true(mf == 3 * early && mc == 3 * total);
	/* not finer than the coarse interval: nothing */
	struct series c;
	series_init(&c, 10000000ull);
	assert_int_equal(series_init_fine(&c, SERIES_FINE_NS, SERIES_FINE_SPAN_NS), 0);
	assert_int_equal(c.fine_n, 0);
	series_release(&a);
	series_release(&b);
	series_release(&plain);
	series_release(&m);
	series_release(&c);
}

/* Through the writer: 10 s in 1 s intervals, 0.3 s at 1,000 MB/s, then
 * 300 MB/s: the stored cliff starts at the head, breaks at 0.3 s. */
static void test_cliff_json_names_the_head(void **state)
{
	(void)state;
	struct series s;
	series_init(&s, 1000000000ull);
	assert_int_equal(series_init_fine(&s, SERIES_FINE_NS, SERIES_FINE_SPAN_NS), 0);
	/* one 1 MB write every ms at 1,000 MB/s, then every 3.33 ms */
	uint64_t t = 500000;
	while (t < 10000000000ull) {
		series_add_n(&s, t, 1, 1000000, 1000);
		t += t < 300000000ull ? 1000000ull : 3333333ull;
	}
	cJSON *j = resultset_cliff_to_json(&s, 10000000000ull);
	assert_non_null(j);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "found")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "head_from_fine")));
	const cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "plateaus"), 0);
	assert_true(fabs(cJSON_GetObjectItem(p0, "duration_ns")->valuedouble - 3e8) <= 2e7);
	assert_true(fabs(cJSON_GetObjectItem(p0, "level_bw_bytes_s")->valuedouble / 1e9 - 1) < 0.02);
	assert_true(fabs(cJSON_GetObjectItem(j, "break_ns")->valuedouble - 3e8) <= 2e7);
	assert_true(fabs(cJSON_GetObjectItem(j, "before_bytes")->valuedouble - 3e8) <= 2e7);
	assert_true(fabs(cJSON_GetObjectItem(j, "level2_bw_bytes_s")->valuedouble / 3e8 - 1) < 0.02);
	cJSON_Delete(j);
	/* the same without fine samples: no cliff (the old behaviour) */
	struct series c;
	series_init(&c, 1000000000ull);
	for (t = 500000; t < 10000000000ull; t += t < 300000000ull ? 1000000ull : 3333333ull)
		series_add_n(&c, t, 1, 1000000, 1000);
	j = resultset_cliff_to_json(&c, 10000000000ull);
	assert_non_null(j);
	assert_false(cJSON_IsTrue(cJSON_GetObjectItem(j, "found")));
	cJSON_Delete(j);
	series_release(&s);
	series_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_0_3s_in_1s_intervals),
		cmocka_unit_test(test_cache_0_16s_in_100ms_intervals),
		cmocka_unit_test(test_stationary_no_head_cliff),
		cmocka_unit_test(test_correlated_no_head_cliff),
		cmocka_unit_test(test_long_cache_not_doubled),
		cmocka_unit_test(test_throttle_burst_is_no_head),
		cmocka_unit_test(test_fine_samples_keep_totals),
		cmocka_unit_test(test_cliff_json_names_the_head),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
