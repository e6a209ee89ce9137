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
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the settings testhook.h lists; any other NAME=VALUE is a mistake */
static const char *const setting_names[] = {
	"fifo", "proc", "fleet_silence_ms", "fleet_line_ms", "fleet_cell_ms", "parse_only",
	"stop_log",
};
#define NSETTINGS (sizeof(setting_names) / sizeof(setting_names[0]))

static struct {
	char event[32];
	unsigned long n;
	bool every;             /* N+: at N and every count after it */
	int sig;                /* 0: pause */
	const char *set[NSETTINGS]; /* into text, NULL when not given */
	char text[4096];        /* the variable, its commas made NULs */
} hook;
static pthread_once_t hook_once = PTHREAD_ONCE_INIT;
static atomic_ulong hook_count;
static atomic_int hook_fired;

/* One EVENT:N[+][:ACTION] item; -1 when malformed. */
static int parse_event(const char *v)
{
	char act[16] = "pause";
	int len = 0;

	if (sscanf(v, "%31[a-z_]:%lu%n", hook.event, &hook.n, &len) != 2 || !hook.n)
		return -1;
	if (v[len] == '+') {
		hook.every = true;
		len++;
	}
	if (v[len] && (v[len] != ':' || sscanf(v + len + 1, "%15s", act) != 1))
		return -1;
	static const struct { const char *name; int sig; } acts[] = {
		{ "pause", 0 }, { "int", SIGINT }, { "term", SIGTERM },
		{ "stop", SIGSTOP }, { "kill", SIGKILL },
	};
	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
		if (!strcmp(act, acts[i].name)) {
			hook.sig = acts[i].sig;
			return 0;
		}
	return -1;
}

/* One NAME=VALUE item (eq points at its '='); -1 for an unknown name. */
static int parse_setting(char *item, char *eq)
{
	*eq = '\0';
	for (size_t i = 0; i < NSETTINGS; i++)
		if (!strcmp(item, setting_names[i])) {
			hook.set[i] = eq + 1;
			return 0;
		}
	*eq = '=';
	return -1;
}

/* A setting's value, NULL when not given (empty counts as not given). */
static const char *setting(const char *name)
{
	for (size_t i = 0; i < NSETTINGS; i++)
		if (!strcmp(name, setting_names[i]))
			return hook.set[i] && hook.set[i][0] ? hook.set[i] : NULL;
	return NULL;
}

static void hook_parse(void)
{
	const char *v = getenv("IOMATRIX_TEST_HOOK");

	if (!v || !v[0])
		return;
	if (strlen(v) >= sizeof(hook.text)) {
		fprintf(stderr, "iomatrix: IOMATRIX_TEST_HOOK ignored: longer than %zu bytes\n",
			sizeof(hook.text) - 1);
		return;
	}
	strcpy(hook.text, v);
	int events = 0, armed = 0;
	for (char *item = hook.text, *next; item; item = next) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		char *eq = strchr(item, '=');
		int bad = eq ? parse_setting(item, eq) : events++ ? -1 : parse_event(item);
		if (bad)
			fprintf(stderr, "iomatrix: IOMATRIX_TEST_HOOK item '%s' ignored: want one "
				"EVENT:N[+][:pause|int|term|stop|kill] and NAME=VALUE settings "
				"(bench/util/testhook.h)\n", item);
		else if (!eq)
			armed = 1;
	}
	if (armed && events == 1 && !hook.sig && !setting("fifo")) {
		fprintf(stderr, "iomatrix: IOMATRIX_TEST_HOOK '%s' ignored: a pause needs fifo=PATH\n", v);
		armed = 0;
	}
	/* a malformed event, or more than one: none is armed */
	if (!armed || events != 1)
		hook.event[0] = '\0';
}

static void hook_pause(const char *event, unsigned long n)
{
	char line[64];
	int fd, len = snprintf(line, sizeof(line), "%s %lu\n", event, n);
	const char *fifo = setting("fifo");

	while ((fd = open(fifo, O_WRONLY | O_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)len) < 0) {
		/* the test went away: do not wait for its answer */
		close(fd);
		return;
	}
	close(fd);
	while ((fd = open(fifo, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR)
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

const char *testhook_value(const char *name)
{
	pthread_once(&hook_once, hook_parse);
	return setting(name);
}

long long testhook_ms(const char *name, long long dflt)
{
	const char *v = testhook_value(name);
	char *end;
	long long ms;

	if (!v)
		return dflt;
	errno = 0;
	ms = strtoll(v, &end, 10);
	if (errno || *end || ms <= 0 || ms > 1000000000) {
		fprintf(stderr, "iomatrix: IOMATRIX_TEST_HOOK %s=%s ignored: want milliseconds in 1..1000000000\n",
			name, v);
		return dflt;
	}
	return ms;
}

void testhook_log(const char *name, const char *fmt, ...)
{
	const char *path = testhook_value(name);
	if (!path)
		return;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (len > 0 && write(fd, line, (size_t)len < sizeof(line) ? (size_t)len :
			     sizeof(line) - 1) < 0)
		len = 0; /* the test sees the line missing */
	close(fd);
}
