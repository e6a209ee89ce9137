/*
 * cli.h - the subcommands of the iomatrix binary.  Each takes the arguments
 * after its own name (argv[0] is the subcommand) and returns the exit code:
 * 0 success, 1 runtime failure, 2 bad input or usage, 3 regression found
 * (compare --fail-on-regression) or not reproduced (reproduce
 * --fail-if-not-reproduced), 4 an inconclusive change
 * (--fail-on-inconclusive), 130 interrupted.
 *
 * cmd/ is the commands room, above both halves: main.c dispatches through
 * the one table below (commands.c), each cmd_*.c declares its options as a
 * table (util/optspec.h) and the struct they fill, cli_call() parses argv
 * by it and releases what it parsed, and the command, handed the parsed
 * struct, calls into bench/ (which makes sets) or report/ (which reads
 * them) and prints.  A cmd_*.c reads as an engine's file does: the struct,
 * the option table, the command, and at the bottom its command_spec (the
 * name, forms and prose commands.c's table registers).
 * Nothing below cmd/ includes this header (make check-layers proves it).
 * The table is commands.c's: every cmd_*.c includes this header for its
 * own declarations and the table names every command, so no cli.c shares
 * its name.
 */
#ifndef IOMATRIX_CLI_H
#define IOMATRIX_CLI_H


#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reproduce/received.h"   /* struct run_extra */
#include "util/cliopt.h"
#include "util/errlist.h"
#include "util/optspec.h"
#include "util/version.h"

/* What the dispatcher (cli_call) hands a command: its options parsed by
 * its table into its spec's struct, its operands, and an error list.  All
 * are the dispatcher's, released when the command returns; the strings
 * point into argv. */
struct cmd_call {
	void *opts;                 /* the struct of the spec's OPTSPEC_OPTS; NULL
				     * for a command without options (agent) */
	const struct optlist *ops;  /* the operands */
	int argc;                   /* the command line, argv[0] the command's */
	char **argv;                /* name: what a set records of its making */
	const void *extra;          /* run: reproduce's struct run_extra; NULL */
	struct errlist *errs;       /* what the command adds here is printed
				     * ("iomatrix: " before each) after it
				     * returns, on stderr */
};

int cmd_run(const struct cmd_call *c);
int cmd_plan(const struct cmd_call *c);
int cmd_validate(const struct cmd_call *c);
int cmd_export(const struct cmd_call *c);
int cmd_import(const struct cmd_call *c);
int cmd_report(const struct cmd_call *c);
int cmd_compare(const struct cmd_call *c);
int cmd_list(const struct cmd_call *c);
int cmd_agent(const struct cmd_call *c);
int cmd_history(const struct cmd_call *c);
int cmd_site(const struct cmd_call *c);
int cmd_verify(const struct cmd_call *c);
int cmd_pack(const struct cmd_call *c);
int cmd_unpack(const struct cmd_call *c);
int cmd_reproduce(const struct cmd_call *c);
int cmd_index(const struct cmd_call *c);
int cmd_query(const struct cmd_call *c);

/* `iomatrix run` with x's additions (x NULL: cmd_run). */
int run_command(int argc, char **argv, const struct run_extra *x);

/* A command made the set at dir (run, import, unpack, reproduce): add it
 * to its archive's index when that has one (cmd_index.c; a failure is a
 * warning: the set is fine, `iomatrix index` repairs the index). */
void cmd_index_set_made(const char *dir);
/* import and unpack made the set at dir: its path on stdout, flushed
 * before the index's warnings can follow on stderr, then
 * cmd_index_set_made(). */
void cmd_index_set_said(const char *dir);

/* The option table of each command (util/optspec.h), defined beside the
 * command: its parsing, `iomatrix CMD --help`, its lines in `iomatrix
 * --help`, the man page and its bash completion come from it.  main.c
 * answers CMD --help from it before calling the command. */
extern const struct command_spec run_spec, plan_spec, validate_spec,
	export_spec, import_spec, agent_spec, report_spec, compare_spec,
	list_spec, history_spec, site_spec, verify_spec, pack_spec, unpack_spec,
	reproduce_spec, index_spec, query_spec;

/* history's --threshold and --same (into struct hist_opts), which site
 * includes: its trend charts mark history's change points. */
extern const struct option_spec history_series_opts[];

/* The program's own options (main_spec, commands.c): --help, --version and,
 * hidden, --complete, --dump-options and --parse-lines. */
struct main_opts {
	bool help, version, complete, dump, parse_lines;
};
extern const struct command_spec main_spec;

/* One subcommand: its option table (which names it) and entry point. */
struct command {
	const struct command_spec *spec;
	int (*fn)(const struct cmd_call *c);
};

/* Every command, those that make result sets then those that read them
 * (cmd/commands.c); the table ends with an entry whose spec is NULL. */
extern const struct command commands[];

/* The command named name, or NULL. */
const struct command *cli_find(const char *name);

/* Run command c on argv (argv[0] its name): its options parsed by its
 * table into a fresh struct (optspec_opts_new), c->fn called with them and
 * extra, then everything the parse made released.  Returns c->fn's exit
 * code; EXIT_USAGE when the command line is refused (the parser said why
 * on stderr), EXIT_RUNTIME when out of memory. */
int cli_call(const struct command *c, int argc, char **argv, const void *extra);

/* Every command's option table, in the table's order, into out (room for
 * max); returns how many there are. */
size_t cli_command_specs(const struct command_spec **out, size_t max);

#endif
