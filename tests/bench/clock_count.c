/*
 * clock_count.c - LD_PRELOAD shim for make bench: counts the clock_gettime
 * calls of the process it is loaded into (iomatrix reaches the vDSO through
 * libc's symbol, so the count is exact) and prints the total at exit:
 * "clock_gettime_calls=N" on stderr.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static atomic_ulong calls;
static int (*real_clock_gettime)(clockid_t, struct timespec *);

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (!real_clock_gettime)
		real_clock_gettime = (int (*)(clockid_t, struct timespec *))
			dlsym(RTLD_NEXT, "clock_gettime");
	atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
	return real_clock_gettime(id, ts);
}

__attribute__((destructor)) static void clock_count_report(void)
{
	fprintf(stderr, "clock_gettime_calls=%lu\n", (unsigned long)atomic_load(&calls));
}
