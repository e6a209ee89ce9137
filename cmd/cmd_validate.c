/*
 * cmd_validate.c - `iomatrix validate SUITE...`: load each suite strictly and
 * list every error of every file; exit 0 when all are valid, 2 otherwise.
 */
#include <stdio.h>

#include "cli.h"
#include "host/devpath.h"
#include "suite/suite_cli.h"

static const struct option_spec validate_opts[] = {
	{ "--device", NULL, "NAME=PATH", .flags = OPT_REPEAT },
	{ "--scale", NULL, "F" },
	{ NULL },
};

const struct command_spec validate_spec = {
	.name = "validate", .forms = { "SUITE.yaml..." }, .opts = validate_opts,
	.operand = OPTV_SUITE,
};

static void validate_usage(FILE *f)
{
	optspec_usage(f, &validate_spec);
	fprintf(f, "\n"
		   "Check suite files without running anything: prints 'SUITE: ok, N cells'\n"
		   "for each valid file, or every error as file:line:col: message on stderr.\n"
		   "A device path in /dev that is not a block device (a character device,\n"
		   "a file) is an error: /dev is memory, iomatrix never creates files there.\n"
		   "One that does not exist on this machine is a warning (the suite may be\n"
		   "meant for another); run refuses it.\n"
		   "Exit 0 when all are valid, 2 otherwise.\n\n");
	suite_cli_help(f, 0);
	suite_keys_help(f);
}

int cmd_validate(int argc, char **argv)
{
	struct suite_cli o;
	int rc = EXIT_OK;

	if (cli_wants_help(argc, argv)) {
		validate_usage(stdout);
		return EXIT_OK;
	}
	if (suite_cli_parse(argc, argv, 0, "validate", &o))
		return EXIT_USAGE;
	if (!o.nfiles) {
		fprintf(stderr, "iomatrix: give at least one suite file\n");
		validate_usage(stderr);
		suite_cli_release(&o);
		return EXIT_USAGE;
	}
	struct suite_opts so = suite_cli_opts(&o);
	so.check_path = devpath_check;
	for (size_t i = 0; i < o.nfiles; i++) {
		struct errlist errs = ERRLIST_INIT, warns = ERRLIST_INIT;
		struct suite *s;
		so.warnings = &warns;
		int lr = suite_load(o.files[i], &so, &s, &errs);
		errlist_print(&warns, stderr);
		errlist_release(&warns);
		if (lr == 0) {
			printf("%s: ok, %zu cell%s\n", o.files[i], s->ncells,
			       s->ncells == 1 ? "" : "s");
			suite_free(s);
		} else {
			errlist_print(&errs, stderr);
			rc = EXIT_USAGE;
		}
		errlist_release(&errs);
	}
	suite_cli_release(&o);
	return rc;
}
