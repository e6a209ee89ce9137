/*
 * suite_cli.c - the option rows of the commands that load a suite
 * (suite_cli.h), so --device and --scale are one row each, whichever
 * command takes them, and the one load of a suite from them.
 */
#include <stdio.h>

#include "suite_cli.h"

const struct option_spec suite_cli_table[] = {
	{ "--device", .kind = OPTK_PAIR, .arg = "NAME=PATH", .flags = OPT_REPEAT,
	  OPT_AT(struct suite_cli, devices),
	  .help = "device NAME of the suite is PATH instead (a directory, a file or a "
		  "block device)" },
	{ "--scale", .kind = OPTK_NUMBER, .arg = "F", OPT_AT(struct suite_cli, scale),
	  OPT_ABOVE_TO(0, SUITE_CLI_MAX_SCALE),
	  .help = "multiply size, runtime, requests, io_size, ramp and cooldown by F (a "
		  "quick rehearsal; every report of the set says so)" },
	{ NULL },
};

struct suite_opts suite_cli_opts(const struct suite_cli *o)
{
	struct suite_opts so = { o->devices.v, o->devices.n, o->scale };
	return so;
}

struct suite *suite_cli_load(const struct suite_cli *o, const char *path)
{
	struct suite_opts so = suite_cli_opts(o);
	struct errlist errs = ERRLIST_INIT;
	struct suite *s = NULL;

	if (suite_load(path, &so, &s, &errs) < 0)
		errlist_print(&errs, stderr);
	errlist_release(&errs);
	return s;
}

const struct option_spec run_shared_opts[] = {
	OPT_INCLUDE(suite_cli_table, struct run_shared, sc),
	{ "--out", "-o --output", .kind = OPTK_DIR, OPT_AT(struct run_shared, out),
	  .help = "write the set to DIR (default: a new <time>_<suite>_<host> directory "
		  "under $IOMATRIX_RESULTS or ./results)" },
	{ "--yes-destroy-data", .kind = OPTK_FLAG, OPT_AT(struct run_shared, yes_destroy_data),
	  .help = "confirm writes to block devices marked 'destructive: true' in the suite" },
	{ "--quiet", "-q", .kind = OPTK_FLAG, OPT_AT(struct run_shared, quiet),
	  .help = "no progress output" },
	{ "--progress", .kind = OPTK_WORD, .arg = "auto|tty|plain|none",
	  .words = "auto tty plain none", OPT_AT(struct run_shared, progress),
	  .help = "how a running cell reports: tty (one line rewritten in place on stderr), "
		  "plain (one line per second on stderr, also when redirected), none; auto "
		  "(default): tty when stderr is a terminal, else none.  Each finished cell "
		  "prints one line in every mode but --quiet" },
	{ NULL },
};
