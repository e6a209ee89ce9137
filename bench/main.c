/*
 * main.c - the iomatrix command line: dispatch to subcommands (cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The commands that make result sets; report_commands (report/) read them. */
static const struct command bench_commands[] = {
	/* each synopsis names every option of the command's own --help
	 * (tests/integration/cli_help_matches.sh holds them to it); a second
	 * form of a command starts a new line with "\n" */
	{ "run", cmd_run, "run SUITE.yaml [--device NAME=PATH]... [--out DIR] [--resume SETDIR] [--scale F] [--yes-destroy-data] [--quiet] [--progress auto|tty|plain|none]\n"
	  "run SUITE.yaml --hosts H1,H2,... [--aggregate] [--ssh-config F] [--ssh-option O]... [--remote-iomatrix PATH] [--parallel N] [--skip-unreachable]" },
	{ "plan", cmd_plan, "plan SUITE.yaml [--format text|json] [--device NAME=PATH]... [--scale F]" },
	{ "validate", cmd_validate, "validate SUITE.yaml... [--device NAME=PATH]... [--scale F]" },
	{ "import", cmd_import, "import fio|sysbench|csv FILE... [--device NAME] [--mode M] [--bs SIZE] [--threads N] [-o SETDIR] [--title TEXT] [--host NAME] [--date WHEN]" },
	{ "export", cmd_export, "export fio SUITE.yaml [-o DIR] [--device NAME=PATH]... [--scale F]" },
	{ "agent", cmd_agent, "agent           (not for people: a fleet run starts it over ssh)" },
	{ NULL, NULL, NULL },
};

static const struct command *const tables[] = { bench_commands, report_commands };
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

/* "  iomatrix SYNOPSIS", wrapped before a " [" so no line passes 79
 * columns; continuation lines are indented by six. */
static void synopsis_print(FILE *f, const char *s)
{
	size_t col = (size_t)fprintf(f, "  iomatrix");
	while (*s) {
		if (*s == '\n') {   /* another form of the command */
			col = (size_t)fprintf(f, "\n  iomatrix");
			s++;
			continue;
		}
		const char *next = strstr(s + 1, " [");
		const char *nl = strchr(s, '\n');
		if (nl && (!next || nl < next))
			next = nl;
		size_t len = next ? (size_t)(next - s) : strlen(s);
		if (col + len + 1 > 79 && col > 12) {
			fprintf(f, "\n     ");
			col = 5;
		}
		col += (size_t)fprintf(f, "%s%.*s", col == 5 || s[0] == ' ' ? "" : " ", (int)len, s);
		s += len;
	}
	fputc('\n', f);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: iomatrix COMMAND [ARGS]\n\n"
		   "Reproducible storage benchmarks: expand a YAML suite into a matrix of\n"
		   "cells, run each with libaio/io_uring/psync, archive a dated result set,\n"
		   "and turn result sets into Markdown/HTML/CSV reports with charts.\n\n"
		   "commands:\n");
	for (size_t t = 0; t < NTABLES; t++)
		for (const struct command *c = tables[t]; c->name; c++)
			synopsis_print(f, c->synopsis);
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
