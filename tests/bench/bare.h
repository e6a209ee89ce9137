/*
 * bare.h - what the two bare loops of make bench share: the clock
 * (iomatrix's own, util/monotime.h), the process CPU time, the offset
 * generator and the one-line result.  Static inline so each loop stays one
 * file to compile.
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

/* One measured latency: kept in a log2 histogram and a sum. */
struct bare_lat {
	uint64_t ios, sum, hist[64];
};
static inline void bare_lat_add(struct bare_lat *l, uint64_t lat)
{
	l->sum += lat;
	l->hist[63 - __builtin_clzll(lat | 1)]++;
	l->ios++;
}

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
