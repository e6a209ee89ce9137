/*
 * cellreps.h - what `run`'s cell loop (and a fleet agent's) asks of the
 * runner between cells: the file set it holds while consecutive cells use
 * the same files, and
 * one cell's repetitions (`repeat` of them, or until steady_state says
 * steady), with the cooldown between them.  The loop itself (result-set
 * writes, rounds, preconditioning) stays with the command.
 */
#ifndef IOMATRIX_CELLREPS_H
#define IOMATRIX_CELLREPS_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/steady.h"
#include "runner.h"
#include "run_progress.h"

/* The files the loop holds: prepared for cell, kept for the next cell of
 * the same file set (device, path, number of files). */
struct runner_files {
	struct target tgt;
	const struct cell *cell;    /* the cell they were prepared for */
	bool have;
	bool pre_created;           /* preconditioning made them: ours to
				     * remove once a cell uses them */
};

/* Prepare c's files into f (runner_prepare), keeping f's when c uses the
 * same file set, removing them (unless keep_files) when not or when the
 * prepare fails.  0 or -errno with err filled in. */
int runner_files_use(struct runner_files *f, const struct cell *c, struct run_ctl *ctl,
		     char *err, size_t errlen);

/* Let go of f's files (removed unless keep_files) when next (NULL: any)
 * uses another file set. */
void runner_files_drop(struct runner_files *f, const struct cell *next);

/* The repetitions of one cell, grown as a cell needs more (reps owned;
 * free() it at the end). */
struct runner_reps {
	struct rep_result *reps;
	unsigned alloc;
};

/* Run c's repetitions on t into r->reps: `repeat` of them, or with
 * steady_state until the last `window` are steady (at most `max`, *sv
 * filled), with c's cooldown between two; ps's repetition is updated and
 * its line cleared after each.  Stops early when *ctl->stop is set (that
 * repetition discarded) or a repetition fails (cerr says which and why).
 * Returns how many finished. */
unsigned runner_cell_reps(const struct cell *c, const struct target *t, struct run_ctl *ctl,
			  struct run_progress *ps, struct runner_reps *r,
			  struct steady_verdict *sv, char *cerr, size_t len);

/* The tracked metric of some repetitions: the mean over them of IOPS or
 * bytes/s (both directions summed) or the mean latency (IO-weighted). */
double runner_reps_metric(const struct rep_result *r, unsigned n, enum ss_metric m);

#endif
