/*
 * cmd_run.c - `iomatrix run`: parse the command line, turn SIGINT/SIGTERM
 * into a flag, and hand the rest to bench/run's run_suite() (run.h says
 * what a run does and its exit rule).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "run/run.h"

/* Set by the signal handler; the run polls it (run_suite's stop). */
static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	stop_flag = sig;
}

enum { RUN_RESUME = 1 };

/* Form 0 runs here, form 1 on a fleet (fleet/run_fleet.c takes those);
 * the rows shared with reproduce come first (suite/suite_cli.h run_shared_opts). */
static const struct option_spec run_opts[] = {
	{ "--resume", NULL, "SETDIR", .value = OPTV_DIR, .id = RUN_RESUME },
	{ "--hosts", NULL, "H1,H2,...", OPT_FORM(1), OPT_REQUIRED },
	{ "--aggregate", .forms = OPT_FORM(1) },
	{ "--ssh-config", NULL, "F", OPT_FORM(1), .value = OPTV_FILE },
	{ "--ssh-option", NULL, "O", OPT_FORM(1), OPT_REPEAT },
	{ "--remote-iomatrix", NULL, "PATH", OPT_FORM(1), .value = OPTV_FILE },
	{ "--parallel", NULL, "N", OPT_FORM(1) },
	{ "--skip-unreachable", .forms = OPT_FORM(1) },
	{ "--mpi", .forms = OPT_FORM(1) },
	{ NULL },
};

const struct command_spec run_spec = {
	.name = "run", .forms = { "SUITE.yaml", "SUITE.yaml" },
	.shared = run_shared_opts, .opts = run_opts, .operand = OPTV_SUITE,
};

static void usage(FILE *f)
{
	optspec_usage(f, &run_spec);
	fprintf(f,
		"\n"
		"Run every cell of the suite and write a dated result set.\n"
		"\n"
		"  --device NAME=PATH  run device NAME of the suite on PATH instead\n"
		"  --out DIR           write the set to DIR (default: a new\n"
		"                      <time>_<suite>_<host> directory under\n"
		"                      $IOMATRIX_RESULTS or ./results)\n"
		"  --resume SETDIR     run only the cells SETDIR lacks (same suite\n"
		"                      sha256 required; SUITE.yaml may be omitted)\n"
		"  --scale F           multiply size, runtime, requests, io_size,\n"
		"                      ramp and cooldown by F (a quick rehearsal)\n"
		"  --yes-destroy-data  confirm writes to block devices marked\n"
		"                      'destructive: true' in the suite\n"
		"  --quiet             no progress output\n"
		"  --progress MODE     how a running cell reports: tty (one line\n"
		"                      rewritten in place on stderr), plain (one line\n"
		"                      per second on stderr, also when redirected),\n"
		"                      none; auto (default): tty when stderr is a\n"
		"                      terminal, else none.  Each finished cell prints\n"
		"                      one line in every mode but --quiet\n"
		"\n"
		"On a fleet, through ssh (docs/fleet.md):\n"
		"  --hosts H1,H2,...   run on these ssh destinations (survey: each on\n"
		"                      its own disks); one set <time>_<suite>_fleet\n"
		"  --aggregate         every host runs each cell at the same instant\n"
		"                      (shared storage); the set sums them exactly\n"
		"  --ssh-config FILE   ssh -F FILE     --ssh-option OPT   ssh -o OPT\n"
		"  --remote-iomatrix PATH  iomatrix on the hosts (default: on PATH)\n"
		"  --parallel N        survey: hosts driven at once (default all)\n"
		"  --skip-unreachable  run on the hosts that answer; record the rest\n"
		"  --device HOST:NAME=PATH  a device path for one host only\n"
		"\n"
		"On the ranks of mpirun or srun (docs/fleet.md):\n"
		"  --mpi               every rank is a host NODE:LOCAL_RANK of one fleet\n"
		"                      set; rank 0 writes it.  With --aggregate as above;\n"
		"                      device paths may hold {rank}, {node}, {local_rank}\n"
		"\n"
		"The set directory is printed on stdout.  Exit: 0 ok, 1 a cell failed,\n"
		"2 bad input, 130 interrupted (finished cells kept; use --resume).\n");
}

/* Parsed by the table (optspec_next): run's own rows, the rows it shares
 * with reproduce (suite_cli.h) and the fleet's (fleet/run_fleet.c).  -1 with
 * the fix printed. */
static int parse_args(int argc, char **argv, struct run_opts *a)
{
	struct optspec_parse p = { .c = &run_spec, .argc = argc, .argv = argv, .i = 1 };
	int r;

	memset(a, 0, sizeof(*a));
	run_fleet_init(&a->fleet, argc);
	if (run_shared_init(&a->sh, argc) < 0)
		return -1;
	while ((r = run_shared_next(&p, &a->sh)) > 0) {
		if (p.opt && p.opt->id == RUN_RESUME)
			a->resume = p.value;
		else if (p.opt)
			r = run_fleet_option(&a->fleet, p.opt->name, p.value);
		else if (!a->suite_path)
			a->suite_path = p.value;
		else {
			fprintf(stderr, "iomatrix: one suite at a time ('%s' and '%s'); run them one after the other\n",
				a->suite_path, p.value);
			return -1;
		}
		if (r < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	if (a->sh.out && a->resume) {
		fprintf(stderr, "iomatrix: '--out' and '--resume' exclude each other (a resumed set stays where it is)\n");
		return -1;
	}
	if (!a->suite_path && !a->resume) {
		fprintf(stderr, "iomatrix: missing SUITE.yaml; see 'iomatrix run --help'\n");
		return -1;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	return run_command(argc, argv, NULL);
}

int run_command(int argc, char **argv, const struct run_extra *x)
{
	struct run_opts o;
	struct sigaction sa, old_int, old_term;
	int rc;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (parse_args(argc, argv, &o) < 0) {
		rc = EXIT_USAGE;
		goto out;
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
	rc = run_suite(&o, x, argc, argv, &stop_flag);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	run_shared_release(&o.sh);
	run_fleet_release(&o.fleet);
	return rc;
}
