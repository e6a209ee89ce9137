/*
 * cmd_reproduce.c - `iomatrix reproduce SET [--device NAME=PATH]...
 * [--scale F] [--out DIR] [--tolerance PCT] [--fail-if-not-reproduced]`:
 * parse, then report/reproduce/repro_flow.h's repro_reproduce() does the
 * rest: re-run a result set here from its own suite.yaml under the
 * received-set rule (bench/reproduce/received.h: the set supplies the
 * workload, this command line everything else), through run's one code
 * path (handed in: run_command), into a new set whose manifest records what
 * it reproduces; then judge it workload by workload.
 *
 * Exit: 0 judged; 1 a cell failed; 2 bad input (no mapping, changed suite,
 * an imported set without its parameters, a safety refusal); 3 with
 * --fail-if-not-reproduced when a workload was faster or slower beyond the
 * tolerance; 130 interrupted.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "reproduce/repro_flow.h"
#include "suite/suite_cli.h"

#define DEFAULT_TOLERANCE_PCT 10.0

enum { RO_TOLERANCE = 1, RO_FAIL };

/* --device, --out, --scale, --yes-destroy-data, --quiet and --progress are run's
 * (suite/suite_cli.h run_shared_opts): reproduce hands them on to run unchanged. */
static const struct option_spec reproduce_opts[] = {
	{ "--tolerance", NULL, "PCT", .id = RO_TOLERANCE },
	{ "--fail-if-not-reproduced", .id = RO_FAIL },
	{ NULL },
};

const struct command_spec reproduce_spec = {
	.name = "reproduce", .forms = { "SET|FILE" },
	.shared = run_shared_opts, .opts = reproduce_opts,
	.operand = OPTV_FILE, /* a set directory or a pack: bash offers both */
};

static void usage(FILE *f)
{
	optspec_usage(f, &reproduce_spec);
	fprintf(f,
		"\n"
		"Run a result set again here, from its own suite.yaml (its sha256 must\n"
		"match the manifest) with the same parameters, scale and seeds, into a\n"
		"new set whose manifest records the set it reproduces.  Then judge each\n"
		"workload: original ± CI, reproduction ± CI, their ratio and a verdict:\n"
		"\"reproduced\" when the confidence interval of the ratio lies within\n"
		"±tolerance, \"faster\" or \"slower\" when it lies wholly beyond it,\n"
		"\"inconclusive\" otherwise; and the differences between the two\n"
		"environments that could explain a miss.\n"
		"\n"
		"A received set supplies the workload and nothing else (SECURITY.md):\n"
		"every device its manifest or its suite names must be mapped with\n"
		"--device, no path, host or opt-in of the set is used (its hosts: are\n"
		"ignored, the cells run here), keep_files: true is refused, and every\n"
		"safety rule of 'run' applies.\n"
		"\n"
		"  --device NAME=PATH        where device NAME of the set is here (one\n"
		"                            for each device of its manifest and suite)\n"
		"  --scale F                 instead of the set's own scale\n"
		"  --out DIR                 write the new set to DIR\n"
		"  --tolerance PCT           a ratio within ±PCT %% is reproduced\n"
		"                            (default %g)\n"
		"  --fail-if-not-reproduced  exit 3 when a workload is faster or slower\n"
		"                            beyond the tolerance\n"
		"  --yes-destroy-data        writes to the block devices given with\n"
		"                            --device (the set's destructive: is ignored)\n"
		"  --quiet                   no progress output\n"
		"  --progress MODE           as for run: tty, plain, none or auto\n"
		"\n"
		"Prints the new set's directory, then one line per workload and the\n"
		"verdict; 'report ORIGINAL NEW' and 'compare ORIGINAL NEW' show the same.\n"
		"A packed set (FILE, from 'iomatrix pack') is unpacked into the results\n"
		"directory first and verified, as 'iomatrix unpack FILE' does.\n"
		"Exit: 0 judged, 1 a cell failed, 2 bad input, 3 not reproduced (with\n"
		"--fail-if-not-reproduced), 130 interrupted.\n", DEFAULT_TOLERANCE_PCT);
}

struct repro_args {
	const char *set;
	struct run_shared sh;       /* run's options, handed on to it */
	double tolerance;
	bool fail;
};

static int parse_tolerance(const char *v, double *out)
{
	char *end;
	double t = strtod(v, &end);
	if (*end == '%')
		end++;
	if (end == v || *end || !(t > 0 && t < 1000)) {
		fprintf(stderr, "iomatrix: bad --tolerance '%s' (a percentage above 0, e.g. 10)\n", v);
		return -1;
	}
	*out = t;
	return 0;
}

/* Parsed by the table (optspec_next): -1 with the fix printed. */
static int parse_args(int argc, char **argv, struct repro_args *a)
{
	struct optspec_parse p = { .c = &reproduce_spec, .argc = argc, .argv = argv, .i = 1 };
	int r;

	a->tolerance = DEFAULT_TOLERANCE_PCT;
	if (run_shared_init(&a->sh, argc) < 0)
		return -1;
	while ((r = run_shared_next(&p, &a->sh)) > 0) {
		if (p.opt && p.opt->id == RO_TOLERANCE)
			r = parse_tolerance(p.value, &a->tolerance);
		else if (p.opt && p.opt->id == RO_FAIL)
			a->fail = true;
		else if (!a->set)
			a->set = p.value;
		else {
			fprintf(stderr, "iomatrix: one set at a time ('%s' and '%s'); reproduce "
				"them one after the other\n", a->set, p.value);
			return -1;
		}
		if (r < 0)
			return -1;
	}
	if (r < 0)
		return -1;
	if (!a->set) {
		fprintf(stderr, "iomatrix: missing SET; see 'iomatrix reproduce --help'\n");
		return -1;
	}
	return 0;
}

int cmd_reproduce(int argc, char **argv)
{
	struct repro_args a = { 0 };
	int rc = EXIT_USAGE;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (parse_args(argc, argv, &a) == 0) {
		struct repro_request rq = { a.set, &a.sh, a.tolerance, a.fail, argc, argv };
		rc = repro_reproduce(&rq, run_command);
	}
	run_shared_release(&a.sh);
	return rc;
}
