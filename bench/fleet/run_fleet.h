/*
 * run_fleet.h - what `run`'s fleet options ask for and the call into
 * bench/fleet/ (run_fleet.c).  cmd_run.c's option table parses the options
 * into struct run_fleet; bench/run asks run_fleet_wanted() and calls
 * run_fleet().
 */
#ifndef IOMATRIX_RUN_FLEET_H
#define IOMATRIX_RUN_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "fleet/fleet.h"
#include "util/optspec.h"

struct run_fleet {
	/* the command line: cmd_run.c's option table stores these */
	const char *hosts_arg;      /* --hosts H1,H2,..., or NULL */
	bool aggregate, skip_unreachable;
	bool mpi;                   /* --mpi: the hosts are the launcher's ranks */
	const char *ssh_config, *remote;
	struct optlist ssh_options; /* --ssh-option, each */
	int parallel;               /* --parallel; 0: every host at once */
	/* filled here */
	const char **hosts;         /* into hosts_buf or suite */
	size_t nhosts;
	char *hosts_buf;
	struct suite *suite;        /* owned: when the hosts came from it */
};

/* Free what run_fleet_wanted() and run_fleet() took (not the command
 * line's fields: its parser frees ssh_options). */
void run_fleet_release(struct run_fleet *rf);
/* --hosts given, a suite with top-level hosts: (taken into rf), or
 * resuming a fleet set. */
bool run_fleet_wanted(struct run_fleet *rf, const char *suite_path,
		      const char *resume);
/* The exit code of the fleet run.  With --mpi in the plain binary this
 * execs the MPI helper (cmd/mpi/) and does not return, or returns 2 with
 * the install line when it was not built. */
int run_fleet(struct run_fleet *rf, const struct run_fleet_common *c);

struct fleet_transport;
/* Set by the MPI helper (rank 0) before it calls `run`: the ranks it
 * connects the controller to.  NULL (the default): --mpi execs the helper. */
void run_fleet_set_transport(const struct fleet_transport *t);

#endif
