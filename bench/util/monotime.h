/*
 * monotime.h - the one monotonic clock of the tree: nanoseconds of
 * CLOCK_MONOTONIC, for deadlines, latencies and the controller's and
 * agents' clocks, and the same clock in milliseconds and seconds for
 * polls and progress, and a sleep to a time of it.  Inline: the worker
 * reads it around every IO.
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

/* mono_ns() in whole milliseconds (the MPI relay's polls). */
static inline uint64_t mono_ms(void)
{
	return mono_ns() / 1000000u;
}

/* mono_ns() in seconds (run's progress and ETA, MPI's start deadline). */
static inline double mono_s(void)
{
	return (double)mono_ns() / 1e9;
}

/* The time left until deadline_ns (of mono_ns()) as a relative timeout,
 * zero once it has passed: for the kernel calls that take one
 * (io_getevents, io_uring's EXT_ARG waits). */
static inline struct timespec mono_time_left(uint64_t deadline_ns)
{
	uint64_t now = mono_ns();
	uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
	return (struct timespec){ (time_t)(left / 1000000000ull),
				  (long)(left % 1000000000ull) };
}

/* Sleep until ns (of mono_ns()); a signal may end it early, so the caller
 * looks again. */
static inline void mono_sleep_until(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

#endif
