/*
 * main.c - the iomatrix command line: the program's own options (commands.c's
 * main_spec: --help, the synopses of every command from their option
 * tables; --version; --complete, the bash completion's helper,
 * completion/iomatrix.bash; --dump-options and --parse-lines, the tables
 * for the tests),
 * `COMMAND --help` from the command's table, and dispatch to the
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

/* iomatrix --OPTION...: the program's own options. */
static int main_options(int argc, char **argv)
{
	struct main_opts o = { 0 };
	struct optlist words;
	const struct command_spec *specs[64];
	size_t n = cli_command_specs(specs, 64);
	int rc = EXIT_OK;

	if (optspec_parse(&main_spec, argc, argv, &o, &words) < 0)
		rc = EXIT_USAGE;
	else if (o.complete) /* the words after "--": the command line up to
			      * the word being completed */
		optspec_complete(stdout, &main_spec, specs, n, (int)words.n, (char **)words.v);
	else if (o.dump)
		optspec_dump(stdout, specs, n);
	else if (o.parse_lines)
		optspec_parse_lines(stdin, stdout, specs, n);
	else if (o.version)
		printf("iomatrix %s (git %s, %s)\n", iomatrix_version,
		       iomatrix_git_commit, iomatrix_compiler);
	else if (o.help)
		usage(stdout);
	else { /* "-" */
		fprintf(stderr, "iomatrix: unknown command '%s'; see 'iomatrix --help'\n", argv[1]);
		rc = EXIT_USAGE;
	}
	optspec_release(&main_spec, &o, &words);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argv[1][0] == '-')
		return main_options(argc, argv);
	const struct command *c = cli_find(argv[1]);
	if (!c) {
		fprintf(stderr, "iomatrix: unknown command '%s'; see 'iomatrix --help'\n",
			argv[1]);
		return EXIT_USAGE;
	}
	if (cli_wants_help(argc - 1, argv + 1)) {
		optspec_help(stdout, c->spec);
		return EXIT_OK;
	}
	return cli_call(c, argc - 1, argv + 1, NULL);
}
