/*
 * run_progress.h - what `run` tells the user while it measures: the live
 * line of the running cell (tty: rewritten in place; plain: one line a
 * second), the ETA of the whole plan, and one line per finished cell.
 * Everything goes to stderr; nothing here touches the result set.
 */
#ifndef IOMATRIX_RUN_PROGRESS_H
#define IOMATRIX_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/rep.h"
#include "runner.h"
#include "suite/cell.h"

struct run_progress {
	bool tty, quiet;
	bool plain;                  /* one line per second, newline-ended */
	size_t k, n;                 /* current cell (1-based), cells in plan */
	const struct cell *c;
	unsigned rep;
	unsigned round;              /* 0: the suite has no rounds */
	double set_start;            /* mono_s() (util/monotime.h) */
	double cell_start;
	double known_left_s;         /* estimate of the cells after this one */
	size_t unknown_left;         /* of those, cells stopped by size */
	double done_s;               /* wall time of cells finished so far */
	size_t done_n;
	double last_print;
	bool line_open;
	double *eta_known;           /* run_progress_plan's suffix sums, owned */
	size_t *eta_unknown;
	uint64_t *apart;             /* owned, per plan cell: what tells it apart
				      * from cells of its label (suite/workload.h
				      * workload_apart); NULL without memory */
	uint64_t c_apart;            /* the running cell's */
};

/*
 * Set up ps for a plan of n cells: mode ("auto" or NULL, "tty", "plain",
 * "none"; auto is tty when stderr is a terminal), quiet, and the ETA's
 * suffix sums over the cells that will run (skip[k] true: cell k is
 * already done and will not run; skip may be NULL).  Without memory the
 * ETA is "?".  Release with run_progress_release().
 */
void run_progress_init(struct run_progress *ps, const char *mode, bool quiet,
		       const struct cell *cells, size_t n, const bool *skip);
void run_progress_release(struct run_progress *ps);
/* Cell i (0-based) of the plan starts: its line and ETA from now on. */
void run_progress_cell(struct run_progress *ps, size_t i, const struct cell *c,
		       unsigned round);
/* The cell that started last finished (its time feeds the ETA average). */
void run_progress_cell_done(struct run_progress *ps);
/* The runner's callback (struct run_ctl.progress); arg is the run_progress. */
void run_progress_cb(void *arg, const struct progress *p);
/* Erase the live line, so that a message can be printed in its place. */
void run_progress_clear(struct run_progress *ps);
/* A device's rounds: "resuming at round R" (resuming) or "round R (at
 * most MAX)" as each starts; quiet says neither. */
void run_progress_round(const struct run_progress *ps, const char *dev,
			unsigned round, unsigned max, bool resuming);
/* How a device's rounds ended: steady at steady_round (window rounds
 * ending there; quiet says nothing), or, when finished without, a warning
 * that the results average the last window rounds (printed even when
 * quiet: it qualifies every number).  Nothing while unfinished. */
void run_progress_rounds_verdict(const struct run_progress *ps, const char *dev,
				 unsigned steady_round, bool finished,
				 unsigned rounds_done, unsigned window);
/* The one line of a finished cell: its IOPS, MB/s and mean latency over
 * reps, or the error (printed even when quiet: it is not progress). */
void run_progress_cell_line(const struct run_progress *ps, const struct cell *c,
			    const char *error, const struct rep_result *reps,
			    unsigned nreps);

#endif
