/*
 * cliopt.h - the exit codes and the signal helpers that every command uses,
 * also the rooms below cmd/ (bench/run, fleet, import), so that no room
 * includes the commands' cli.h.  Options are parsed by each command's
 * table (util/optspec.h).
 */
#ifndef IOMATRIX_CLIOPT_H
#define IOMATRIX_CLIOPT_H

#include <signal.h>

#define EXIT_OK 0
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
#define EXIT_REGRESSION 3
#define EXIT_INCONCLUSIVE 4  /* compare --fail-on-inconclusive */
#define EXIT_INTERRUPTED 130

/* True when argv[1..] holds -h or --help (before any "--"): main.c then
 * prints the command's help instead of running it. */
int cli_wants_help(int argc, char **argv);

/* Hold SIGINT, SIGTERM and SIGHUP (the previous mask into *old, for
 * sigprocmask(SIG_SETMASK, old, NULL)) while a hidden temporary set
 * becomes a set or is removed, so that a signal never leaves one half
 * written (import, unpack; bounded work, no child inherits the mask). */
void cli_hold_signals(sigset_t *old);

/* Catch SIGINT, SIGTERM and SIGHUP into *flag (the signal's number; no
 * SA_RESTART) for work that polls it and undoes itself (unpack:
 * Ctrl-C always works, exit 130); cli_release_signals() puts the previous
 * handlers (old[3]) back. */
void cli_catch_signals(volatile sig_atomic_t *flag, struct sigaction old[3]);
void cli_release_signals(const struct sigaction old[3]);

#endif
