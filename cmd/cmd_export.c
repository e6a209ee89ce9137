/*
 * cmd_export.c - `iomatrix export fio SUITE [-o DIR]`: load the suite and
 * hand it to bench/export's export_fio() (fio_export.h says what it
 * writes).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "export/fio_export.h"
#include "suite/suite_cli.h"

static const struct option_spec export_opts[] = {
	{ "-o", "--out --output", "DIR", .value = OPTV_DIR },
	{ "--device", NULL, "NAME=PATH", .flags = OPT_REPEAT },
	{ "--scale", NULL, "F" },
	{ NULL },
};

const struct command_spec export_spec = {
	.name = "export", .forms = { "fio SUITE.yaml" }, .opts = export_opts,
	.first_words = "fio", .operand = OPTV_SUITE,
};

static void export_usage(FILE *f)
{
	optspec_usage(f, &export_spec);
	fprintf(f, "\n"
		   "Write one fio job file per cell of the suite (NNNN-device-label-pattern.fio)\n"
		   "and run-all.sh, which runs them in order with --output-format=json.\n"
		   "Purge is a blkdiscard step that asks first, preconditioning pre-DEVICE-N.fio\n"
		   "jobs before the device's cells, rounds a loop; what fio cannot do (the\n"
		   "steady-state stop) is marked NOT THE SAME in the job files and on stderr.\n"
		   "run-all.sh writes a block device only with IOMATRIX_YES_DESTROY_DATA=1.\n"
		   "DIR defaults to ./fio-SUITE; it is created if needed.\n\n");
	suite_cli_help(f, SCLI_OUT);
}

int cmd_export(int argc, char **argv)
{
	struct suite_cli o;
	struct errlist errs = ERRLIST_INIT;
	struct suite *s = NULL;
	char dir[PATH_MAX];
	int rc = EXIT_USAGE;

	if (cli_wants_help(argc, argv)) {
		export_usage(stdout);
		return EXIT_OK;
	}
	if (argc < 2 || strcmp(argv[1], "fio")) {
		fprintf(stderr, "iomatrix: %s%s%s; the only format is 'fio'\n",
			argc < 2 ? "give a format" : "unknown format '",
			argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
		export_usage(stderr);
		return EXIT_USAGE;
	}
	if (suite_cli_parse(argc - 1, argv + 1, SCLI_OUT, "export", &o))
		return EXIT_USAGE;
	if (o.nfiles != 1) {
		fprintf(stderr, "iomatrix: give exactly one suite file\n");
		goto out;
	}
	struct suite_opts so = suite_cli_opts(&o);
	if (suite_load(o.files[0], &so, &s, &errs) < 0) {
		errlist_print(&errs, stderr);
		goto out;
	}
	if (o.outdir)
		snprintf(dir, sizeof(dir), "%s", o.outdir);
	else
		snprintf(dir, sizeof(dir), "fio-%s", s->name);
	rc = export_fio(s, dir);
out:
	suite_free(s);
	errlist_release(&errs);
	suite_cli_release(&o);
	return rc;
}
