/*
 * cli_call.c - the one head of every command (cli.h cli_call): parse argv
 * by the command's table into a fresh struct, call the command, print the
 * errors it listed, release.
 * Apart from the table (commands.c), so that run, which reproduce calls
 * back through here, does not reach up to the table that names it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cli_call(const struct command *c, int argc, char **argv, const void *extra)
{
	struct optlist ops = { 0 };
	void *opts = c->spec->opts_size ? optspec_opts_new(c->spec) : NULL;
	int rc = EXIT_USAGE;

	if (c->spec->opts_size && !opts) {
		fprintf(stderr, "iomatrix: out of memory\n");
		return EXIT_RUNTIME;
	}
	if (optspec_parse(c->spec, argc, argv, opts, &ops) == 0) {
		struct errlist errs = ERRLIST_INIT;
		struct cmd_call call = { opts, &ops, argc, argv, extra, &errs };
		rc = c->fn(&call);
		errlist_print_as(&errs, stderr, "iomatrix: ");
		errlist_release(&errs);
	}
	optspec_release(c->spec, opts, &ops);
	free(opts);
	return rc;
}
