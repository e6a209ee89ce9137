/*
 * agent.c - agent.h: the agent's threads (a reader that parses lines into
 * an inbox, a heartbeat), its state (the suite, the cell in progress) and
 * one handler per message of the controller.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/cliopt.h"
#include "util/termesc.h"
#include "util/fsutil.h"
#include "util/monotime.h"
#include "util/sha256.h"
#include "util/version.h"
#include "engines/engine.h"
#include "host/fingerprint.h"
#include "host/safety.h"
#include "resultset/fleetfile.h"
#include "resultset/resultset.h"
#include "runner/cellreps.h"
#include "runner/runner.h"
#include "suite/suite.h"
#include "suite/suite_cli.h"
#include "agent.h"
#include "launch.h"
#include "proto.h"

/* The caller's flag (agent_run), set by its signal handlers; the reader
 * thread sets it too (stop, end of input). */
static volatile sig_atomic_t *agent_stop;
/* Lines go out whole: the heartbeat thread writes too. */
static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;

/* The agent's clock: CLOCK_MONOTONIC from the agent's start, so that the
 * numbers stay below 2^53 (exact in JSON) whatever the host's uptime. */
static int64_t agent_epoch;

/* ns since the agent started: the clock the controller's pings read */
static int64_t agent_now(void)
{
	return (int64_t)mono_ns() - agent_epoch;
}

/* ---- inbox: the reader thread parses, the main thread acts ---- */

struct inmsg {
	cJSON *msg;       /* owned */
	int64_t recv_ns;  /* when the line arrived (for pong's t1) */
	struct inmsg *next;
};

struct inbox {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct inmsg *head, *tail;
	bool closed;      /* no more messages */
	char why[256];    /* why it closed: "" for a clean end of input */
};

static struct inbox inbox = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, false, ""
};

static void inbox_close(const char *why)
{
	pthread_mutex_lock(&inbox.mu);
	inbox.closed = true;
	snprintf(inbox.why, sizeof(inbox.why), "%s", why);
	pthread_cond_signal(&inbox.cv);
	pthread_mutex_unlock(&inbox.mu);
}

static void *reader_main(void *arg)
{
	struct linebuf lb;
	char *line, why[160];
	size_t len;
	long n;

	(void)arg;
	linebuf_init(&lb, FLEET_MAX_LINE);
	for (;;) {
		n = linebuf_fill(&lb, STDIN_FILENO);
		if (n == 0 || (n < 0 && n != -EAGAIN)) {
			*agent_stop = 1;
			inbox_close(n == 0 ? "" : n == -EMSGSIZE ?
				    "line longer than 64 MiB" : "read error");
			break;
		}
		while ((line = linebuf_next(&lb, &len))) {
			cJSON *m = proto_parse(line, len, why, sizeof(why));
			struct inmsg *im;
			if (!m) {
				*agent_stop = 1;
				inbox_close(why);
				goto out;
			}
			if (!strcmp(proto_op(m), "stop"))
				*agent_stop = 1; /* at once: the runner polls it */
			im = calloc(1, sizeof(*im));
			if (!im) {
				cJSON_Delete(m);
				*agent_stop = 1;
				inbox_close("out of memory");
				goto out;
			}
			im->msg = m;
			im->recv_ns = agent_now();
			pthread_mutex_lock(&inbox.mu);
			if (inbox.tail)
				inbox.tail->next = im;
			else
				inbox.head = im;
			inbox.tail = im;
			pthread_cond_signal(&inbox.cv);
			pthread_mutex_unlock(&inbox.mu);
		}
	}
out:
	linebuf_release(&lb);
	return NULL;
}

/* While a cell lays out or runs, the main thread says nothing for a long
 * time: an "alive" line every FLEET_ALIVE_S tells the controller that this
 * agent is not hung (it fails a host that stays silent much longer). */
static void *alive_main(void *arg)
{
	static const char line[] = "{\"op\":\"alive\"}\n";

	(void)arg;
	while (!*agent_stop) {
		for (int i = 0; i < FLEET_ALIVE_S * 10 && !*agent_stop; i++) {
			struct timespec ts = { 0, 100000000 };
			nanosleep(&ts, NULL);
		}
		if (*agent_stop)
			break;
		pthread_mutex_lock(&out_mu);
		if (fsutil_write_all(STDOUT_FILENO, line, sizeof(line) - 1) < 0)
			*agent_stop = 1;
		pthread_mutex_unlock(&out_mu);
	}
	return NULL;
}

/* Next message, waiting for it; NULL once the input has ended. */
static struct inmsg *inbox_pop(void)
{
	struct inmsg *im;

	pthread_mutex_lock(&inbox.mu);
	while (!inbox.head && !inbox.closed)
		pthread_cond_wait(&inbox.cv, &inbox.mu);
	im = inbox.head;
	if (im) {
		inbox.head = im->next;
		if (!inbox.head)
			inbox.tail = NULL;
	}
	pthread_mutex_unlock(&inbox.mu);
	return im;
}

static void inmsg_free(struct inmsg *im)
{
	if (im) {
		cJSON_Delete(im->msg);
		free(im);
	}
}

/* ---- replies ---- */

/* Send and free msg.  A controller that went away stops the agent. */
static int send_msg(cJSON *msg)
{
	size_t len;
	char *line = msg ? proto_line(msg, &len) : NULL;
	int ret = -ENOMEM;

	if (line) {
		pthread_mutex_lock(&out_mu);
		ret = fsutil_write_all(STDOUT_FILENO, line, len);
		pthread_mutex_unlock(&out_mu);
		free(line);
	}
	cJSON_Delete(msg);
	if (ret < 0)
		*agent_stop = 1;
	return ret;
}

static void send_error(const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* kind: "input" (the suite or paths are wrong: exit 2 on the controller),
 * "protocol" or "runtime". */
static void send_error(const char *kind, const char *fmt, ...)
{
	char text[2048];
	va_list ap;
	cJSON *m = proto_msg_new("error");

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (m) {
		cJSON_AddStringToObject(m, "kind", kind);
		cJSON_AddStringToObject(m, "message", text);
	}
	send_msg(m);
}

/* ---- state ---- */

struct agent {
	struct suite *s;
	bool yes_destroy_data;
	const struct cell *c;        /* the cell in progress, or NULL */
	struct rep_result *reps;     /* c->repeat of them */
	unsigned nreps, next_rep;
	char started[32];
	cJSON *starts;               /* [{"rep", "start_ns", "late_ns"}] */
	struct runner_files files;   /* kept across cells of one file set,
				      * as `run` keeps them (cellreps.h) */
};

static void agent_drop_cell(struct agent *ag)
{
	rep_results_free(ag->reps, ag->nreps);
	ag->reps = NULL;
	ag->nreps = ag->next_rep = 0;
	cJSON_Delete(ag->starts);
	ag->starts = NULL;
	ag->c = NULL;
}

static const struct cell *find_cell(const struct suite *s, int64_t id)
{
	for (size_t i = 0; i < s->ncells; i++)
		if (s->cells[i].id == id)
			return &s->cells[i];
	return NULL;
}

/* The checks `run` makes before any IO, on this host's paths.  0, or -1
 * with the reason in err. */
static int agent_check(const struct agent *ag, char *err, size_t errlen)
{
	const struct suite *s = ag->s;

	for (size_t k = 0; k < s->ncells; k++)
		if (!engine_find(s->cells[k].engine)) {
			snprintf(err, errlen, "engine '%s' is not built into this iomatrix; use libaio or rebuild with its library installed",
				 s->cells[k].engine);
			return -1;
		}
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct suite_device *d = &s->devices[i];
		bool writes = false;

		for (size_t k = 0; k < s->ncells; k++)
			if (!strcmp(s->cells[k].device, d->name) &&
			    pattern_writes(s->cells[k].pattern))
				writes = true;
		if (safety_check_device(d->name, d->path, writes, d->destructive,
					ag->yes_destroy_data, err, errlen) < 0)
			return -1;
	}
	return 0;
}

/* This host's devices with their fingerprints, as a manifest lists them. */
static cJSON *devices_json(const struct suite *s)
{
	cJSON *tmp = cJSON_CreateObject(), *a;

	if (!tmp || !cJSON_AddArrayToObject(tmp, "devices")) {
		cJSON_Delete(tmp);
		return NULL;
	}
	for (size_t i = 0; i < s->ndevices; i++)
		resultset_manifest_add_device(tmp, s->devices[i].name, s->devices[i].path,
					      s->devices[i].destructive,
					      fingerprint_device(s->devices[i].path));
	a = cJSON_DetachItemFromObjectCaseSensitive(tmp, "devices");
	cJSON_Delete(tmp);
	return a;
}

/* Which machine and which boot this is, hashed (the ids themselves are
 * nobody's business): hosts that share them are one machine, and the
 * controller warns that their numbers are not independent. */
static cJSON *machine_json(void)
{
	static const char *const src[][2] = {
		{ "machine_id", "/etc/machine-id" },
		{ "boot_id", "/proc/sys/kernel/random/boot_id" },
	};
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; o && i < 2; i++) {
		size_t len = 0;
		char *t = fsutil_read(src[i][1], 256, &len), hex[65];
		while (t && len && (t[len - 1] == '\n' || t[len - 1] == ' '))
			len--;
		if (t && len) {
			sha256_hex(t, len, hex);
			hex[16] = '\0';
			cJSON_AddStringToObject(o, src[i][0], hex);
		}
		free(t);
	}
	return o;
}

/* A launcher's rank (fleet/launch.h): {rank}, {node} and {local_rank} in
 * the device paths become this rank's.  0, or -1 with err. */
static int launch_paths(struct suite *s, const cJSON *launch, char *err, size_t errlen)
{
	struct launch_host lh;

	if (!launch)
		return 0;
	if (launch_host_from_json(launch, &lh) < 0) {
		snprintf(err, errlen, "malformed 'launch' in the suite message");
		return -1;
	}
	for (size_t i = 0; i < s->ndevices; i++) {
		char p[sizeof(s->devices[i].path)], nb[LAUNCH_NODE_MAX * 4];
		int r = launch_expand_path(s->devices[i].path, &lh, p, sizeof(p));
		if (r == -2) {
			snprintf(err, errlen, "device '%s': rank %d: its node name '%s' cannot fill "
				 "{node} in '%.1000s': a placeholder is one name of A-Z a-z 0-9 . _ - "
				 "(not '.', no '/', no '..'); name the node so, or write the path without "
				 "{node}", s->devices[i].name, lh.rank,
				 termesc(lh.node, nb, sizeof(nb)), s->devices[i].path);
			return -1;
		}
		if (r < 0) {
			snprintf(err, errlen, "device '%s': the path is too long with {rank}, {node} and {local_rank} filled in",
				 s->devices[i].name);
			return -1;
		}
		memcpy(s->devices[i].path, p, sizeof(p));
	}
	return 0;
}

/* {"op":"suite", "text", "file", "devices": ["NAME=PATH"...], "scale",
 * "yes_destroy_data"}: load it as `run` would; reply suite_ok with this
 * host's fingerprint, or an input error. */
static int on_suite(struct agent *ag, const cJSON *m)
{
	const char *text = proto_get_str(m, "text");
	const char *file = proto_get_str(m, "file");
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(m, "devices"), *d;
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(m, "scale");
	struct suite_opts so = { 0 };
	struct errlist errs = ERRLIST_INIT;
	const char **ov = NULL;
	char err[2048];
	cJSON *r;
	int ret = -1;

	if (ag->s || !text || (devs && !cJSON_IsArray(devs))) {
		send_error("protocol", "unexpected or malformed 'suite' message");
		return -1;
	}
	ov = calloc((size_t)cJSON_GetArraySize(devs) + 1, sizeof(*ov));
	if (!ov)
		goto out;
	cJSON_ArrayForEach(d, devs)
		if (cJSON_IsString(d))
			ov[so.ndevice_overrides++] = d->valuestring;
	so.device_overrides = ov;
	/* checked as --scale and a resumed set's scale are: 1e308 would be
	 * an undefined float-to-int cast in every cell's sizes */
	if (sc && !(cJSON_IsNumber(sc) && sc->valuedouble > 0 &&
		    sc->valuedouble <= SUITE_CLI_MAX_SCALE)) {
		send_error("input", "'scale' in the suite message is not a factor in (0, %g]",
			   (double)SUITE_CLI_MAX_SCALE);
		goto out;
	}
	so.scale = sc ? sc->valuedouble : 0;
	ag->yes_destroy_data = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "yes_destroy_data"));
	/* the controller's name for this host: agents sharing a directory
	 * (shared storage, or hosts that are one machine) keep apart */
	runner_set_scratch_tag(proto_get_str(m, "host"));
	if (suite_load_buffer(file ? file : "suite.yaml", text, strlen(text),
			      &so, &ag->s, &errs) < 0) {
		/* the controller loaded the same text: only a different
		 * build or a bad --device can get here */
		send_error("input", "%s", errs.n ? errs.msgs[0] : "suite rejected");
		goto out;
	}
	if (launch_paths(ag->s, cJSON_GetObjectItemCaseSensitive(m, "launch"), err,
			 sizeof(err)) < 0 || agent_check(ag, err, sizeof(err)) < 0) {
		send_error("input", "%s", err);
		goto out;
	}
	r = proto_msg_new("suite_ok");
	if (r) {
		cJSON_AddStringToObject(r, "sha256", ag->s->sha256);
		cJSON_AddNumberToObject(r, "cells", (double)ag->s->ncells);
		cJSON_AddItemToObject(r, "host", fingerprint_host());
		cJSON_AddItemToObject(r, "tool", fingerprint_tool());
		cJSON_AddItemToObject(r, "devices", devices_json(ag->s));
		cJSON_AddItemToObject(r, "machine", machine_json());
	}
	ret = send_msg(r);
out:
	free(ov);
	errlist_release(&errs);
	return ret;
}

/* Send the cell's result (ok, or failed with error) and forget it. */
static int send_result(struct agent *ag, const char *error)
{
	char finished[32];
	cJSON *r = proto_msg_new("result"), *cj;

	iso8601_now(finished, sizeof(finished));
	struct cell_outcome out = { .error = error, .started_at = ag->started,
				    .finished_at = finished, .reps = ag->reps,
				    .nreps = ag->nreps };
	cj = resultset_cell_to_json(ag->c, &out);
	if (r && cj) {
		cJSON_AddNumberToObject(r, "id", ag->c->id);
		cJSON_AddItemToObject(cj, "fleet_starts", ag->starts);
		ag->starts = NULL;
		cJSON_AddItemToObject(r, "cell", cj);
		cj = NULL;
	}
	cJSON_Delete(cj);
	agent_drop_cell(ag);
	return send_msg(r);
}

static int send_ready(const struct agent *ag)
{
	cJSON *r = proto_msg_new("ready");

	if (r) {
		cJSON_AddNumberToObject(r, "id", ag->c->id);
		cJSON_AddNumberToObject(r, "rep", ag->next_rep + 1);
	}
	return send_msg(r);
}

/* {"op":"cell","id"}: lay out its files, then say ready for rep 1. */
static int on_cell(struct agent *ag, const cJSON *m)
{
	int64_t id;
	const struct cell *c;
	char cerr[PATH_MAX + 512] = "";
	struct run_ctl ctl = { &*agent_stop, NULL, NULL };
	int ret;

	if (!ag->s || ag->c || !proto_get_i64(m, "id", &id) ||
	    !(c = find_cell(ag->s, id))) {
		send_error("protocol", "unexpected 'cell' message");
		return -1;
	}
	ag->c = c;
	ag->reps = calloc(c->repeat ? c->repeat : 1, sizeof(*ag->reps));
	ag->starts = cJSON_CreateArray();
	iso8601_now(ag->started, sizeof(ag->started));
	if (!ag->reps || !ag->starts)
		return send_result(ag, "out of memory");
	ret = runner_files_use(&ag->files, c, &ctl, cerr, sizeof(cerr));
	if (*agent_stop)
		return -1;
	if (ret < 0) {
		if (!cerr[0])
			snprintf(cerr, sizeof(cerr), "cannot prepare '%s': %s", c->path, strerror(-ret));
		return send_result(ag, cerr);
	}
	return send_ready(ag);
}

/* Sleep until the agent's monotonic clock reads at_ns, waking for stop. */
static void wait_until(int64_t at_ns)
{
	for (;;) {
		int64_t left = at_ns - agent_now();
		if (left <= 0 || *agent_stop)
			return;
		if (left > 50000000) {
			struct timespec ts = { 0, 50000000 };
			nanosleep(&ts, NULL);
			continue;
		}
		int64_t abs = at_ns + agent_epoch;
		struct timespec ts = { (time_t)(abs / 1000000000),
				       (long)(abs % 1000000000) };
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static void cooldown(uint64_t ns)
{
	if (ns)
		wait_until(agent_now() + (int64_t)ns);
}

/* {"op":"go","id","rep","at_ns"}: start the repetition at at_ns on this
 * host's monotonic clock (0: now), report when it really started. */
static int on_go(struct agent *ag, const cJSON *m)
{
	int64_t id, rep, at = 0;
	struct run_ctl ctl = { &*agent_stop, NULL, NULL };
	char cerr[PATH_MAX + 512] = "";
	struct rep_result *rr;
	int ret;

	if (!ag->c || !proto_get_i64(m, "id", &id) || id != ag->c->id ||
	    !proto_get_i64(m, "rep", &rep) || rep != ag->next_rep + 1 ||
	    (cJSON_GetObjectItemCaseSensitive(m, "at_ns") && !proto_get_i64(m, "at_ns", &at))) {
		send_error("protocol", "unexpected 'go' message");
		return -1;
	}
	if (at > 0)
		wait_until(at);
	if (*agent_stop)
		return -1;
	rr = &ag->reps[ag->nreps];
	memset(rr, 0, sizeof(*rr));
	ctl.rep = (unsigned)(rep - 1); /* randrepeat off: the repetition's seed */
	int64_t start = agent_now();
	ret = runner_run_rep(ag->c, &ag->files.tgt, &ctl, rr, cerr, sizeof(cerr));
	if (*agent_stop) {
		rep_result_release(rr);
		return -1;
	}
	cJSON *st = resultset_fleet_start_json(rep, at > 0 ? start - at : 0, true, start);
	if (st)
		cJSON_AddItemToArray(ag->starts, st);
	if (ret < 0) {
		rep_result_release(rr);
		if (!cerr[0])
			snprintf(cerr, sizeof(cerr), "%s", strerror(-ret));
		return send_result(ag, cerr);
	}
	ag->nreps++;
	ag->next_rep++;
	cJSON *r = proto_msg_new("rep_done");
	if (r) {
		cJSON_AddNumberToObject(r, "id", (double)id);
		cJSON_AddNumberToObject(r, "rep", (double)rep);
		cJSON_AddNumberToObject(r, "start_ns", (double)start);
	}
	if (send_msg(r) < 0)
		return -1;
	if (ag->next_rep < ag->c->repeat) {
		cooldown(ag->c->cooldown_ns);
		return *agent_stop ? -1 : send_ready(ag);
	}
	return send_result(ag, NULL);
}

static int send_hello(void)
{
	cJSON *m = proto_msg_new("hello");
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	if (m) {
		cJSON_AddNumberToObject(m, "proto", FLEET_PROTO_VERSION);
		cJSON_AddStringToObject(m, "version", iomatrix_version);
		cJSON_AddStringToObject(m, "git_commit", iomatrix_git_commit);
		cJSON_AddNumberToObject(m, "schema_version", RESULTSET_SCHEMA_VERSION);
		cJSON_AddStringToObject(m, "hostname", host);
		cJSON_AddNumberToObject(m, "pid", getpid());
	}
	return send_msg(m);
}

/* The controller's hello must carry our protocol and schema; it checks
 * the same of ours and names both versions when they differ. */
static int on_hello(const cJSON *m)
{
	int64_t proto, schema;
	const char *ver = proto_get_str(m, "version");

	if (!proto_get_i64(m, "proto", &proto) || proto != FLEET_PROTO_VERSION ||
	    !proto_get_i64(m, "schema_version", &schema) ||
	    schema != RESULTSET_SCHEMA_VERSION || !ver || strcmp(ver, iomatrix_version)) {
		send_error("version", "agent is iomatrix %s (protocol %d, schema %d); the controller's hello differs",
			   iomatrix_version, FLEET_PROTO_VERSION, RESULTSET_SCHEMA_VERSION);
		return -1;
	}
	return 0;
}

static int on_ping(const struct inmsg *im)
{
	int64_t t0;
	cJSON *r;

	if (!proto_get_i64(im->msg, "t0", &t0)) {
		send_error("protocol", "'ping' without t0");
		return -1;
	}
	r = proto_msg_new("pong");
	if (r) {
		struct timespec wall;
		clock_gettime(CLOCK_REALTIME, &wall);
		cJSON_AddNumberToObject(r, "t0", (double)t0);
		cJSON_AddNumberToObject(r, "t1", (double)im->recv_ns);
		cJSON_AddNumberToObject(r, "wall_s", (double)wall.tv_sec + (double)wall.tv_nsec / 1e9);
		cJSON_AddNumberToObject(r, "t2", (double)agent_now());
	}
	return send_msg(r);
}

/* One message.  1 to end cleanly, 0 to go on, -1 on error/stop. */
static int agent_dispatch(struct agent *ag, const struct inmsg *im, bool *greeted)
{
	const char *op = proto_op(im->msg);

	if (!*greeted) {
		if (strcmp(op, "hello")) {
			send_error("protocol", "expected 'hello', got '%.32s'", op);
			return -1;
		}
		*greeted = true;
		return on_hello(im->msg);
	}
	if (!strcmp(op, "ping"))
		return on_ping(im);
	if (!strcmp(op, "suite"))
		return on_suite(ag, im->msg);
	if (!strcmp(op, "cell"))
		return on_cell(ag, im->msg);
	if (!strcmp(op, "go"))
		return on_go(ag, im->msg);
	if (!strcmp(op, "abort")) {
		const char *why = proto_get_str(im->msg, "reason");
		if (!ag->c)
			return 0; /* finished before the abort crossed it */
		return send_result(ag, why ? why : "aborted by the controller");
	}
	if (!strcmp(op, "end"))
		return 1;
	if (!strcmp(op, "stop"))
		return -1;
	send_error("protocol", "unknown op '%.32s'", op);
	return -1;
}

int agent_run(volatile sig_atomic_t *stop)
{
	struct agent ag = { 0 };
	pthread_t reader;
	bool greeted = false;
	int rc = EXIT_OK, r = 0;

	agent_stop = stop;
	agent_epoch = (int64_t)mono_ns();

	if (send_hello() < 0)
		return EXIT_RUNTIME;
	if (pthread_create(&reader, NULL, reader_main, NULL)) {
		send_error("runtime", "cannot start the reader thread");
		return EXIT_RUNTIME;
	}
	pthread_detach(reader); /* blocked in read(2) on exit; that is fine */
	pthread_t alive;
	bool have_alive = !pthread_create(&alive, NULL, alive_main, NULL);

	while (!*agent_stop) {
		struct inmsg *im = inbox_pop();
		if (!im)
			break;
		r = agent_dispatch(&ag, im, &greeted);
		inmsg_free(im);
		if (r != 0)
			break;
	}
	/* The reader stops the agent at once on a line it cannot take
	 * (too deep, not UTF-8, too long): the loop above may never see
	 * the closed inbox, so the reason is said here, before bye. */
	char bad[sizeof(inbox.why)];
	pthread_mutex_lock(&inbox.mu);
	memcpy(bad, inbox.why, sizeof(bad));
	pthread_mutex_unlock(&inbox.mu);
	if (bad[0]) {
		send_error("protocol", "bad input from the controller: %s", bad);
		r = -1;
	}
	/* Every way out removes the scratch files first. */
	agent_drop_cell(&ag);
	runner_files_drop(&ag.files, NULL);
	suite_free(ag.s);
	int quiet_now = *agent_stop; /* stop the heartbeat before the last word */
	*agent_stop = 1;
	if (have_alive)
		pthread_join(alive, NULL);
	if (r == 1) {
		send_msg(proto_msg_new("bye"));
	} else {
		cJSON *b = proto_msg_new("bye");
		if (b)
			cJSON_AddBoolToObject(b, "stopped", true);
		send_msg(b);
		rc = bad[0] ? EXIT_USAGE : quiet_now ? EXIT_INTERRUPTED : EXIT_RUNTIME;
	}
	return rc;
}
