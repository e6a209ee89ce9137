/*
 * runner_int.h - what runner.c (one repetition) and layout.c (the file set)
 * share inside bench/runner/; not for use outside the folder.
 */
#ifndef IOMATRIX_RUNNER_INT_H
#define IOMATRIX_RUNNER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* by name only (runner.h, target.h): runner.h is runner.c's room, which
 * includes this header, so including it here would close a loop */
struct cell;
struct run_ctl;
struct target;

/* how often the progress callback runs, during layout and a repetition */
#define PROGRESS_NS 250000000ull

/* printf into err[errlen] when err is not NULL (the runner's messages) */
void runner_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* true once the signal handler behind ctl->stop has fired */
bool runner_stop_requested(const struct run_ctl *ctl);

/* the message for a filesystem that refuses O_DIRECT; returns -EINVAL */
int runner_direct_msg(const char *path, char *err, size_t errlen);

/* bs must be a multiple of the logical block size lbs for O_DIRECT: 0, or
 * -EINVAL with the message, before any IO (layout included) */
int runner_check_bs(const struct cell *c, unsigned lbs, char *err, size_t errlen);

/* Blocks of bs one file (or the device) of file_size bytes offers the
 * cell: its active_range share (SNIA PTS-C: 75 %), whole blocks. */
uint64_t runner_blocks_per_file(const struct cell *c, uint64_t file_size);

/* The cell's zoned_abs zones fit in what target t addresses: 0, or -EINVAL
 * with the message, before any IO (layout included).  Validate checked
 * them against the most the cell can address; the device decides the
 * rest (a block device's size, a percentage offset). */
int runner_check_zones(const struct cell *c, const struct target *t, char *err,
		       size_t errlen);

#endif
