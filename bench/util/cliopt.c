/*
 * cliopt.c - helpers shared by the subcommands (cliopt.h).  Kept out of main.c so
 * that the unit-test programs, which link every library object but not
 * main.o, can link the subcommands too.
 */
#include <string.h>

#include "util/cliopt.h"

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

static volatile sig_atomic_t *caught;

static void on_catch(int sig)
{
	if (caught)
		*caught = sig;
}

static const int catch_sigs[3] = { SIGINT, SIGTERM, SIGHUP };

void cli_catch_signals(volatile sig_atomic_t *flag, struct sigaction old[3])
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_catch;
	sigemptyset(&sa.sa_mask);
	*flag = 0;
	caught = flag;
	for (int i = 0; i < 3; i++)
		sigaction(catch_sigs[i], &sa, &old[i]);
}

void cli_release_signals(const struct sigaction old[3])
{
	for (int i = 0; i < 3; i++)
		sigaction(catch_sigs[i], &old[i], NULL);
	caught = NULL;
}
