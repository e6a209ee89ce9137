/*
 * sysload.h - what else the machine was doing while a repetition ran: the
 * load average and the CPU time of all CPUs (busy, steal, iowait) from
 * /proc/loadavg and /proc/stat, read before and after, and the rule that
 * says other work competed with the benchmark.
 *
 * The readers take the directory that holds loadavg and stat ("/proc"),
 * so a test passes fake files.  sysload_competed() is pure: unit-tested.
 */
#ifndef IOMATRIX_SYSLOAD_H
#define IOMATRIX_SYSLOAD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The rule.  Other work competed when, over the repetition,
 *  - processes other than iomatrix kept at least SYSLOAD_OTHER_CPUS CPUs
 *    busy on average (user + nice + system time of all CPUs, less
 *    iomatrix's own user + system time; irq and softirq time is left out
 *    of busy, since the device's own completions are counted there), or
 *  - the hypervisor took at least SYSLOAD_STEAL_PCT % of the CPU time
 *    (steal).
 * The load average is recorded but not judged: threads waiting for IO
 * count in it, so an IO benchmark raises it itself, and it is a
 * one-minute average that lags a short cell.
 */
#define SYSLOAD_OTHER_CPUS 0.5
#define SYSLOAD_STEAL_PCT 10.0

/* One reading of loadavg and the "cpu" line of stat. */
struct sysload {
	bool have_load, have_stat;
	double load[3];          /* 1, 5, 15 minutes */
	uint64_t busy, iowait, steal, total; /* clock ticks, all CPUs */
	unsigned ncpu;           /* "cpuN" lines */
};

/* What happened between two readings. */
struct sysload_delta {
	bool have_cpu;           /* both stat readings, and ticks passed */
	double busy_pct, iowait_pct, steal_pct; /* of all CPUs' time */
	double own_pct;          /* iomatrix's user + system, of all CPUs' time */
	double other_cpus;       /* CPUs kept busy by other work (>= 0) */
	unsigned ncpu;
};

/* Read DIR/loadavg and DIR/stat into *s (fields of a file that cannot be
 * read or parsed stay unknown: have_load / have_stat false).  0 when
 * either was read, -1 when neither. */
int sysload_read(const char *dir, struct sysload *s);

/* The delta between a and b, with own_cpu_s the seconds of user + system
 * CPU time iomatrix used in between and hz the ticks per second of stat
 * (sysconf(_SC_CLK_TCK)). */
void sysload_delta(const struct sysload *a, const struct sysload *b, double own_cpu_s,
		   double hz, struct sysload_delta *out);

/* The rule above: did other work compete?  (false without CPU numbers) */
bool sysload_competed(double other_cpus, double steal_pct);

/* The directory to read: the test hook's proc=DIR when set (testhook.h:
 * tests pass fake files; not for users), else "/proc". */
const char *sysload_dir(void);

#endif
