/*
 * suite_cli.h - the command-line options of the commands that load a suite:
 * validate, plan and export parse theirs here (--device NAME=PATH,
 * --scale F, and as each allows --format and -o DIR, then the suite
 * files); run parses its own options and shares only suite_cli_scale().
 */
#ifndef IOMATRIX_SUITE_CLI_H
#define IOMATRIX_SUITE_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "suite/suite.h"

enum {
	SCLI_FORMAT = 1 << 0, /* --format text|json */
	SCLI_OUT = 1 << 1,    /* -o DIR / --out DIR */
};

struct suite_cli {
	const char **devices;  /* owned array, strings point into argv */
	size_t ndevices;
	double scale;          /* 0: none */
	const char *format;    /* NULL unless given */
	const char *outdir;    /* NULL unless given */
	const char **files;    /* owned array, strings point into argv */
	size_t nfiles;
};

/*
 * Parse argv[1..] of subcommand cmd.  allow: SCLI_* options accepted besides
 * --device and --scale.  Returns 0, or prints a message naming the problem to
 * stderr and returns 2 (EXIT_USAGE).  Release with suite_cli_release().
 */
int suite_cli_parse(int argc, char **argv, unsigned allow, const char *cmd,
		    struct suite_cli *o);
void suite_cli_release(struct suite_cli *o);
/* The lines of --help that describe these options (allow: the SCLI_*
 * options the command takes besides --device and --scale), then a blank
 * line. */
void suite_cli_help(FILE *f, unsigned allow);
/* The one --scale parser of run, plan, export and validate: a positive
 * finite factor up to SUITE_CLI_MAX_SCALE.  0, or -1 with the message
 * printed. */
#define SUITE_CLI_MAX_SCALE 1e6
int suite_cli_scale(const char *v, double *out);

/* The suite_opts view of o (points into o). */
struct suite_opts suite_cli_opts(const struct suite_cli *o);

#endif
