/*
 * testhook.c - see testhook.h.  The environment is read once; the pause
 * talks over a FIFO so that a shell test can take part with `read` and
 * `echo`, and so that the process waits exactly as long as the test needs.
 */
#include "testhook.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
	char event[32];
	unsigned long n;
	bool every;             /* N+: at N and every count after it */
	int sig;                /* 0: pause */
	const char *fifo;
} hook;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;
static atomic_ulong hook_count;
static atomic_int hook_fired;

static void hook_parse(void)
{
	const char *v = getenv("IOMATRIX_TEST_HOOK");
	char act[16] = "pause";
	int len = 0;

	if (!v || !v[0])
		return;
	if (sscanf(v, "%31[a-z_]:%lu%n", hook.event, &hook.n, &len) != 2 || !hook.n)
		goto bad;
	if (v[len] == '+') {
		hook.every = true;
		len++;
	}
	if (v[len] && (v[len] != ':' || sscanf(v + len + 1, "%15s", act) != 1))
		goto bad;
	if (!strcmp(act, "pause"))
		hook.sig = 0;
	else if (!strcmp(act, "int"))
		hook.sig = SIGINT;
	else if (!strcmp(act, "term"))
		hook.sig = SIGTERM;
	else if (!strcmp(act, "stop"))
		hook.sig = SIGSTOP;
	else if (!strcmp(act, "kill"))
		hook.sig = SIGKILL;
	else
		goto bad;
	hook.fifo = getenv("IOMATRIX_TEST_FIFO");
	if (!hook.sig && (!hook.fifo || !hook.fifo[0]))
		goto bad;
	return;
bad:
	fprintf(stderr, "iomatrix: IOMATRIX_TEST_HOOK='%s' ignored: want EVENT:N[+][:pause|int|term|stop|kill] "
		"(pause needs IOMATRIX_TEST_FIFO)\n", v);
	hook.event[0] = '\0';
}

static void hook_pause(const char *event, unsigned long n)
{
	char line[64];
	int fd, len = snprintf(line, sizeof(line), "%s %lu\n", event, n);

	while ((fd = open(hook.fifo, O_WRONLY | O_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)len) < 0) {
		/* the test went away: do not wait for its answer */
		close(fd);
		return;
	}
	close(fd);
	while ((fd = open(hook.fifo, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (fd < 0)
		return;
	char c;
	ssize_t r;
	while ((r = read(fd, &c, 1)) > 0 || (r < 0 && errno == EINTR))
		if (r > 0 && c == '\n')
			break;
	close(fd);
}

unsigned long testhook_armed(const char *event)
{
	pthread_once(&hook_once, hook_parse);
	if (!hook.event[0] || strcmp(hook.event, event) || atomic_load(&hook_fired))
		return 0;
	return hook.n;
}

void testhook_fire(const char *event, unsigned long n)
{
	if (!testhook_armed(event) || (!hook.every && atomic_exchange(&hook_fired, 1)))
		return;
	if (hook.sig)
		kill(getpid(), hook.sig);
	else
		hook_pause(event, n);
}

void testhook_point(const char *event)
{
	unsigned long n = testhook_armed(event);

	if (!n)
		return;
	unsigned long k = atomic_fetch_add(&hook_count, 1) + 1;
	if (k == n || (hook.every && k > n))
		testhook_fire(event, k);
}
