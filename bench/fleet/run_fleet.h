/*
 * run_fleet.h - `run`'s fleet options and the call into bench/fleet/
 * (run_fleet.c).  Kept apart so that a run needs three calls: cmd_run.c
 * parses with run_fleet_option(), bench/run asks run_fleet_wanted() and
 * calls run_fleet().
 */
#ifndef IOMATRIX_RUN_FLEET_H
#define IOMATRIX_RUN_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct run_fleet {
	const char **hosts;         /* into hosts_buf */
	size_t nhosts;
	char *hosts_buf;
	bool hosts_given, aggregate, aggregate_given, skip_unreachable;
	struct suite *suite;        /* owned: when the hosts came from it */
	const char *ssh_config, *remote;
	const char **ssh_options;
	size_t nssh_options;
	unsigned parallel;
	bool mpi;                   /* --mpi: the hosts are the launcher's ranks */
};

/* What `run` parsed that the fleet needs too (all borrowed). */
struct run_fleet_common {
	const char *suite_path, *out, *resume;
	const char *const *devices;
	size_t ndevices;
	double scale;
	bool yes_destroy_data, quiet;
	int argc;
	char **argv;
	volatile sig_atomic_t *stop;
};

void run_fleet_init(struct run_fleet *rf, int argc);
void run_fleet_release(struct run_fleet *rf);
/* The option named name (its table spelling, "--hosts"), with its value
 * (NULL for a flag; the parser refused a missing or empty one): 1 taken,
 * 0 not ours, -1 bad (message printed).  v is borrowed and must outlive
 * rf (it points into argv). */
int run_fleet_option(struct run_fleet *rf, const char *name, const char *v);
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

/* The MPI helper's name, and where `run --mpi` looks for it: beside the
 * running binary, then in the install's libexec directory. */
#define RUN_FLEET_MPI_HELPER "iomatrix-mpi"

#endif
