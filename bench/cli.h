/*
 * cli.h - the subcommands of the iomatrix binary.  Each takes the arguments
 * after its own name (argv[0] is the subcommand) and returns the exit code:
 * 0 success, 1 runtime failure, 2 bad input or usage, 3 regression found
 * (compare --fail-on-regression), 130 interrupted.
 *
 * bench/main.c dispatches.  The commands that read result sets (report,
 * compare, list, ...) live in report/, which fills report_commands[] below:
 * bench/ defines the interface and report/ implements it, so no file under
 * bench/ includes a report/ header (make check-layers proves it).
 */
#ifndef IOMATRIX_CLI_H
#define IOMATRIX_CLI_H


#include "common/cliopt.h"
#include "common/version.h"

int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_site(int argc, char **argv);

/* One subcommand: its name, entry point and one-line synopsis for --help. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;
};

/* The result-reading commands, defined in report/commands.c; the table
 * ends with an entry whose name is NULL. */
extern const struct command report_commands[];

#endif
