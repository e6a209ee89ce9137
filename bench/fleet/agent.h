/*
 * agent.h - the far end of `run --hosts` (`iomatrix agent`, cmd/cmd_agent.c
 * parses and installs the signal handlers).  Started by the controller
 * through ssh, it speaks the fleet protocol (proto.h, docs/fleet.md) on
 * stdin/stdout: hello, clock pings, the suite, then per cell prepare ->
 * ready -> go at a time -> rep_done ... -> result.
 *
 * It stops within a second when told to, when stdin closes (the controller
 * or the connection died) or when the caller's flag is set, and always
 * removes the scratch files it made before it returns.  Nothing is written
 * outside the suite's device paths.
 */
#ifndef IOMATRIX_AGENT_H
#define IOMATRIX_AGENT_H

#include <signal.h>

/* Serve one controller until it ends the conversation.  *stop is the
 * caller's flag (its signal handlers set it; the agent sets it too when
 * its input ends).  Returns the exit code: 0 ended by the controller, 1
 * runtime failure, 2 bad input from the controller, 130 stopped. */
int agent_run(volatile sig_atomic_t *stop);

#endif
