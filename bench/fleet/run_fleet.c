/*
 * run_fleet.c - the fleet options of `iomatrix run` (--hosts, --aggregate,
 * --ssh-config, --ssh-option, --remote-iomatrix, --parallel,
 * --skip-unreachable) and the hand-over to bench/fleet/.  cmd_run.c calls
 * run_fleet_option() for each option it does not know and run_fleet()
 * once the arguments are read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cliopt.h"
#include "fleet/fleet.h"
#include "run_fleet.h"
#include "suite/suite.h"

void run_fleet_init(struct run_fleet *rf, int argc)
{
	memset(rf, 0, sizeof(*rf));
	rf->hosts = calloc((size_t)argc + 1, sizeof(*rf->hosts));
	rf->ssh_options = calloc((size_t)argc + 1, sizeof(*rf->ssh_options));
}

void run_fleet_release(struct run_fleet *rf)
{
	free(rf->hosts);
	free(rf->ssh_options);
	free(rf->hosts_buf);
	suite_free(rf->suite);
}

static const char *value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool is(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

/* "h1,h2,h3" -> hosts (a copy is split in place). */
static int split_hosts(struct run_fleet *rf, const char *list, int argc)
{
	char *p;

	free(rf->hosts_buf);
	rf->hosts_buf = strdup(list);
	if (!rf->hosts_buf || !rf->hosts)
		return -1;
	free(rf->hosts);
	rf->hosts = calloc(strlen(list) / 2 + 2 + (size_t)argc, sizeof(*rf->hosts));
	if (!rf->hosts)
		return -1;
	rf->nhosts = 0;
	for (p = strtok(rf->hosts_buf, ","); p; p = strtok(NULL, ","))
		rf->hosts[rf->nhosts++] = p;
	return 0;
}

int run_fleet_option(struct run_fleet *rf, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *v;

	if (!rf->hosts || !rf->ssh_options) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return -1;
	}
	if (!strcmp(arg, "--aggregate")) {
		rf->aggregate = rf->aggregate_given = true;
	} else if (!strcmp(arg, "--skip-unreachable")) {
		rf->skip_unreachable = true;
	} else if (is(arg, "--hosts")) {
		if (!(v = value(argc, argv, i, "--hosts")) || !*v) {
			fprintf(stderr, "iomatrix: '--hosts' needs ssh destinations, e.g. --hosts web1,user@db2\n");
			return -1;
		}
		if (split_hosts(rf, v, argc) < 0)
			return -1;
		rf->hosts_given = true;
	} else if (is(arg, "--ssh-config")) {
		if (!(rf->ssh_config = value(argc, argv, i, "--ssh-config")) || !*rf->ssh_config) {
			fprintf(stderr, "iomatrix: '--ssh-config' needs a file (passed to ssh as -F)\n");
			return -1;
		}
	} else if (is(arg, "--ssh-option")) {
		if (!(v = value(argc, argv, i, "--ssh-option")) || !*v) {
			fprintf(stderr, "iomatrix: '--ssh-option' needs an ssh option, e.g. --ssh-option ConnectTimeout=5\n");
			return -1;
		}
		rf->ssh_options[rf->nssh_options++] = v;
	} else if (is(arg, "--remote-iomatrix")) {
		if (!(rf->remote = value(argc, argv, i, "--remote-iomatrix")) || !*rf->remote) {
			fprintf(stderr, "iomatrix: '--remote-iomatrix' needs the path of iomatrix on the hosts\n");
			return -1;
		}
	} else if (is(arg, "--parallel")) {
		char *end;
		long n;
		v = value(argc, argv, i, "--parallel");
		errno = 0;
		n = v ? strtol(v, &end, 10) : 0;
		if (!v || errno || end == v || *end || n < 1 || n > 100000) {
			fprintf(stderr, "iomatrix: bad --parallel '%s'; give the number of hosts to drive at once (1 or more)\n",
				v ? v : "");
			return -1;
		}
		rf->parallel = (unsigned)n;
	} else {
		return 0;
	}
	return 1;
}

bool run_fleet_wanted(struct run_fleet *rf, const char *suite_path,
		      const char *resume)
{
	struct errlist errs = ERRLIST_INIT;
	struct suite_opts so = { 0 };

	if (rf->hosts_given || (resume && fleet_is_set(resume)))
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
	if (!rf->aggregate_given && rf->suite->aggregate == 1)
		rf->aggregate = true;
	return true;
}

int run_fleet(struct run_fleet *rf, const struct run_fleet_common *c)
{
	struct fleet_opts o = { 0 };

	o.hosts = rf->hosts;
	o.nhosts = rf->nhosts;
	o.aggregate = rf->aggregate;
	o.skip_unreachable = rf->skip_unreachable;
	o.yes_destroy_data = c->yes_destroy_data;
	o.quiet = c->quiet;
	o.ssh.config = rf->ssh_config;
	o.ssh.options = rf->ssh_options;
	o.ssh.noptions = rf->nssh_options;
	o.ssh.remote_iomatrix = rf->remote;
	o.parallel = rf->parallel;
	o.suite_path = c->suite_path;
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
