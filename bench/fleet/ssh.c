/*
 * ssh.c - ssh.h: spawn, watch and reap one ssh session per host.
 */
#include "ssh.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int ssh_check_host(const char *host, char *err, size_t errlen)
{
	size_t n = strlen(host);

	if (!n || n > 255) {
		snprintf(err, errlen, "host name of %zu bytes; give 1 to 255", n);
		return -1;
	}
	if (host[0] == '-') {
		snprintf(err, errlen, "host '%.64s' starts with '-', which ssh would take as an option", host);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)host[i];
		if (c <= 0x20 || c >= 0x7f || c == ',') {
			snprintf(err, errlen, "host name has a space, comma or control byte at byte %zu; give an ssh destination such as user@host or a config alias", i + 1);
			return -1;
		}
	}
	return 0;
}

int ssh_check_remote_path(const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path);

	if (!n || n > 4096 || path[0] == '-')
		goto bad;
	for (size_t i = 0; i < n; i++) {
		char c = path[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_./+-", c)))
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "--remote-iomatrix '%.200s' is not a plain path; the remote shell would interpret it (use letters, digits and _ . / + -)", path);
	return -1;
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int ssh_spawn(const struct ssh_opts *o, const char *host, struct ssh_conn *c,
	      char *err, size_t errlen)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, er[2] = { -1, -1 };
	const char **argv = NULL;
	size_t k = 0;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int ret;

	memset(c, 0, sizeof(*c));
	c->to_fd = c->from_fd = c->err_fd = -1;
	argv = calloc(o->noptions * 2 + 16, sizeof(*argv));
	if (!argv || pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
	    pipe2(er, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot start ssh: %s", strerror(errno));
		goto fail;
	}
	argv[k++] = "ssh";
	argv[k++] = "-o";
	argv[k++] = "BatchMode=yes";
	if (o->config) {
		argv[k++] = "-F";
		argv[k++] = o->config;
	}
	for (size_t i = 0; i < o->noptions; i++) {
		argv[k++] = "-o";
		argv[k++] = o->options[i];
	}
	argv[k++] = "-o";
	argv[k++] = "ServerAliveInterval=10";
	argv[k++] = "-o";
	argv[k++] = "ServerAliveCountMax=3";
	argv[k++] = host;
	argv[k++] = "--";
	argv[k++] = o->remote_iomatrix ? o->remote_iomatrix : "iomatrix";
	argv[k++] = "agent";
	argv[k] = NULL;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, er[1], 2);
	posix_spawnattr_init(&at);
	posix_spawnattr_setpgroup(&at, 0);
	sigset_t def;
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	ret = posix_spawnp(&c->pid, "ssh", &fa, &at, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (ret) {
		c->pid = 0;
		snprintf(err, errlen, "cannot run ssh: %s; install openssh-client", strerror(ret));
		ret = -ret;
		goto fail;
	}
	close(in[0]);
	close(out[1]);
	close(er[1]);
	c->to_fd = in[1];
	c->from_fd = out[0];
	c->err_fd = er[0];
	set_nonblock(c->from_fd);
	set_nonblock(c->err_fd);
	free(argv);
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0) close(in[i]);
		if (out[i] >= 0) close(out[i]);
		if (er[i] >= 0) close(er[i]);
	}
	free(argv);
	return ret;
}

void ssh_close_input(struct ssh_conn *c)
{
	if (c->to_fd >= 0) {
		close(c->to_fd);
		c->to_fd = -1;
	}
}

static int status_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

int ssh_poll_exit(struct ssh_conn *c)
{
	int st;
	pid_t p;

	if (c->pid <= 0)
		return -1;
	p = waitpid(c->pid, &st, WNOHANG);
	if (p != c->pid)
		return -1;
	c->pid = -st - 1; /* reaped: remember the status */
	return status_code(st);
}

int ssh_reap(struct ssh_conn *c, int timeout_ms)
{
	struct timespec ts = { 0, 10 * 1000000 };
	int r;

	if (c->pid < 0)
		return status_code(-(c->pid + 1));
	if (c->pid == 0)
		return -1;
	for (int waited = 0; ; waited += 10) {
		if ((r = ssh_poll_exit(c)) >= 0)
			return r;
		if (waited == timeout_ms)
			kill(-c->pid, SIGTERM);
		if (waited == timeout_ms + 500)
			kill(-c->pid, SIGKILL);
		if (waited > timeout_ms + 2000)
			return -1;
		nanosleep(&ts, NULL);
	}
}

void ssh_release(struct ssh_conn *c)
{
	ssh_close_input(c);
	if (c->from_fd >= 0)
		close(c->from_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->from_fd = c->err_fd = -1;
	if (c->pid > 0)
		ssh_reap(c, 0);
	c->pid = 0;
}
