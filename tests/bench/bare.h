/*
 * bare.h - what the bare loops of make bench share: the clock (iomatrix's
 * own, util/monotime.h), the process CPU time, the offset generator (in
 * the twins a random map, every block once per pass), the latency kept (a log2 histogram; in the twins, what iomatrix keeps) and
 * the one-line result.  Static inline so each loop stays one file to
 * compile (a twin links bench/stats besides).
 */
#ifndef IOMATRIX_BARE_H
#define IOMATRIX_BARE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "util/monotime.h" /* mono_ns(), the clock iomatrix's worker reads */

/* usr+sys of the whole process (kernel helper threads such as io-wq
 * included), or of the calling thread only */
static inline uint64_t cpu_ns_of(int who)
{
	struct rusage ru;
	getrusage(who, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}
static inline uint64_t cpu_ns(void) { return cpu_ns_of(RUSAGE_SELF); }
static inline uint64_t thread_cpu_ns(void) { return cpu_ns_of(RUSAGE_THREAD); }

static uint64_t rnd = 0x9e3779b97f4a7c15ull;
static inline uint64_t rnd_below(uint64_t n) /* xorshift64* */
{
	rnd ^= rnd >> 12, rnd ^= rnd << 25, rnd ^= rnd >> 27;
	return (rnd * 0x2545f4914f6cdd1dull) % n;
}

#ifndef BARE_TWIN
/* The next block of n: a uniform draw. */
static inline uint64_t bare_block(uint64_t n)
{
	return rnd_below(n);
}

/* The submit time of requests going down now, the last reading `now`
 * freed them at: the bare loop takes no other. */
static inline uint64_t bare_submit_ns(uint64_t now)
{
	return now;
}

/* One measured latency, completed at now: kept in a log2 histogram and a
 * sum. */
struct bare_lat {
	uint64_t ios, sum, hist[64];
};
static inline void bare_lat_start(struct bare_lat *l, uint64_t t0, double seconds)
{
	(void)l, (void)t0, (void)seconds;
}
static inline void bare_lat_add(struct bare_lat *l, uint64_t now, uint64_t lat)
{
	(void)now;
	l->sum += lat;
	l->hist[63 - __builtin_clzll(lat | 1)]++;
	l->ios++;
}
#else
/*
 * The twin (make bench builds each loop a second time with -DBARE_TWIN):
 * per completion the bookkeeping iomatrix's worker does besides the IO,
 * with its own code (bench/stats): the interval check and, once per
 * interval (iomatrix's: 100 ms in a cell of up to a minute), the
 * interval's histogram closed (ivhist_close); the latency into the
 * loglin64 histogram; the exact integer moments (n, sum, sum of squares
 * in 128 bits, min, max); the interval's ios, bytes and latency sum.  Per
 * submit call, a clock reading for the submit time of its requests, as
 * iomatrix takes.  Per IO, the next block from a random map of its own
 * (bare_block).  What a loop at these syscalls cannot avoid while it
 * keeps what iomatrix keeps: the yardstick of the rows' "iomatrix/twin".
 */
#include "stats/stats.h"
#include "suite/cell.h" /* CELL_SHORT_*: the interval iomatrix records at */

/* The next block of n, from a random map of the twin's own: iomatrix's
 * default, as fio's (norandommap=0), reads every block once per pass, so
 * the twin does too, with the least code we know for it: a full-period
 * LCG over the 2^b >= n values (Hull-Dobell: a multiplier 1 mod 4 and an
 * odd increment give each of the 2^b states once per 2^b steps), the
 * values >= n skipped (fewer than 2 steps per block), fio's
 * random_generator=lfsr idea.  Its order is poorer than iomatrix's (the
 * low bits are periodic), which a RAM device does not see. */
static uint64_t bare_map_x;
static inline uint64_t bare_block(uint64_t n)
{
	uint64_t mask = n > 1 ? ~0ull >> __builtin_clzll(n - 1) : 0;

	do
		bare_map_x = (bare_map_x * 6364136223846793005ull + 1442695040888963407ull) & mask;
	while (bare_map_x >= n);
	return bare_map_x;
}

/* The submit time of requests going down now: a reading of its own
 * before each submit call, as iomatrix's worker takes (worker.c, issue():
 * one per submitted batch), not the reading of the reap that freed them. */
static inline uint64_t bare_submit_ns(uint64_t now)
{
	(void)now;
	return mono_ns();
}

struct bare_lat {
	uint64_t ios, sum;
	uint64_t n, min, max;
	unsigned __int128 sumsq;
	uint64_t t0, iv_ns, iv_end;
	size_t iv_at;
	struct lat_hist hist, snap;
	struct series series;
};
static inline void bare_lat_start(struct bare_lat *l, uint64_t t0, double seconds)
{
	l->t0 = t0;
	l->min = UINT64_MAX;
	/* iomatrix's interval for a cell of this runtime (cell_interval_ns):
	 * make bench's 5 s cells record every 100 ms */
	l->iv_ns = l->iv_end = seconds * 1e9 <= CELL_SHORT_RUNTIME_NS ?
				       CELL_SHORT_INTERVAL_NS : 1000000000ull;
	series_init(&l->series, l->iv_ns);
	if (series_reserve(&l->series, 64) < 0 || ivhist_reserve(&l->series.hist, 64, 64 * 64) < 0)
		exit(1);
}
static inline void bare_lat_add(struct bare_lat *l, uint64_t now, uint64_t lat)
{
	uint64_t t = now - l->t0;
	if (t >= l->iv_end) {
		l->iv_at = (size_t)(t / l->iv_ns);
		if (ivhist_close(&l->series.hist, &l->snap, &l->hist) < 0)
			exit(1);
		while (l->series.hist.n < l->iv_at)
			ivhist_push(&l->series.hist, NULL, NULL, 0);
		l->iv_end = ((uint64_t)l->iv_at + 1) * l->iv_ns;
	}
	l->hist.count[hist_index(lat)]++;
	l->n++;
	l->sum += lat;
	l->sumsq += (unsigned __int128)lat * lat;
	if (lat < l->min)
		l->min = lat;
	if (lat > l->max)
		l->max = lat;
	series_add_at(&l->series, l->iv_at, t, 1, 4096, lat);
	l->ios++;
}
#endif

/* The line make bench reads; exit status 1 if nothing was measured.
 * thread_cpu: the loop's own thread (what iomatrix's cpu.ns_per_io and
 * fio's usr/sys count), cpu: the whole process. */
static inline int bare_report2(const struct bare_lat *l, uint64_t rt, uint64_t cpu,
			       uint64_t thread_cpu)
{
	if (!l->ios || !rt)
		return 1;
	printf("ios=%llu runtime_ns=%llu iops=%.0f lat_mean_ns=%.0f cpu_ns_per_io=%.0f "
	       "thread_cpu_ns_per_io=%.0f\n",
	       (unsigned long long)l->ios, (unsigned long long)rt, l->ios * 1e9 / rt,
	       (double)l->sum / l->ios, (double)cpu / l->ios, (double)thread_cpu / l->ios);
	return 0;
}

#endif
