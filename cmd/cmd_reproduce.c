/*
 * cmd_reproduce.c - `iomatrix reproduce SET [--device NAME=PATH]...
 * [--scale F] [--out DIR] [--tolerance PCT] [--fail-if-not-reproduced]`:
 * re-run a result set here from its own suite.yaml (sha256 checked against
 * its manifest), through run's one code path (every safety rule of `run`
 * applies), into a new set whose manifest records what it reproduces; then
 * judge it workload by workload (report/reproduce/repro.h's
 * repro_judge_sets).
 *
 * Exit: 0 judged; 1 a cell failed; 2 bad input (no mapping, changed suite,
 * an imported set without its parameters, a safety refusal); 3 with
 * --fail-if-not-reproduced when a workload was faster or slower beyond the
 * tolerance; 130 interrupted.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "util/sbuf.h"
#include "reproduce/reproduce.h"
#include "reproduce/repro.h"
#include "share/pack.h"
#include "resultset/reprofile.h"
#include "resultset/resultset.h"
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
		"environments that could explain a miss.  Every safety rule of 'run'\n"
		"applies.\n"
		"\n"
		"  --device NAME=PATH        where device NAME of the set is here (one\n"
		"                            for each device of the set)\n"
		"  --scale F                 instead of the set's own scale\n"
		"  --out DIR                 write the new set to DIR\n"
		"  --tolerance PCT           a ratio within ±PCT %% is reproduced\n"
		"                            (default %g)\n"
		"  --fail-if-not-reproduced  exit 3 when a workload is faster or slower\n"
		"                            beyond the tolerance\n"
		"  --yes-destroy-data        as for run: writes to block devices\n"
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

/* A packed set (FILE): unpacked into the results directory, verified
 * before it is visible (pack.h), and that set is the one reproduced.
 * 0 with dir filled, or -1 with the message printed and *rc set. */
static int repro_unpack(const char *file, char *dir, size_t dirlen, int *rc)
{
	char err[PATH_MAX + 512];
	bool warn = false;
	int r = resultset_unpack(file, resultset_root(), dir, dirlen, &warn, err, sizeof(err));

	if (r < 0) {
		fprintf(stderr, "iomatrix: reproduce: %s%s\n", err, r == -EEXIST ?
			"; reproduce that set directory instead" : "");
		*rc = r == -EINVAL || r == -EEXIST ? EXIT_USAGE : EXIT_RUNTIME;
		return -1;
	}
	if (warn)
		fprintf(stderr, "iomatrix: warning: '%s' has no SHA256SUMS (packed from a set "
			"written before checksums); it cannot be proven intact\n", dir);
	fprintf(stderr, "iomatrix: unpacked '%s' into '%s'\n", file, dir);
	return 0;
}

/* The set, checked: a directory (a packed FILE is unpacked first), its
 * suite unchanged, every device mapped, an imported set complete.  0 or -1
 * with the message printed and *rc set. */
static int repro_open(const struct repro_args *a, struct repro_original *o,
		      char *unpacked, size_t unpacked_len, int *rc)
{
	char err[PATH_MAX + 512];
	const char *set = a->set;
	struct stat st;
	struct sbuf e = SBUF_INIT;

	*rc = EXIT_USAGE;
	if (stat(set, &st) < 0) {
		fprintf(stderr, "iomatrix: cannot use '%s': %s; give a result-set directory "
			"or a pack file\n", set, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		if (repro_unpack(set, unpacked, unpacked_len, rc) < 0)
			return -1;
		set = unpacked;
	} else if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iomatrix: '%s' is neither a result-set directory nor a pack "
			"file\n", set);
		return -1;
	}
	if (reprofile_original_open(o, set, err, sizeof(err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", err);
		return -1;
	}
	if (reproduce_check_complete(o, &e) < 0 ||
	    reproduce_check_devices(o, a->sh.devices, a->sh.ndevices, &e) < 0) {
		fprintf(stderr, "iomatrix: %s", sbuf_str(&e));
		sbuf_release(&e);
		return -1;
	}
	sbuf_release(&e);
	if (strcmp(o->status, "complete") && !a->sh.quiet)
		fprintf(stderr, "iomatrix: warning: set '%s' is '%s': only its finished cells "
			"can be judged\n", set, o->status);
	return 0;
}

/* run's argv: run SUITE --device ... --scale F [--out DIR] [flags]. */
static char **run_argv(const struct repro_args *a, const struct repro_original *o,
		       char *scale, size_t scalelen, int *argc)
{
	char **v = calloc(a->sh.ndevices * 2 + 12, sizeof(*v));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = "run";
	v[n++] = (char *)o->suite_path;
	for (size_t i = 0; i < a->sh.ndevices; i++) {
		v[n++] = "--device";
		v[n++] = (char *)a->sh.devices[i];
	}
	snprintf(scale, scalelen, "%.17g", o->scale);
	v[n++] = "--scale";
	v[n++] = a->sh.scale_arg ? (char *)a->sh.scale_arg : scale;
	if (a->sh.out) {
		v[n++] = "--out";
		v[n++] = (char *)a->sh.out;
	}
	if (a->sh.yes_destroy_data)
		v[n++] = "--yes-destroy-data";
	if (a->sh.quiet)
		v[n++] = "--quiet";
	if (a->sh.progress) {
		v[n++] = "--progress";
		v[n++] = (char *)a->sh.progress;
	}
	*argc = n;
	return v;
}

int cmd_reproduce(int argc, char **argv)
{
	struct repro_args a = { 0 };
	struct repro_original o = { 0 };
	char scale[64], set_dir[PATH_MAX] = "", unpacked[PATH_MAX] = "";
	char **rv = NULL;
	int rargc = 0, rc = EXIT_USAGE;
	bool missed = false;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (parse_args(argc, argv, &a) < 0 ||
	    repro_open(&a, &o, unpacked, sizeof(unpacked), &rc) < 0)
		goto out;
	if (!(rv = run_argv(&a, &o, scale, sizeof(scale), &rargc))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (a.sh.scale_arg && !a.sh.quiet)
		fprintf(stderr, "iomatrix: warning: --scale %s instead of the set's %g: the "
			"numbers may differ for that reason alone\n", a.sh.scale_arg, o.scale);
	struct reproduces rp = { o.id, o.manifest_sha256, o.dir, a.tolerance };
	struct run_extra x = { o.suite_sha256, &rp, argc, argv, set_dir, sizeof(set_dir) };
	rc = run_command(rargc, rv, &x);
	if ((rc != EXIT_OK && rc != EXIT_RUNTIME) || !set_dir[0])
		goto out;
	int jr = repro_judge_sets(o.dir, set_dir, a.tolerance, stdout, &missed);
	if (jr != EXIT_OK)
		rc = jr;
	else if (rc == EXIT_OK && a.fail && missed)
		rc = EXIT_REGRESSION;
out:
	free(rv);
	run_shared_release(&a.sh);
	reprofile_original_release(&o);
	return rc;
}
