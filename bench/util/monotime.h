/*
 * monotime.h - the one monotonic clock of the bench: nanoseconds of
 * CLOCK_MONOTONIC, for deadlines, latencies and the controller's and
 * agents' clocks.  Inline: the worker reads it around every IO.
 */
#ifndef IOMATRIX_MONOTIME_H
#define IOMATRIX_MONOTIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
