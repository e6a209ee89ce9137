/*
 * ssh.h - the transport: one OpenSSH session per host running
 * `REMOTE_IOMATRIX agent`, started with a fixed argv (never a shell string
 * built from suite or host data):
 *
 *   ssh -o BatchMode=yes [-F CONFIG] [-o OPT]... -o ServerAliveInterval=10
 *       -o ServerAliveCountMax=3 HOST -- REMOTE_IOMATRIX agent
 *
 * The user's -o options come before ours, and ssh keeps the first value it
 * sees, so theirs win (BatchMode excepted: a password prompt would hang).
 * ssh runs in its own process group so that a Ctrl-C on the terminal
 * reaches only the controller, which then stops the agents in order.
 */
#ifndef IOMATRIX_FLEET_SSH_H
#define IOMATRIX_FLEET_SSH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ssh_opts {
	const char *config;            /* -F, or NULL */
	const char *const *options;    /* each passed as -o OPT */
	size_t noptions;
	const char *remote_iomatrix;   /* NULL: "iomatrix" on the remote PATH */
};

struct ssh_conn {
	pid_t pid;        /* 0 when not running */
	int to_fd;        /* agent's stdin (blocking writes) */
	int from_fd;      /* agent's stdout (non-blocking) */
	int err_fd;       /* ssh's stderr (non-blocking) */
};

/*
 * Is `host` usable as an ssh destination?  Refuses what ssh would take as
 * an option (leading '-'), whitespace and control bytes, and names over 255
 * bytes.  0, or -1 with the reason in err.
 */
int ssh_check_host(const char *host, char *err, size_t errlen);
/* The remote command is joined by ssh and run by the remote user's shell:
 * refuse anything but a plain path ([A-Za-z0-9_./+-], no leading '-'). */
int ssh_check_remote_path(const char *path, char *err, size_t errlen);

/* Start the session.  0, or -errno with the reason in err. */
int ssh_spawn(const struct ssh_opts *o, const char *host, struct ssh_conn *c,
	      char *err, size_t errlen);
/* Close our ends of the pipes (the agent sees end of input). */
void ssh_close_input(struct ssh_conn *c);
/* Wait for ssh to exit, up to timeout_ms; then SIGTERM its process group,
 * and SIGKILL after another 500 ms.  Returns the exit status as a shell
 * would show it (0..255, 128+signal), -1 if it could not be reaped. */
int ssh_reap(struct ssh_conn *c, int timeout_ms);
/* Non-blocking: exit status if ssh has exited, -1 if still running. */
int ssh_poll_exit(struct ssh_conn *c);
void ssh_release(struct ssh_conn *c);

#endif
