/*
 * cliopt.c - helpers shared by the subcommands (cliopt.h).  Kept out of main.c so
 * that the unit-test programs, which link every library object but not
 * main.o, can link the subcommands too.
 */
#include <string.h>

#include "util/cliopt.h"

int cli_is_out(const char *arg)
{
	return !strcmp(arg, "-o") || !strcmp(arg, "--out") || !strcmp(arg, "--output");
}

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

void cli_hold_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, old);
}
