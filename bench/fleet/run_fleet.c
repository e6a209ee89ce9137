/*
 * run_fleet.c - the fleet options of `iomatrix run` (--hosts, --aggregate,
 * --ssh-config, --ssh-option, --remote-iomatrix, --parallel,
 * --skip-unreachable, --mpi; cmd_run.c's table parses them into struct
 * run_fleet) and the hand-over to bench/fleet/: bench/run asks
 * run_fleet_wanted() and calls run_fleet().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cliopt.h"
#include "fleet/fleet.h"
#include "fleet/launch.h"
#include "run_fleet.h"
#include "suite/suite.h"

/* Forget the host list (before another is made, and at release). */
static void run_fleet_drop_hosts(struct run_fleet *rf)
{
	free(rf->hosts);
	free(rf->hosts_buf);
	rf->hosts = NULL;
	rf->hosts_buf = NULL;
	rf->nhosts = 0;
}

void run_fleet_release(struct run_fleet *rf)
{
	run_fleet_drop_hosts(rf);
	suite_free(rf->suite);
	rf->suite = NULL;
}

/* --hosts "h1,h2,h3" -> rf->hosts (a copy is split in place). */
static int split_hosts(struct run_fleet *rf, const char *list)
{
	run_fleet_drop_hosts(rf);
	rf->hosts_buf = strdup(list);
	rf->hosts = calloc(strlen(list) + 2, sizeof(*rf->hosts));
	if (!rf->hosts_buf || !rf->hosts) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return -1;
	}
	for (char *p = strtok(rf->hosts_buf, ","); p; p = strtok(NULL, ","))
		rf->hosts[rf->nhosts++] = p;
	return 0;
}

bool run_fleet_wanted(struct run_fleet *rf, const char *suite_path,
		      const char *resume)
{
	struct errlist errs = ERRLIST_INIT;
	struct suite_opts so = { 0 };

	if (rf->mpi || rf->hosts_arg || (resume && fleet_is_set(resume)))
		return true;
	if (resume || !suite_path)
		return false;
	/* the suite's own hosts: [...] and aggregate: (the command line
	 * wins); a suite with errors goes the usual way and reports them */
	if (suite_load(suite_path, &so, &rf->suite, &errs) < 0 || !rf->suite->nhosts) {
		errlist_release(&errs);
		return false;
	}
	run_fleet_drop_hosts(rf);
	rf->hosts = calloc(rf->suite->nhosts, sizeof(*rf->hosts));
	if (!rf->hosts)
		return false;
	for (size_t i = 0; i < rf->suite->nhosts; i++)
		rf->hosts[i] = rf->suite->hosts[i];
	rf->nhosts = rf->suite->nhosts;
	if (rf->suite->aggregate == 1) /* --aggregate is a flag: it can only add */
		rf->aggregate = true;
	return true;
}

static const struct fleet_transport *mpi_transport;

void run_fleet_set_transport(const struct fleet_transport *t)
{
	mpi_transport = t;
}

/* --mpi: the hosts are the ranks (a resumed set keeps its own names,
 * which fleet_run holds to the ranks). */
static int mpi_hosts(struct run_fleet *rf, struct fleet_opts *o)
{
	if (rf->hosts_arg) {
		fprintf(stderr, "iomatrix: --mpi takes its hosts from mpirun/srun: drop --hosts\n");
		return -1;
	}
	free(rf->hosts);
	rf->hosts = calloc(mpi_transport->nhosts + 1, sizeof(*rf->hosts));
	if (!rf->hosts)
		return -1;
	for (size_t i = 0; i < mpi_transport->nhosts; i++)
		rf->hosts[i] = mpi_transport->hosts[i].name;
	rf->nhosts = mpi_transport->nhosts;
	o->transport = mpi_transport;
	return 0;
}

int run_fleet(struct run_fleet *rf, const struct run_fleet_common *c)
{
	struct fleet_opts o = { 0 };

	if (rf->mpi && !mpi_transport)
		return launch_exec_helper(c->argc, c->argv);
	if (rf->mpi && mpi_hosts(rf, &o) < 0)
		return 2;
	if (!rf->mpi && rf->hosts_arg && split_hosts(rf, rf->hosts_arg) < 0)
		return 1;
	o.hosts = rf->hosts;
	o.nhosts = rf->nhosts;
	o.aggregate = rf->aggregate;
	o.skip_unreachable = rf->skip_unreachable;
	o.ssh.config = rf->ssh_config;
	o.ssh.options = rf->ssh_options.v;
	o.ssh.noptions = rf->ssh_options.n;
	o.ssh.remote_iomatrix = rf->remote;
	o.parallel = (unsigned)rf->parallel;
	o.run = *c;
	return fleet_run(&o);
}
