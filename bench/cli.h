/*
 * cli.h - the subcommands of the iomatrix binary.  Each takes the arguments
 * after its own name (argv[0] is the subcommand) and returns the exit code:
 * 0 success, 1 runtime failure, 2 bad input or usage, 3 regression found
 * (compare --fail-on-regression), 130 interrupted.
 *
 * bench/main.c dispatches through the tables below.  The commands that
 * read result sets (report, compare, list, ...) live in report/, which
 * fills report_commands[] below:
 * bench/ defines the interface and report/ implements it, so no file under
 * bench/ includes a report/ header (make check-layers proves it).
 */
#ifndef IOMATRIX_CLI_H
#define IOMATRIX_CLI_H


#include <stddef.h>

#include "common/cliopt.h"
#include "common/optspec.h"
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
int cmd_verify(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_unpack(int argc, char **argv);

/* The option table of each command (common/optspec.h), defined beside
 * the command's parser: its usage, its lines in `iomatrix --help` and its
 * bash completion come from it. */
extern const struct command_spec run_spec, plan_spec, validate_spec,
	export_spec, import_spec, agent_spec, report_spec, compare_spec,
	list_spec, history_spec, site_spec, verify_spec, pack_spec, unpack_spec;

/* One subcommand: its option table (which names it) and entry point. */
struct command {
	const struct command_spec *spec;
	int (*fn)(int argc, char **argv);
};

/* The commands that make result sets (bench/cli.c) and the ones that read
 * them (report/commands.c); each table ends with an entry whose spec is
 * NULL. */
extern const struct command bench_commands[];
extern const struct command report_commands[];

/* Every command's option table, bench's then report's, into out (room for
 * max); returns how many there are. */
size_t cli_command_specs(const struct command_spec **out, size_t max);

#endif
