/*
 * run_int.h - what run_suite.c (the set and the phases of a run),
 * run_loop.c (the cell loop) and run_check.c (the checks before any IO)
 * share.  Not an API.
 */
#ifndef IOMATRIX_RUN_INT_H
#define IOMATRIX_RUN_INT_H

#include <stdbool.h>

#include "resultset/resultset.h"
#include "runner/cellreps.h"
#include "runner/run_progress.h"
#include "runner/runner.h"
#include "suite/cell.h"
#include "run.h"

/* What the loop shares while it runs cells, device by device and round by
 * round. */
struct run_state {
	const struct suite *s;
	const struct run_opts *a;
	volatile sig_atomic_t *stop; /* set by the command's signal handler */
	struct resultset *rs;
	struct run_progress *ps;
	struct run_ctl *ctl;
	struct runner_files files;    /* runner/cellreps.h */
	struct runner_reps reps;      /* grown per cell */
	bool failed_any;
	int fatal, rc;
};

/* Every device in plan order (a device's cells are contiguous); the
 * outcome in st's failed_any, fatal and rc (run_loop.c). */
void run_all(struct run_state *st);

/* Every device and cell of s can be used as the suite says: the path,
 * safety (writes need yes_destroy_data), O_DIRECT, the engine built in;
 * then the notice of what is about to be overwritten.  0, or -1 with the
 * reasons printed (run_check.c). */
int run_check_inputs(const struct suite *s, bool yes_destroy_data);

#endif
