/*
 * cmd_validate.c - `iomatrix validate SUITE...`: load each suite strictly and
 * list every error of every file; exit 0 when all are valid, 2 otherwise.
 */
#include <stdio.h>

#include "cli.h"
#include "host/devpath.h"
#include "suite/suite_cli.h"

struct validate_args {
	struct suite_cli sc;
};

static const struct option_spec validate_opts[] = {
	OPT_INCLUDE(suite_cli_table, struct validate_args, sc),
	{ NULL },
};

int cmd_validate(const struct cmd_call *c)
{
	const struct validate_args *a = c->opts;
	const struct optlist *ops = c->ops;
	struct suite_opts so = suite_cli_opts(&a->sc);
	int rc = EXIT_OK;

	so.check_path = devpath_check;
	for (size_t i = 0; i < ops->n; i++) {
		struct errlist errs = ERRLIST_INIT, warns = ERRLIST_INIT;
		struct suite *s;
		so.warnings = &warns;
		int lr = suite_load(ops->v[i], &so, &s, &errs);
		errlist_print(&warns, stderr);
		errlist_release(&warns);
		if (lr == 0) {
			printf("%s: ok, %zu cell%s\n", ops->v[i], s->ncells,
			       s->ncells == 1 ? "" : "s");
			suite_free(s);
		} else {
			errlist_print(&errs, stderr);
			rc = EXIT_USAGE;
		}
		errlist_release(&errs);
	}
	return rc;
}

const struct command_spec validate_spec = {
	.name = "validate", .forms = { "SUITE.yaml..." },
	OPTSPEC_OPTS(validate_opts, struct validate_args),
	.operand = OPTK_SUITE, .more = suite_keys_help,
	.about =
	"Check suite files without running anything: prints 'SUITE: ok, N cells'\n"
	"for each valid file, or every error as file:line:col: message on stderr.\n"
	"A device path in /dev that is not a block device (a character device,\n"
	"a file) is an error: /dev is memory, iomatrix never creates files there.\n"
	"One that does not exist on this machine is a warning (the suite may be\n"
	"meant for another); run refuses it.",
	.epilog = "Exit 0 when all are valid, 2 otherwise.",
};
