/*
 * run.h - `iomatrix run` behind one function: load the suite, check
 * safety, create (or resume) a result set, run every cell's repetitions
 * through the runner, write each cell and the manifest as soon as it is
 * known, show progress, and stop cleanly when the caller's signal flag is
 * set; or hand a --hosts run to the fleet.  cmd/cmd_run.c parses the
 * command line and installs the signal handlers; this room does the rest:
 * run_suite.c, which calls run_loop.c and run_check.c (they take struct
 * run_opts from here through run_int.h, so no run.c shares this name).
 *
 * Exit rule: anything wrong with the input that is found before a cell does
 * IO (suite errors, unsafe device, results dir, O_DIRECT refused, bs below
 * the logical block size, engine not built in, missing path or permission)
 * exits 2 and runs no further cell; a failure while doing IO (EIO, ENOSPC)
 * marks that cell failed, the run goes on, and the exit code is 1.
 */
#ifndef IOMATRIX_RUN_H
#define IOMATRIX_RUN_H

#include <signal.h>
#include <stddef.h>

#include "fleet/run_fleet.h"
#include "reproduce/received.h" /* struct run_extra */
#include "suite/suite_cli.h"

/* What the command line of `run` says. */
struct run_opts {
	const char *suite_path;
	struct run_shared sh;   /* --device, --out, --scale, ... (suite_cli.h) */
	const char *resume;
	struct run_fleet fleet; /* --hosts and friends (run_fleet.c) */
};

/*
 * Run the suite of o (x: reproduce's additions, struct run_extra of
 * reproduce/received.h, or NULL; argc/argv: the
 * command line the manifest records).  Progress and errors go to stderr,
 * the set's directory to stdout.  *stop is the caller's signal flag: once
 * set, the run finishes quickly and keeps what is done.  o stays the
 * caller's (release its sh and fleet after); a resumed run fills in
 * o->suite_path and o->sh.scale from the set, and o->suite_path is not to
 * be read after the call.  Returns the exit code (util/cliopt.h): 0, 1 a
 * cell failed or the set could not be written, 2 bad input, 130
 * interrupted.
 */
int run_suite(struct run_opts *o, const struct run_extra *x, int argc, char **argv,
	      volatile sig_atomic_t *stop);

#endif
