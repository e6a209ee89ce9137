/*
 * main.c - the iomatrix command line: dispatch to subcommands (cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The commands that make result sets; report_commands (report/) read them. */
static const struct command bench_commands[] = {
	{ "run", cmd_run, "run SUITE.yaml [--device NAME=PATH]... [--out DIR] [--resume SETDIR] [--scale F] [--yes-destroy-data] [--quiet]" },
	{ "plan", cmd_plan, "plan SUITE.yaml [--format text|json]" },
	{ "validate", cmd_validate, "validate SUITE.yaml..." },
	{ "import", cmd_import, "import fio|sysbench|csv FILE... [--device NAME] [-o SETDIR]" },
	{ "export", cmd_export, "export fio SUITE.yaml [-o DIR]" },
	{ "agent", cmd_agent, "agent                 (started over ssh by run --hosts)" },
	{ NULL, NULL, NULL },
};

static const struct command *const tables[] = { bench_commands, report_commands };
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: iomatrix COMMAND [ARGS]\n\n"
		   "Reproducible storage benchmarks: expand a YAML suite into a matrix of\n"
		   "cells, run each with libaio/io_uring/psync, archive a dated result set,\n"
		   "and turn result sets into Markdown/HTML/CSV reports with charts.\n\n"
		   "commands:\n");
	for (size_t t = 0; t < NTABLES; t++)
		for (const struct command *c = tables[t]; c->name; c++)
			fprintf(f, "  iomatrix %s\n", c->synopsis);
	fprintf(f, "\n  iomatrix --version | --help | COMMAND --help\n\n"
		   "exit codes: 0 ok, 1 runtime failure, 2 bad input or usage,\n"
		   "3 regression (compare --fail-on-regression), 130 interrupted\n");
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
	for (size_t t = 0; t < NTABLES; t++)
		for (const struct command *c = tables[t]; c->name; c++)
			if (!strcmp(argv[1], c->name))
				return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "iomatrix: unknown command '%s'; see 'iomatrix --help'\n",
		argv[1]);
	return EXIT_USAGE;
}
