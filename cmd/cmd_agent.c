/*
 * cmd_agent.c - `iomatrix agent`: no options and no operands (its table
 * says so); SIGINT, SIGTERM and SIGHUP become a flag, and bench/fleet's
 * agent_run() (agent.h) serves the controller of `run --hosts` on
 * stdin/stdout.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fleet/agent.h"

/* Set by a signal; the agent polls it (agent_run's stop). */
static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	stop_flag = sig;
}

static const struct option_spec agent_opts[] = {
	{ NULL },
};

int cmd_agent(const struct cmd_call *c)
{
	struct sigaction sa;

	(void)c; /* no options, no operands */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a dead controller is EPIPE, then stop */
	stop_flag = 0;
	return agent_run(&stop_flag);
}

const struct command_spec agent_spec = {
	.name = "agent", .forms = { "" }, .opts = agent_opts,
	.note = "(not for people: a fleet run starts it over ssh)",
	.hidden = true,
	.about =
	"Not for people: 'iomatrix run SUITE --hosts H1,H2' starts it on each\n"
	"host through ssh and speaks newline-delimited JSON with it on\n"
	"stdin/stdout (docs/fleet.md).",
};
