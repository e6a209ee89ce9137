/*
 * cmd_run.c - `iomatrix run`: its option table, SIGINT/SIGTERM turned into
 * a flag, and the rest handed to bench/run's run_suite() (run.h says what a
 * run does and its exit rule).
 */
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "run/run.h"
#include "util/monotime.h"
#include "util/testhook.h"

/* Set by the signal handler; the run polls it (run_suite's stop). */
static volatile sig_atomic_t stop_flag;
/* CLOCK_MONOTONIC of the first signal, for the test hook's stop_log */
static _Atomic uint64_t stop_ns;

static void on_signal(int sig)
{
	if (!stop_flag) /* clock_gettime is async-signal-safe */
		atomic_store(&stop_ns, mono_ns());
	stop_flag = sig;
}

#define FLEET(f) OPT_AT(struct run_opts, fleet.f)

/* Form 0 runs here, form 1 on a fleet; the rows shared with reproduce
 * come first (suite/suite_cli.h run_shared_opts). */
static const struct option_spec run_opts[] = {
	OPT_INCLUDE(run_shared_opts, struct run_opts, sh),
	{ "--resume", .kind = OPTK_DIR, .arg = "SETDIR", .flags = OPT_OPERAND,
	  OPT_AT(struct run_opts, resume),
	  .help = "run only the cells SETDIR lacks (same suite sha256 required; "
		  "SUITE.yaml may be omitted)" },
	{ "--hosts", .kind = OPTK_STRING, .arg = "H1,H2,...", .forms = OPT_FORM(1),
	  .flags = OPT_REQUIRED, FLEET(hosts_arg),
	  .section = "On a fleet, through ssh (docs/fleet.md):",
	  .help = "run on these ssh destinations (survey: each on its own disks); one "
		  "set <time>_<suite>_fleet.  --device HOST:NAME=PATH gives a device path "
		  "for one host only" },
	{ "--aggregate", .kind = OPTK_FLAG, .forms = OPT_FORM(1) | OPT_FORM(2), FLEET(aggregate),
	  .help = "every host runs each cell at the same instant (shared storage); the "
		  "set sums them exactly" },
	{ "--ssh-config", .kind = OPTK_FILE, .arg = "F", .forms = OPT_FORM(1),
	  FLEET(ssh_config), .help = "ssh -F F" },
	{ "--ssh-option", .kind = OPTK_STRING, .arg = "O", .forms = OPT_FORM(1),
	  .flags = OPT_REPEAT, FLEET(ssh_options), .help = "ssh -o O" },
	{ "--remote-iomatrix", .kind = OPTK_FILE, .arg = "PATH", .forms = OPT_FORM(1),
	  FLEET(remote), .help = "iomatrix on the hosts (default: on PATH)" },
	{ "--parallel", .kind = OPTK_INT, .forms = OPT_FORM(1), FLEET(parallel),
	  OPT_FROM_TO(1, 100000),
	  .help = "survey: hosts driven at once (default: all)" },
	{ "--skip-unreachable", .kind = OPTK_FLAG, .forms = OPT_FORM(1),
	  FLEET(skip_unreachable), .help = "run on the hosts that answer; record the rest" },
	/* a usage line of its own: under mpirun or srun, without --hosts */
	{ "--mpi", .kind = OPTK_FLAG, .forms = OPT_FORM(2), .flags = OPT_REQUIRED, FLEET(mpi),
	  .section = "On the ranks of mpirun or srun (docs/fleet.md):",
	  .help = "every rank is a host NODE:LOCAL_RANK of one fleet set; rank 0 writes "
		  "it.  With --aggregate as above; device paths may hold {rank}, {node}, "
		  "{local_rank}" },
	{ NULL },
};

/* Run o's suite with x's additions; SIGINT and SIGTERM stop it. */
static int run_parsed(struct run_opts *o, const struct run_extra *x, int argc, char **argv)
{
	struct sigaction sa, old_int, old_term;

	if (o->sh.out && o->resume) {
		fprintf(stderr, "iomatrix: '--out' and '--resume' exclude each other (a resumed set stays where it is)\n");
		return EXIT_USAGE;
	}
	/* A signal from here on means: finish quickly and keep what is done.
	 * Installed before the set exists so that no signal can kill the
	 * process between writing a 'running' manifest and the cell loop. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: let sleeps and waits return */
	stop_flag = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	int rc = run_suite(o, x, argc, argv, &stop_flag);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (stop_flag && atomic_load(&stop_ns))
		testhook_log("stop_log", "stopped_ms %.1f\n",
			     (double)(mono_ns() - atomic_load(&stop_ns)) / 1e6);
	return rc;
}

/* `iomatrix run`, or reproduce's run (c->extra, its struct run_extra):
 * the set a plain run made goes into its archive's index. */
int cmd_run(const struct cmd_call *c)
{
	struct run_opts *o = c->opts;
	char dir[PATH_MAX] = "";
	struct run_extra own = { .set_dir = dir, .set_dir_len = sizeof(dir) };

	o->suite_path = c->ops->n ? c->ops->v[0] : NULL;
	int rc = run_parsed(o, c->extra ? c->extra : &own, c->argc, c->argv);
	run_fleet_release(&o->fleet);
	if (dir[0])
		cmd_index_set_made(dir);
	return rc;
}

int run_command(int argc, char **argv, const struct run_extra *x)
{
	static const struct command run = { &run_spec, cmd_run };

	return cli_call(&run, argc, argv, x);
}

const struct command_spec run_spec = {
	.name = "run", .forms = { "SUITE.yaml", "SUITE.yaml", "SUITE.yaml" },
	OPTSPEC_OPTS(run_opts, struct run_opts),
	.operand = OPTK_SUITE,
	.about = "Run every cell of the suite and write a dated result set.",
	.epilog = "The set directory is printed on stdout.  Exit: 0 ok, 1 a cell failed,\n"
		  "2 bad input, 130 interrupted (finished cells kept; use --resume).",
};
