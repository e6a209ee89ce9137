/*
 * clock_cost.c - what one timestamp costs here: CLOCK_MONOTONIC through the
 * vDSO (what iomatrix and fio's default clocksource use) against a raw TSC
 * read, in ns per call.  make bench prints it beside how many timestamps
 * iomatrix takes per IO (clock_count.c), which says whether a cheaper
 * clock could matter.
 *
 *   clock_cost [CALLS]   -> "clock_gettime_ns=.. rdtsc_ns=.."
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	volatile uint64_t sink = 0;
	if (n < 1)
		n = 1;
	uint64_t a = now_ns();
	for (long i = 0; i < n; i++)
		sink += now_ns();
	uint64_t b = now_ns();
	printf("clock_gettime_ns=%.1f", (double)(b - a) / n);
#ifdef HAVE_TSC
	a = now_ns();
	for (long i = 0; i < n; i++)
		sink += __rdtsc();
	b = now_ns();
	printf(" rdtsc_ns=%.1f", (double)(b - a) / n);
#endif
	printf("\n");
	return sink == 1; /* keeps the loops */
}
