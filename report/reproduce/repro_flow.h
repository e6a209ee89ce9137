/*
 * repro_flow.h - `iomatrix reproduce` from the command line to the verdict:
 * the one orchestrator that cmd/cmd_reproduce.c calls.  A pack is unpacked
 * (share/pack.h, Ctrl-C undoes it), the set opened and checked (an imported
 * set complete), its suite run through run's one code path under the
 * received-set rule (reproduce/received.h: the set supplies the workload,
 * this command line everything else), and the new set judged against the
 * original (repro.h).
 *
 * run's code path lives in the commands room (cmd/cmd_run.c, above this
 * one), so the caller hands it in.
 */
#ifndef IOMATRIX_REPRO_FLOW_H
#define IOMATRIX_REPRO_FLOW_H

#include <stdbool.h>

#include "reproduce/received.h"
#include "suite/suite_cli.h"

/* What the command line of reproduce gave. */
struct repro_request {
	const char *set;              /* a set directory or a pack FILE */
	const struct run_shared *sh;  /* --device, --out, --scale, --yes-destroy-data,
				       * --quiet, --progress: the only source of each */
	double tolerance;             /* percent */
	bool fail;                    /* --fail-if-not-reproduced */
	int argc;                     /* the command as typed, for the manifest */
	char **argv;
	bool drop_caches;             /* --drop-caches: the set's drop_caches may run */
	/* called with each set this command made (the unpacked original,
	 * the new set), or NULL: the archive's index takes them */
	void (*set_made)(const char *dir);
};

/* run's one code path: `run` with argv (run SUITE --device ... --scale F
 * [--out DIR] [--yes-destroy-data] [--quiet] [--progress MODE]) and x's
 * additions. */
typedef int (*repro_run_fn)(int argc, char **argv, const struct run_extra *x);

/* Reproduce rq->set: the exit code of reproduce (cli.h), every message
 * printed (the verdicts on stdout, the rest on stderr). */
int repro_reproduce(const struct repro_request *rq, repro_run_fn run);

#endif
