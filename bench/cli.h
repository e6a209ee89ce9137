/*
 * cli.h - the subcommands of the iomatrix binary.  Each takes the arguments
 * after its own name (argv[0] is the subcommand) and returns the exit code:
 * 0 success, 1 runtime failure, 2 bad input or usage, 3 regression found
 * (compare --fail-on-regression), 130 interrupted.
 *
 * bench/main.c dispatches; the report-side commands are implemented in
 * report/ (which may include bench/ headers; bench/ never includes report/).
 */
#ifndef IOMATRIX_CLI_H
#define IOMATRIX_CLI_H

#define EXIT_OK 0
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define EXIT_REGRESSION 3
#define EXIT_INTERRUPTED 130

int cmd_run(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_import(int argc, char **argv);

/* Version string and the git commit the binary was built from. */
extern const char iomatrix_version[];
extern const char iomatrix_git_commit[];
extern const char iomatrix_compiler[];

/* True when argv[1..] holds -h or --help. */
int cli_wants_help(int argc, char **argv);

#endif
