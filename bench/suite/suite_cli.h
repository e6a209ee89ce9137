/*
 * suite_cli.h - the command-line options of the commands that load a suite:
 * validate, plan and export parse theirs here (--device NAME=PATH,
 * --scale F, and as each allows --format and -o DIR, then the suite
 * files); run and reproduce parse theirs by their tables (optspec.h) and
 * share the rows of run_shared_opts below, which suite_cli_scale() and the
 * same NAME=PATH rule check.
 */
#ifndef IOMATRIX_SUITE_CLI_H
#define IOMATRIX_SUITE_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "util/optspec.h"
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

/*
 * The options `run` and `reproduce` share (one table, suite_cli.c, that both
 * command_specs name as .shared): the device mapping, the output
 * directory, the scale, the destructive opt-in, --quiet and --progress.
 * reproduce hands them on to run's one code path.
 */
extern const struct option_spec run_shared_opts[];

struct run_shared {
	const char **devices;   /* "NAME=PATH" (fleet: "HOST:NAME=PATH"), owned
				 * array, borrowed strings */
	size_t ndevices;
	const char *out;        /* --out, or NULL */
	const char *scale_arg;  /* --scale as given, or NULL */
	double scale;           /* 0: not given */
	bool yes_destroy_data;
	bool quiet;
	const char *progress;   /* --progress: "auto" (NULL), "tty", "plain", "none" */
};

/* Room for argc devices; -1 (message printed) when out of memory. */
int run_shared_init(struct run_shared *s, int argc);
void run_shared_release(struct run_shared *s);

/* optspec_next() that takes the rows of run_shared_opts into s itself:
 * the next argument that is not one of them (1, p->opt and p->value set),
 * 0 at the end, -1 with the fix printed (a bad value of a shared option
 * included). */
int run_shared_next(struct optspec_parse *p, struct run_shared *s);

#endif
