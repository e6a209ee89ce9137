/*
 * main.c - the iomatrix command line: dispatch to subcommands (cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run SUITE.yaml [--device NAME=PATH]... [--out DIR] [--resume SETDIR] [--scale F] [--yes-destroy-data] [--quiet]" },
	{ "plan", cmd_plan, "plan SUITE.yaml [--format text|json]" },
	{ "validate", cmd_validate, "validate SUITE.yaml..." },
	{ "report", cmd_report, "report SET... [-o DIR] [--baseline DEVICE] [--format md,html,csv,json] [--charts svg,png|none] [--template DIR] [--title TEXT]" },
	{ "compare", cmd_compare, "compare OLD_SET NEW_SET [-o DIR] [--threshold PCT] [--fail-on-regression]" },
	{ "list", cmd_list, "list [RESULTS_DIR]" },
	{ "import", cmd_import, "import fio|sysbench|csv FILE... [--device NAME] [-o SETDIR]" },
	{ "export", cmd_export, "export fio SUITE.yaml [-o DIR]" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: iomatrix COMMAND [ARGS]\n\n"
		   "Reproducible storage benchmarks: expand a YAML suite into a matrix of\n"
		   "cells, run each with libaio/io_uring/psync, archive a dated result set,\n"
		   "and turn result sets into Markdown/HTML/CSV reports with charts.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  iomatrix %s\n", commands[i].synopsis);
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
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "iomatrix: unknown command '%s'; see 'iomatrix --help'\n",
		argv[1]);
	return EXIT_USAGE;
}
