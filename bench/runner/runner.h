/*
 * runner.h - run one repetition of one cell: lay out the file set, start
 * `jobs` worker threads each with its own engine context and `iodepth` slots,
 * measure every IO, and merge the per-job statistics.
 *
 * This is the boundary between the measuring machinery (engines, workers,
 * layout, stats) and the orchestration in bench/run (result set,
 * fingerprint, progress, resume; the signals are cmd/cmd_run.c's).
 *
 * Error convention: functions return 0, or -errno with a human message in
 * err (lower-case, subject quoted, says the fix where there is one).
 */
#ifndef IOMATRIX_RUNNER_H
#define IOMATRIX_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "suite/cell.h"
#include "stats/rep.h"
#include "target.h"

/* Free what runner_prepare() put in t (layout.c). */
void target_release(struct target *t);

/* Live progress, called from the runner thread about every 250 ms. */
struct progress {
	double elapsed_s;     /* of this repetition */
	double total_s;       /* expected, 0 when stopped by size */
	double iops;          /* over the last period, both directions */
	double bw_bytes_s;
	bool in_ramp;
	bool in_layout;
	double layout_frac;   /* 0..1 while laying out */
};

struct run_ctl {
	volatile sig_atomic_t *stop; /* set by a signal handler: stop within 1 s */
	void (*progress)(void *arg, const struct progress *p);
	void *arg;
	unsigned rep;                /* 0-based repetition of the cell: the
				      * seed of randrepeat off */
};

/* The seed a repetition's offsets and buffers come from: the cell's seed
 * with randrepeat (every repetition replays the same offsets), else one
 * derived from the seed and rep (0-based), the same on every run. */
uint64_t runner_rep_seed(const struct cell *c, unsigned rep);

/*
 * Resolve cell->path into a target and lay the files out: create them with
 * incompressible data (never sparse) or reuse existing ones of the right size.
 * Only files iomatrix makes (O_CREAT|O_EXCL|O_NOFOLLOW, then the scratch
 * marker of host/scratch.h) are laid out, truncated or later removed; an
 * existing file without the marker is measured in place (reads need it long
 * enough, writes need destructive) or, under a scratch name, refused.
 * Pseudo filesystems (procfs, sysfs ...) are refused.
 * Checks free space first and the O_DIRECT capability of the filesystem.
 * Returns 0 or -errno (-EINTR when stopped) with err filled in.
 */
int runner_prepare(const struct cell *c, struct target *t,
		   struct run_ctl *ctl, char *err, size_t errlen);

/* Run one repetition.  0, or -errno with err filled in; -EINTR when stopped
 * (out holds what was measured until then and should be discarded).
 *
 * Rules (runner.c): an IO is measured when it is issued at or after the end
 * of the ramp; requests/io_size are exact totals across all jobs of measured
 * IOs; with no stop rule every job makes one pass over its share of the file
 * set (its contiguous slice; random jobs as many IOs as the slice holds);
 * runtime_ns runs from the ramp end to the last measured completion (at
 * least the runtime when time-limited).  Sync engines run with depth 1.
 *
 * The IO log, for users as fio's write_iolog (docs/engines.md): with
 * IOMATRIX_TRACE=FILE in the environment every issued IO is appended to
 * FILE as one line "JOB DIR OFFSET LEN FILEIDX" (DIR is read or write;
 * OFFSET in bytes within file FILEIDX of the target), and every
 * submit call of an async engine as "JOB submit N" (N requests in that
 * call: iodepth_batch at most), and every completion as "JOB data DIR
 * OFFSET LEN FILEIDX HASH" (64-bit FNV-1a of the buffer in hex: the bytes
 * read, or written).  Costs nothing when unset. */
int runner_run_rep(const struct cell *c, const struct target *t,
		   struct run_ctl *ctl, struct rep_result *out,
		   char *err, size_t errlen);

/*
 * Fleet agents that share one directory (NFS, one machine) must not race
 * on one scratch name: with a tag set, a directory's scratch files are
 * iomatrix.<tag>.<device>.<n> instead of iomatrix.<device>.<n>.  The tag
 * (copied; NULL clears it) keeps [A-Za-z0-9._-] of the given text, at
 * most 64 bytes, other bytes as '_'.  Process-wide: call before
 * runner_prepare().
 */
void runner_set_scratch_tag(const char *tag);

/*
 * Does the filesystem holding `path` (device directory, file, or a file to be
 * made) accept O_DIRECT?  Probed with a temporary file so that the answer can
 * come before a result set is made.  0 yes or unknown (block devices are
 * checked by runner_prepare()); -EINVAL with the message in err when not.
 */
int runner_check_direct(const char *path, char *err, size_t errlen);

/* Does an error of runner_prepare() mean the input is wrong (a missing
 * path, a permission, O_DIRECT refused, a read-only filesystem ...: exit
 * 2) rather than that the IO failed? */
bool runner_error_is_input(int e);

/* Remove files that runner_prepare() created (unless keep_files). */
void runner_cleanup(struct target *t, bool keep_files);

#endif
