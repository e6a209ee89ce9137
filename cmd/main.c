/*
 * main.c - the iomatrix command line: --help (the synopses of every
 * command, from their option tables), --version, --complete (the bash
 * completion's helper, completion/iomatrix.bash) and dispatch to the
 * subcommands of cli.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: iomatrix COMMAND [ARGS]\n\n"
		   "Reproducible storage benchmarks: expand a YAML suite into a matrix of\n"
		   "cells, run each with libaio/io_uring/psync, archive a dated result set,\n"
		   "and turn result sets into Markdown/HTML/CSV reports with charts.\n\n"
		   "commands:\n");
	for (const struct command *c = commands; c->spec; c++)
		optspec_synopsis(f, c->spec);
	fprintf(f, "\n  iomatrix --version | --help | COMMAND --help\n\n"
		   "exit codes: 0 ok, 1 runtime failure, 2 bad input or usage,\n"
		   "3 regression (compare --fail-on-regression) or not reproduced\n"
		   "(reproduce --fail-if-not-reproduced), 4 inconclusive change\n"
		   "(--fail-on-inconclusive), 130 interrupted\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("iomatrix %s (git %s, %s)\n", iomatrix_version,
		       iomatrix_git_commit, iomatrix_compiler);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--complete")) {
		/* completion/iomatrix.bash asks: the words after "--" are the
		 * command line up to the word being completed */
		const struct command_spec *specs[64];
		size_t n = cli_command_specs(specs, 64);
		int skip = argc > 2 && !strcmp(argv[2], "--") ? 3 : 2;
		optspec_complete(stdout, specs, n, argc - skip, argv + skip);
		return EXIT_OK;
	}
	for (const struct command *c = commands; c->spec; c++)
		if (!strcmp(argv[1], c->spec->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "iomatrix: unknown command '%s'; see 'iomatrix --help'\n",
		argv[1]);
	return EXIT_USAGE;
}
