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

void run_fleet_release(struct run_fleet *rf)
{
	free(rf->hosts);
	free(rf->hosts_buf);
	suite_free(rf->suite);
	rf->hosts = NULL;
	rf->hosts_buf = NULL;
	rf->suite = NULL;
}

/* --hosts "h1,h2,h3" -> rf->hosts (a copy is split in place). */
static int split_hosts(struct run_fleet *rf, const char *list)
{
	free(rf->hosts_buf);
	free(rf->hosts);
	rf->hosts_buf = strdup(list);
	rf->hosts = calloc(strlen(list) + 2, sizeof(*rf->hosts));
	if (!rf->hosts_buf || !rf->hosts) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return -1;
	}
	rf->nhosts = 0;
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
	free(rf->hosts);
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
	o.yes_destroy_data = c->yes_destroy_data;
	o.quiet = c->quiet;
	o.ssh.config = rf->ssh_config;
	o.ssh.options = rf->ssh_options.v;
	o.ssh.noptions = rf->ssh_options.n;
	o.ssh.remote_iomatrix = rf->remote;
	o.parallel = (unsigned)rf->parallel;
	o.suite_path = c->suite_path;
	o.set_dir = c->set_dir;
	o.set_dir_len = c->set_dir_len;
	o.devices = c->devices;
	o.ndevices = c->ndevices;
	o.out = c->out;
	o.resume = c->resume;
	o.scale = c->scale;
	o.argc = c->argc;
	o.argv = c->argv;
	o.stop = c->stop;
	return fleet_run(&o);
}
