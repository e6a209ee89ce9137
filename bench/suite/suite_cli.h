/*
 * suite_cli.h - the command-line options of the commands that load a
 * suite, as rows of option tables (util/optspec.h): --device NAME=PATH and
 * --scale F (suite_cli_table: plan, validate, export, run and reproduce
 * include it), and the options run shares with reproduce, which hands
 * them on to run (run_shared_opts: the suite's rows, --out,
 * --yes-destroy-data, --quiet, --progress).
 */
#ifndef IOMATRIX_SUITE_CLI_H
#define IOMATRIX_SUITE_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "util/optspec.h"
#include "suite/suite.h"

/* The largest --scale: a positive factor up to this. */
#define SUITE_CLI_MAX_SCALE 1e6

/* What suite_cli_table's rows parse into. */
struct suite_cli {
	struct optlist devices; /* "NAME=PATH" (a fleet's run also
				 * "HOST:NAME=PATH"), in the order given */
	double scale;           /* 0: not given */
};
extern const struct option_spec suite_cli_table[];

/* The suite_opts view of o (points into o). */
struct suite_opts suite_cli_opts(const struct suite_cli *o);
/* suite_load() of path with o's --device and --scale: the suite (the
 * caller's, suite_free), or NULL with every error printed to stderr
 * (plan, export). */
struct suite *suite_cli_load(const struct suite_cli *o, const char *path);

/* What run_shared_opts' rows parse into. */
struct run_shared {
	struct suite_cli sc;    /* --device, --scale */
	const char *out;        /* --out, or NULL */
	bool yes_destroy_data;
	bool quiet;
	const char *progress;   /* --progress: "auto" (NULL), "tty", "plain", "none" */
};
extern const struct option_spec run_shared_opts[];

#endif
