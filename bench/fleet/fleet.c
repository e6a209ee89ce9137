/*
 * fleet.c - fleet.h: the controller.  One poll loop over every host's ssh
 * pipes; each host walks hello -> clock -> suite -> cells -> end.  Survey
 * hosts run their cells on their own; in aggregate mode fleet_step() holds
 * every host at each repetition until all are ready, then sends go with a
 * start time a few round trips ahead, mapped onto each host's clock.
 */
#include "fleet_int.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/version.h"
#include "fleet/merge.h"
#include "suite/suite.h"

#define HANDSHAKE_NS (60ll * 1000000000)
#define BARRIER_FLOOR_NS (20ll * 1000000)
#define STOP_WAIT_MS 1500

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t fleet_now(const struct fleet *f)
{
	return mono_ns() - f->epoch_ns;
}

static cJSON *msg_new(const char *op)
{
	cJSON *m = cJSON_CreateObject();
	if (m)
		cJSON_AddStringToObject(m, "op", op);
	return m;
}

static bool live(const struct fhost *h)
{
	return h->st != HS_WAITING && h->st != HS_DONE && h->st != HS_FAILED;
}

/* Stop talking to h: close its input, end its ssh, remember why.  Its
 * remaining cells are written as failed by the caller's next step. */
void fleet_host_failed(struct fleet *f, struct fhost *h, const char *fmt, ...)
{
	va_list ap;

	(void)f;
	if (h->st == HS_FAILED)
		return;
	va_start(ap, fmt);
	vsnprintf(h->fail, sizeof(h->fail), fmt, ap);
	va_end(ap);
	h->st = HS_FAILED;
	/* a lost host's ssh has ended; a misbehaving agent gets 200 ms to
	 * see its input close before its ssh is terminated */
	ssh_close_input(&h->conn);
	ssh_reap(&h->conn, 200);
	ssh_release(&h->conn);
}

int fleet_send(struct fleet *f, struct fhost *h, cJSON *msg)
{
	size_t len;
	char *line = msg ? proto_line(msg, &len) : NULL;
	int ret = -ENOMEM;

	cJSON_Delete(msg);
	if (line && h->conn.to_fd >= 0)
		ret = proto_write_all(h->conn.to_fd, line, len);
	free(line);
	if (ret < 0 && h->st != HS_FAILED)
		fleet_host_failed(f, h, "lost: cannot send to its agent (%s)", strerror(-ret));
	return ret;
}

static void send_ping(struct fleet *f, struct fhost *h)
{
	cJSON *m = msg_new("ping");
	int64_t t0 = fleet_now(f);

	if (m)
		cJSON_AddNumberToObject(m, "t0", (double)t0);
	h->samples[h->nsamples].t0 = t0;
	fleet_send(f, h, m);
}

static void send_suite(struct fleet *f, struct fhost *h)
{
	cJSON *m = msg_new("suite"), *d;

	if (!m)
		return;
	cJSON_AddStringToObject(m, "text", f->s->text);
	cJSON_AddStringToObject(m, "file", "suite.yaml");
	d = cJSON_AddArrayToObject(m, "devices");
	for (size_t i = 0; d && i < h->nov; i++)
		cJSON_AddItemToArray(d, cJSON_CreateString(h->ov[i]));
	cJSON_AddNumberToObject(m, "scale", f->o->scale > 0 ? f->o->scale : 1);
	cJSON_AddBoolToObject(m, "yes_destroy_data", f->o->yes_destroy_data);
	fleet_send(f, h, m);
	h->st = HS_SUITE;
}

static void send_cell(struct fleet *f, struct fhost *h, size_t plan_idx)
{
	cJSON *m = msg_new("cell");

	if (m)
		cJSON_AddNumberToObject(m, "id", f->s->cells[plan_idx].id);
	h->cur = plan_idx;
	h->busy = true;
	h->st = HS_CELL;
	fleet_send(f, h, m);
}

/* go for repetition rep at controller time at (0: at once). */
static void send_go(struct fleet *f, struct fhost *h, unsigned rep, int64_t at)
{
	cJSON *m = msg_new("go");

	if (m) {
		cJSON_AddNumberToObject(m, "id", f->s->cells[h->cur].id);
		cJSON_AddNumberToObject(m, "rep", rep);
		if (at)
			cJSON_AddNumberToObject(m, "at_ns", (double)(at + h->clk.offset_ns));
	}
	h->st = HS_GO;
	fleet_send(f, h, m);
}

static void send_end(struct fleet *f, struct fhost *h)
{
	h->st = HS_ENDING;
	fleet_send(f, h, msg_new("end"));
}

/* ---- what the agent says ---- */

static int on_hello(struct fleet *f, struct fhost *h, cJSON *m)
{
	int64_t proto = -1, schema = -1;
	const char *ver = proto_get_str(m, "version");
	char v[64];

	proto_get_i64(m, "proto", &proto);
	proto_get_i64(m, "schema_version", &schema);
	proto_sanitize(ver ? ver : "?", ver ? strlen(ver) : 1, v, sizeof(v));
	if (proto != FLEET_PROTO_VERSION || schema != RESULTSET_SCHEMA_VERSION ||
	    !ver || strcmp(ver, iomatrix_version)) {
		h->input_error = true;
		fleet_host_failed(f, h, "version mismatch: its agent is iomatrix %s (protocol %lld, schema %lld), this controller is iomatrix %s (protocol %d, schema %d); install the same version there or pass --remote-iomatrix PATH",
				  v, (long long)proto, (long long)schema, iomatrix_version,
				  FLEET_PROTO_VERSION, RESULTSET_SCHEMA_VERSION);
		return -1;
	}
	h->hello = cJSON_Duplicate(m, true);
	cJSON *r = msg_new("hello");
	if (r) {
		cJSON_AddNumberToObject(r, "proto", FLEET_PROTO_VERSION);
		cJSON_AddStringToObject(r, "version", iomatrix_version);
		cJSON_AddNumberToObject(r, "schema_version", RESULTSET_SCHEMA_VERSION);
	}
	if (fleet_send(f, h, r) < 0)
		return -1;
	h->st = HS_CLOCK;
	send_ping(f, h);
	return 0;
}

static int on_pong(struct fleet *f, struct fhost *h, cJSON *m, int64_t t3)
{
	struct clock_sample *s = &h->samples[h->nsamples];
	int64_t t0;
	const cJSON *wall = cJSON_GetObjectItemCaseSensitive(m, "wall_s");

	if (!proto_get_i64(m, "t0", &t0) || t0 != s->t0 ||
	    !proto_get_i64(m, "t1", &s->t1) || !proto_get_i64(m, "t2", &s->t2)) {
		fleet_host_failed(f, h, "protocol error: a pong without its timestamps");
		return -1;
	}
	s->t3 = t3;
	if (cJSON_IsNumber(wall)) { /* wall clock offset, for the manifest */
		struct timespec w;
		clock_gettime(CLOCK_REALTIME, &w);
		/* our wall clock when the agent sent it: now minus the way back */
		h->wall_off[h->nsamples] = wall->valuedouble -
			((double)w.tv_sec + (double)w.tv_nsec / 1e9 - (double)(t3 - s->t2 + s->t1 - s->t0) / 2e9);
	}
	if (++h->nsamples < FLEET_PINGS) {
		send_ping(f, h);
		return 0;
	}
	if (clock_estimate(h->samples, h->nsamples, &h->clk) < 0) {
		fleet_host_failed(f, h, "protocol error: its clock answers are inconsistent");
		return -1;
	}
	h->wall_offset_s = h->wall_off[h->clk.best];
	send_suite(f, h);
	return 0;
}

static int on_suite_ok(struct fleet *f, struct fhost *h, cJSON *m)
{
	const char *sha = proto_get_str(m, "sha256");

	if (!sha || strcmp(sha, f->s->sha256)) {
		h->input_error = true;
		fleet_host_failed(f, h, "its agent read the suite differently (sha256 differs); install the same iomatrix version there");
		return -1;
	}
	h->info = cJSON_Duplicate(m, true);
	h->st = HS_IDLE;
	h->deadline_ns = 0;
	return 0;
}

/* The cell an agent sent back: check it is the one asked for. */
static cJSON *take_result(struct fleet *f, struct fhost *h, cJSON *m)
{
	cJSON *cell = cJSON_GetObjectItemCaseSensitive(m, "cell");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(cell, "params");
	const char *st = proto_get_str(cell, "status");
	int64_t id = 0, pid = 0;

	if (!h->busy || !proto_get_i64(m, "id", &id) ||
	    id != f->s->cells[h->cur].id || !cJSON_IsObject(p) ||
	    !proto_get_i64(p, "id", &pid) || pid != id || !st ||
	    (strcmp(st, "ok") && strcmp(st, "failed")) ||
	    !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(cell, "repetitions"))) {
		fleet_host_failed(f, h, "protocol error: a result that is not the cell it was asked for");
		return NULL;
	}
	return cJSON_DetachItemViaPointer(m, cell);
}

static void on_result(struct fleet *f, struct fhost *h, cJSON *m)
{
	cJSON *cell = take_result(f, h, m);

	if (!cell)
		return;
	if (f->o->aggregate) {
		h->result = cell;
		h->st = HS_HELD;
		return;
	}
	const char *st = proto_get_str(cell, "status");
	if (st && strcmp(st, "ok"))
		f->failed_any = true;
	fleet_write_host_cell(f, h, h->cur, cell);
	h->busy = false;
	h->pos++;
	h->st = HS_IDLE;
}

static void on_rep_done(struct fleet *f, struct fhost *h, cJSON *m)
{
	int64_t rep, start;
	const struct cell *c = &f->s->cells[h->cur];

	if (h->st != HS_GO || !proto_get_i64(m, "rep", &rep) || rep < 1 ||
	    rep > (int64_t)c->repeat || !proto_get_i64(m, "start_ns", &start)) {
		fleet_host_failed(f, h, "protocol error: unexpected rep_done");
		return;
	}
	h->starts[rep - 1] = start - h->clk.offset_ns;
	h->st = HS_CELL;
}

static void on_ready(struct fleet *f, struct fhost *h, cJSON *m)
{
	int64_t rep;

	if (h->st != HS_CELL || !proto_get_i64(m, "rep", &rep) || rep < 1 ||
	    rep > (int64_t)f->s->cells[h->cur].repeat) {
		fleet_host_failed(f, h, "protocol error: unexpected ready");
		return;
	}
	if (!f->o->aggregate) {
		send_go(f, h, (unsigned)rep, 0);
		return;
	}
	h->ready_rep = (unsigned)rep;
	h->st = HS_READY;
}

static void on_error(struct fleet *f, struct fhost *h, cJSON *m)
{
	const char *msg = proto_get_str(m, "message");
	const char *kind = proto_get_str(m, "kind");
	char clean[1024];

	proto_sanitize(msg ? msg : "?", msg ? strlen(msg) : 1, clean, sizeof(clean));
	if (kind && (!strcmp(kind, "input") || !strcmp(kind, "version")))
		h->input_error = true;
	fleet_host_failed(f, h, "its agent says: %s", clean);
}

static void host_on_msg(struct fleet *f, struct fhost *h, cJSON *m, int64_t now)
{
	const char *op = proto_op(m);
	char o[40];

	if (!strcmp(op, "alive") && h->st != HS_HELLO)
		return; /* the heartbeat: last_rx_ns is all it is for */
	if (!strcmp(op, "error"))
		on_error(f, h, m);
	else if (h->st == HS_HELLO && !strcmp(op, "hello"))
		on_hello(f, h, m);
	else if (h->st == HS_CLOCK && !strcmp(op, "pong"))
		on_pong(f, h, m, now);
	else if (h->st == HS_SUITE && !strcmp(op, "suite_ok"))
		on_suite_ok(f, h, m);
	else if ((h->st == HS_CELL || h->st == HS_GO) && !strcmp(op, "result"))
		on_result(f, h, m);
	else if (h->st == HS_CELL && !strcmp(op, "ready"))
		on_ready(f, h, m);
	else if (h->st == HS_READY && !strcmp(op, "result"))
		on_result(f, h, m); /* answers an abort */
	else if (h->st == HS_GO && !strcmp(op, "rep_done"))
		on_rep_done(f, h, m);
	else if (h->st == HS_ENDING && !strcmp(op, "bye")) {
		ssh_close_input(&h->conn);
		ssh_reap(&h->conn, 2000);
		ssh_release(&h->conn);
		h->st = HS_DONE;
	} else {
		proto_sanitize(op, strlen(op), o, sizeof(o));
		fleet_host_failed(f, h, "protocol error: unexpected '%s' from its agent", o);
	}
}

/* ---- reading ---- */

static void read_stderr(struct fhost *h)
{
	char buf[4096];
	ssize_t n;

	if (h->conn.err_fd < 0)
		return;
	while ((n = read(h->conn.err_fd, buf, sizeof(buf))) >= 0) {
		if (n == 0) { /* ssh is gone; poll would report it forever */
			close(h->conn.err_fd);
			h->conn.err_fd = -1;
			return;
		}
		/* keep the tail: ssh's last words say why */
		size_t room = sizeof(h->errtail) - 1;
		if ((size_t)n >= room) {
			memcpy(h->errtail, buf + n - room, room);
			h->errlen = room;
		} else {
			if (h->errlen + (size_t)n > room) {
				size_t drop = h->errlen + (size_t)n - room;
				memmove(h->errtail, h->errtail + drop, h->errlen - drop);
				h->errlen -= drop;
			}
			memcpy(h->errtail + h->errlen, buf, (size_t)n);
			h->errlen += (size_t)n;
		}
		h->errtail[h->errlen] = '\0';
	}
}

/* ssh's last stderr line, cleaned, for messages. */
static void last_words(const struct fhost *h, char *out, size_t len)
{
	char tmp[sizeof(h->errtail)];
	size_t n = h->errlen;

	memcpy(tmp, h->errtail, n);
	while (n && (tmp[n - 1] == '\n' || tmp[n - 1] == '\r'))
		n--;
	tmp[n] = '\0';
	char *nl = strrchr(tmp, '\n');
	const char *line = nl ? nl + 1 : tmp;
	proto_sanitize(line, strlen(line), out, len);
}

/* The agent's stdout closed or ssh exited: say what that means. */
static void host_gone(struct fleet *f, struct fhost *h)
{
	char words[512];
	int code;

	ssh_close_input(&h->conn);
	code = ssh_reap(&h->conn, 1000);
	read_stderr(h);
	last_words(h, words, sizeof(words));
	if (h->st == HS_HELLO) {
		if (code == 127 || strstr(words, "not found") || strstr(words, "No such file")) {
			h->input_error = true;
			fleet_host_failed(f, h, "remote iomatrix '%s' not found there (%s); install it or pass --remote-iomatrix PATH",
					  f->o->ssh.remote_iomatrix ? f->o->ssh.remote_iomatrix : "iomatrix",
					  words[0] ? words : "exit 127");
		} else {
			h->unreachable = true;
			fleet_host_failed(f, h, "unreachable: %s (ssh exit %d); check the name and your ssh setup, or pass --skip-unreachable",
					  words[0] ? words : "ssh ended without a word", code);
		}
		return;
	}
	fleet_host_failed(f, h, "lost: the connection ended%s%s (ssh exit %d)",
			  words[0] ? ": " : "", words, code);
}

static void host_read(struct fleet *f, struct fhost *h)
{
	long n;
	char *line, why[256];
	size_t len;

	while (live(h) && (n = linebuf_fill(&h->lb, h->conn.from_fd)) != -EAGAIN) {
		if (n == -EMSGSIZE) {
			fleet_host_failed(f, h, "protocol error: its agent sent a line longer than 64 MiB");
			return;
		}
		if (n <= 0) {
			host_gone(f, h);
			return;
		}
		int64_t now = fleet_now(f);
		h->last_rx_ns = now;
		while (live(h) && (line = linebuf_next(&h->lb, &len))) {
			cJSON *m = proto_parse(line, len, why, sizeof(why));
			if (!m) {
				char head[48];
				proto_sanitize(line, len < 40 ? len : 40, head, sizeof(head));
				fleet_host_failed(f, h, "protocol error: its agent sent %s: '%s'", why, head);
				return;
			}
			host_on_msg(f, h, m, now);
			cJSON_Delete(m);
		}
	}
}

/* ---- scheduling ---- */

static int plan_todo(struct fleet *f);

static void start_host(struct fleet *f, struct fhost *h)
{
	char err[512];

	if (ssh_spawn(&f->o->ssh, h->name, &h->conn, err, sizeof(err)) < 0) {
		h->st = HS_HELLO; /* so that failing it counts as unreachable */
		h->unreachable = true;
		fleet_host_failed(f, h, "%s", err);
		return;
	}
	h->st = HS_HELLO;
	h->deadline_ns = fleet_now(f) + HANDSHAKE_NS;
}

/* Write failed cells for what a failed host had left (once). */
static void account_failed(struct fleet *f, struct fhost *h)
{
	if (h->st != HS_FAILED || h->accounted || !f->gate_passed || f->stopped ||
	    h->skipped)
		return;
	h->accounted = true;
	if (h->unreachable && f->o->skip_unreachable) {
		h->skipped = true;
		if (!f->o->quiet)
			fprintf(stderr, "iomatrix: host '%s' skipped: %s\n", h->name, h->fail);
		return;
	}
	fprintf(stderr, "iomatrix: host '%s' %s\n", h->name, h->fail);
	if (f->o->aggregate) {
		if (h->busy && f->agg_busy && !f->agg_fail[0])
			snprintf(f->agg_fail, sizeof(f->agg_fail), "host '%.200s' %.700s",
				 h->name, h->fail);
		/* its own cells of the rest of the run */
		for (size_t k = f->agg_pos; k < f->agg_ntodo; k++)
			if (!(h->busy && f->agg_todo[k] == f->agg_cur))
				fleet_write_failed(f, h->idx + 1, f->agg_todo[k], h->name, h->fail);
	} else {
		for (size_t k = h->pos; k < h->ntodo; k++)
			fleet_write_failed(f, h->idx, h->todo[k], h->name, h->fail);
	}
	h->busy = false;
	f->failed_any = true;
}

/* Before any cell anywhere: every started host said hello, showed its
 * version and accepted the suite, or failed.  Then the set is made. */
static int gate(struct fleet *f)
{
	char err[1024];
	bool bad = false;

	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->st == HS_HELLO || h->st == HS_CLOCK || h->st == HS_SUITE)
			return 0;
	}
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->st != HS_FAILED)
			continue;
		if (h->input_error || (h->unreachable && !f->o->skip_unreachable)) {
			fprintf(stderr, "iomatrix: host '%s': %s\n", h->name, h->fail);
			bad = true;
		}
	}
	if (bad) {
		f->fatal = true;
		return -1;
	}
	if ((f->o->resume ? fleet_set_resume(f, err, sizeof(err))
			  : fleet_set_begin(f, err, sizeof(err))) < 0) {
		fprintf(stderr, "iomatrix: %s\n", err);
		f->fatal = true;
		return -1;
	}
	if (plan_todo(f) < 0) {
		fprintf(stderr, "iomatrix: out of memory\n");
		f->fatal = true;
		return -1;
	}
	f->gate_passed = true;
	fleet_set_host_info(f);
	return 0;
}

static void survey_step(struct fleet *f)
{
	size_t active = 0, cap = f->o->parallel ? f->o->parallel : f->nh;

	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->st == HS_FAILED)
			account_failed(f, h);
		if (live(h))
			active++;
		if (h->st != HS_IDLE)
			continue;
		if (h->pos < h->ntodo)
			send_cell(f, h, h->todo[h->pos]);
		else
			send_end(f, h);
	}
	for (size_t i = 0; i < f->nh && active < cap; i++)
		if (f->h[i].st == HS_WAITING) {
			start_host(f, &f->h[i]);
			active++;
		}
}

static bool participant(const struct fhost *h)
{
	return h->busy && live(h);
}

/* Every participant ready for the same repetition: send go with a start
 * time a few round trips ahead, on each host's own clock. */
static void barrier_go(struct fleet *f)
{
	struct clock_est *est = calloc(f->nh, sizeof(*est));
	size_t n = 0;
	unsigned rep = 0;

	if (!est)
		return;
	for (size_t i = 0; i < f->nh; i++)
		if (participant(&f->h[i])) {
			est[n++] = f->h[i].clk;
			rep = f->h[i].ready_rep;
		}
	f->margin_ns = barrier_margin_ns(est, n, BARRIER_FLOOR_NS);
	free(est);
	int64_t at = fleet_now(f) + f->margin_ns;
	for (size_t i = 0; i < f->nh; i++)
		if (participant(&f->h[i]))
			send_go(f, &f->h[i], rep, at);
}

static void agg_abort(struct fleet *f)
{
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		cJSON *m;
		if (!participant(h) || h->aborted || h->st == HS_HELD)
			continue;
		if (h->st != HS_READY)
			continue; /* busy: abort when it is next ready */
		m = msg_new("abort");
		if (m) {
			cJSON_AddNumberToObject(m, "id", f->s->cells[f->agg_cur].id);
			cJSON_AddStringToObject(m, "reason", f->agg_fail);
		}
		h->aborted = true;
		h->st = HS_CELL; /* its answer is a result */
		fleet_send(f, h, m);
	}
}

static void aggregate_step(struct fleet *f)
{
	size_t npart = 0, nready = 0, nheld = 0;

	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->st == HS_FAILED)
			account_failed(f, h);
		if (!participant(h))
			continue;
		npart++;
		nready += h->st == HS_READY;
		nheld += h->st == HS_HELD;
		if (h->st == HS_HELD && !h->aborted && !f->agg_fail[0]) {
			const char *st = proto_get_str(h->result, "status");
			if (st && strcmp(st, "ok"))
				snprintf(f->agg_fail, sizeof(f->agg_fail),
					 "host '%s' failed its part; an aggregate needs every host",
					 h->name);
		}
	}
	if (!f->agg_busy) {
		bool any_idle = false;
		for (size_t i = 0; i < f->nh; i++)
			any_idle |= f->h[i].st == HS_IDLE;
		if (!any_idle)
			return;
		if (f->agg_pos >= f->agg_ntodo) {
			for (size_t i = 0; i < f->nh; i++)
				if (f->h[i].st == HS_IDLE)
					send_end(f, &f->h[i]);
			return;
		}
		f->agg_busy = true;
		f->agg_cur = f->agg_todo[f->agg_pos];
		f->agg_fail[0] = '\0';
		for (size_t i = 0; i < f->nh; i++)
			if (f->h[i].st == HS_IDLE) {
				f->h[i].aborted = false;
				f->h[i].in_agg = true;
				send_cell(f, &f->h[i], f->agg_cur);
			}
		return;
	}
	if (npart && nheld == npart) {
		fleet_write_aggregate(f, f->agg_cur);
		f->agg_busy = false;
		f->agg_pos++;
		return;
	}
	if (!npart) { /* every participant was lost */
		fleet_write_aggregate(f, f->agg_cur);
		f->agg_busy = false;
		f->agg_pos++;
		return;
	}
	if (f->agg_fail[0]) {
		agg_abort(f);
		return;
	}
	if (nready == npart)
		barrier_go(f);
}

/* ---- stopping ---- */

/* SIGINT/SIGTERM: tell every agent to stop (each removes its scratch
 * files and says bye), give them STOP_WAIT_MS, then end their ssh. */
static void stop_all(struct fleet *f)
{
	int64_t until = fleet_now(f) + (int64_t)STOP_WAIT_MS * 1000000;

	f->stopped = true;
	for (size_t i = 0; i < f->nh; i++)
		if (live(&f->h[i]) && f->h[i].conn.to_fd >= 0)
			fleet_send(f, &f->h[i], msg_new("stop"));
	for (;;) {
		struct pollfd pfd[f->nh ? f->nh : 1];
		struct fhost *who[f->nh ? f->nh : 1];
		size_t n = 0;
		for (size_t i = 0; i < f->nh; i++)
			if (live(&f->h[i]) && f->h[i].conn.from_fd >= 0) {
				pfd[n].fd = f->h[i].conn.from_fd;
				pfd[n].events = POLLIN;
				who[n++] = &f->h[i];
			}
		int64_t left = until - fleet_now(f);
		if (!n || left <= 0)
			break;
		if (poll(pfd, n, (int)(left / 1000000) + 1) <= 0)
			continue;
		for (size_t k = 0; k < n; k++) {
			struct fhost *h = who[k];
			char *line;
			size_t len;
			long r;
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			/* drain; a bye or the end of output means it stopped */
			while ((r = linebuf_fill(&h->lb, h->conn.from_fd)) > 0)
				while ((line = linebuf_next(&h->lb, &len)))
					if (strstr(line, "\"bye\""))
						r = 0;
			if (r == 0 || (r < 0 && r != -EAGAIN)) {
				ssh_close_input(&h->conn);
				ssh_reap(&h->conn, 500);
				ssh_release(&h->conn);
				h->st = HS_DONE;
			}
		}
	}
	for (size_t i = 0; i < f->nh; i++)
		if (live(&f->h[i])) {
			ssh_close_input(&f->h[i].conn);
			ssh_reap(&f->h[i].conn, 0);
			ssh_release(&f->h[i].conn);
			f->h[i].st = HS_DONE;
		}
}

/* ---- the loop ---- */

static bool all_done(const struct fleet *f)
{
	for (size_t i = 0; i < f->nh; i++)
		if (live(&f->h[i]) || f->h[i].st == HS_WAITING)
			return false;
	return true;
}

static void fleet_loop(struct fleet *f)
{
	struct pollfd *pfd = calloc(f->nh * 2 + 1, sizeof(*pfd));
	struct fhost **who = calloc(f->nh * 2 + 1, sizeof(*who));

	if (!pfd || !who) {
		fprintf(stderr, "iomatrix: out of memory\n");
		f->fatal = true;
		goto out;
	}
	for (;;) {
		size_t n = 0;
		if (*f->o->stop) {
			stop_all(f);
			break;
		}
		if (!f->gate_passed && gate(f) < 0)
			break;
		if (f->gate_passed) {
			if (f->o->aggregate)
				aggregate_step(f);
			else
				survey_step(f);
		}
		if (all_done(f))
			break;
		for (size_t i = 0; i < f->nh; i++) {
			struct fhost *h = &f->h[i];
			if (!live(h))
				continue;
			if (h->deadline_ns && fleet_now(f) > h->deadline_ns) {
				fleet_host_failed(f, h, "unreachable: no answer from its agent in %lld s",
						  (long long)(HANDSHAKE_NS / 1000000000));
				h->unreachable = true;
				continue;
			}
			if (!h->deadline_ns && h->last_rx_ns &&
			    fleet_now(f) - h->last_rx_ns > f->silence_ns) {
				fleet_host_failed(f, h, "lost: no word from its agent in %lld s (it says alive every %d s); hung or cut off",
						  (long long)(f->silence_ns / 1000000000), FLEET_ALIVE_S);
				continue;
			}
			pfd[n].fd = h->conn.from_fd;
			pfd[n].events = POLLIN;
			who[n++] = h;
			pfd[n].fd = h->conn.err_fd; /* -1: poll skips it */
			pfd[n].events = POLLIN;
			who[n++] = h;
		}
		if (!n)
			continue;
		if (poll(pfd, n, 100) <= 0)
			continue;
		for (size_t k = 0; k < n; k++) {
			if (!pfd[k].revents || !live(who[k]))
				continue;
			if (k % 2)
				read_stderr(who[k]);
			else
				host_read(f, who[k]);
		}
	}
out:
	free(pfd);
	free(who);
}

/* Plan indices each host (and the fleet, in aggregate mode) still has to
 * run: everything on a new set, what is missing or failed on --resume. */
static int plan_todo(struct fleet *f)
{
	size_t N = f->s->ncells;

	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		h->todo = calloc(N ? N : 1, sizeof(*h->todo));
		h->starts = calloc(64 + N, sizeof(*h->starts));
		if (!h->todo || !h->starts)
			return -1;
		for (size_t k = 0; k < N; k++)
			if (!fleet_cell_done(f, f->o->aggregate ? i + 1 : i, k))
				h->todo[h->ntodo++] = k;
	}
	if (f->o->aggregate) {
		f->agg_todo = calloc(N ? N : 1, sizeof(*f->agg_todo));
		if (!f->agg_todo)
			return -1;
		for (size_t k = 0; k < N; k++) {
			bool done = fleet_cell_done(f, 0, k);
			for (size_t i = 0; i < f->nh; i++)
				done = done && fleet_cell_done(f, i + 1, k);
			if (!done)
				f->agg_todo[f->agg_ntodo++] = k;
		}
	}
	return 0;
}

/* "NAME=PATH" for everyone, "HOST:NAME=PATH" for one host (split at the
 * last ':' before '=', so user@host: and [::1]: work). */
static const char *override_host(const char *ov, size_t *hostlen)
{
	const char *eq = strchr(ov, '=');
	const char *colon = NULL;

	for (const char *p = ov; eq && p < eq; p++)
		if (*p == ':')
			colon = p;
	*hostlen = colon ? (size_t)(colon - ov) : 0;
	return colon ? colon + 1 : ov;
}

static int hosts_init(struct fleet *f)
{
	const struct fleet_opts *o = f->o;

	f->h = calloc(o->nhosts ? o->nhosts : 1, sizeof(*f->h));
	if (!f->h)
		return -1;
	f->nh = o->nhosts;
	f->nslots = o->aggregate ? o->nhosts + 1 : o->nhosts;
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		h->name = o->hosts[i];
		h->idx = i;
		h->st = HS_WAITING;
		h->conn.to_fd = h->conn.from_fd = h->conn.err_fd = -1;
		linebuf_init(&h->lb, FLEET_MAX_LINE);
		h->ov = calloc(o->ndevices + 1, sizeof(*h->ov));
		if (!h->ov)
			return -1;
		/* global ones first: the host's own come later and win */
		for (int pass = 0; pass < 2; pass++)
			for (size_t k = 0; k < o->ndevices; k++) {
				size_t hl;
				const char *rest = override_host(o->devices[k], &hl);
				if (pass == 0 && !hl)
					h->ov[h->nov++] = rest;
				else if (pass == 1 && hl && hl == strlen(h->name) &&
					 !strncmp(o->devices[k], h->name, hl))
					h->ov[h->nov++] = rest;
			}
	}
	return 0;
}

static void hosts_release(struct fleet *f)
{
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->conn.pid > 0 || h->conn.to_fd >= 0) {
			if (h->conn.to_fd >= 0 && live(h))
				fleet_send(f, h, msg_new("end"));
			ssh_close_input(&h->conn);
			ssh_reap(&h->conn, 2000);
		}
		ssh_release(&h->conn);
		linebuf_release(&h->lb);
		cJSON_Delete(h->hello);
		cJSON_Delete(h->info);
		cJSON_Delete(h->result);
		free(h->ov);
		free(h->todo);
		free(h->starts);
	}
	free(f->h);
	free(f->agg_todo);
}

/* Check the host list and the options that are not the suite's. */
static int check_opts(const struct fleet_opts *o)
{
	char err[512];

	if (!o->nhosts) {
		fprintf(stderr, "iomatrix: --hosts needs at least one ssh destination\n");
		return -1;
	}
	for (size_t i = 0; i < o->nhosts; i++) {
		if (ssh_check_host(o->hosts[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "iomatrix: --hosts: host %zu: %s\n", i + 1, err);
			return -1;
		}
		for (size_t k = 0; k < i; k++)
			if (!strcmp(o->hosts[i], o->hosts[k])) {
				fprintf(stderr, "iomatrix: --hosts: '%s' is listed twice; each host once (hosts are named as given)\n",
					o->hosts[i]);
				return -1;
			}
	}
	if (o->ssh.remote_iomatrix &&
	    ssh_check_remote_path(o->ssh.remote_iomatrix, err, sizeof(err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", err);
		return -1;
	}
	return 0;
}

int fleet_run(const struct fleet_opts *given)
{
	struct fleet f = { 0 };
	struct fleet_opts ro = *given, *o = &ro;
	struct suite_opts so = { 0 };
	struct errlist errs = ERRLIST_INIT;
	const char **glob = NULL, **rhosts = NULL, **rdevs = NULL;
	char err[2048], suite_copy[PATH_MAX + 16];
	void (*old_pipe)(int) = SIG_DFL;
	bool pipe_set = false;
	int rc = 0;

	f.o = o;
	f.epoch_ns = mono_ns();
	f.silence_ns = (int64_t)FLEET_SILENCE_S * 1000000000;
	const char *sil = getenv("IOMATRIX_FLEET_SILENCE_S");
	if (sil && atoi(sil) > 0)
		f.silence_ns = (int64_t)atoi(sil) * 1000000000;
	if (o->resume) {
		if (fleet_set_open_resume(&f, o, &rhosts, &rdevs, err, sizeof(err)) < 0) {
			fprintf(stderr, "iomatrix: %s\n", err);
			rc = 2;
			goto out;
		}
		if (!o->suite_path) {
			snprintf(suite_copy, sizeof(suite_copy), "%s/suite.yaml", f.rs.dir);
			o->suite_path = suite_copy;
		}
	}
	if (check_opts(o) < 0) {
		rc = 2;
		goto out;
	}
	/* the controller expands the suite with the overrides for everyone;
	 * each agent expands it again with its own paths */
	glob = calloc(o->ndevices + 1, sizeof(*glob));
	if (!glob)
		return 1;
	for (size_t k = 0; k < o->ndevices; k++) {
		size_t hl;
		const char *rest = override_host(o->devices[k], &hl);
		if (!hl)
			glob[so.ndevice_overrides++] = rest;
	}
	so.device_overrides = glob;
	so.scale = o->scale;
	if (suite_load(o->suite_path, &so, &f.s, &errs) < 0) {
		errlist_print(&errs, stderr);
		rc = 2;
		goto out;
	}
	if (!f.s->ncells) {
		fprintf(stderr, "iomatrix: '%s' expands to no cells; check matrix/exclude\n", o->suite_path);
		rc = 2;
		goto out;
	}
	if (o->resume && fleet_set_check_suite(&f, err, sizeof(err)) < 0) {
		fprintf(stderr, "iomatrix: %s\n", err);
		rc = 2;
		goto out;
	}
	if (hosts_init(&f) < 0) {
		fprintf(stderr, "iomatrix: out of memory\n");
		rc = 1;
		goto out;
	}
	/* an ssh that died between our poll and our write is EPIPE on that
	 * host, not the end of the controller */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	pipe_set = true;
	if (!o->quiet)
		fprintf(stderr, "iomatrix: %s run of '%s' on %zu host%s (%zu cells each)\n",
			o->aggregate ? "aggregate" : "survey", f.s->name, f.nh,
			f.nh == 1 ? "" : "s", f.s->ncells);
	if (o->aggregate || !o->parallel || o->parallel >= f.nh)
		for (size_t i = 0; i < f.nh; i++)
			start_host(&f, &f.h[i]);
	else
		for (size_t i = 0; i < o->parallel; i++)
			start_host(&f, &f.h[i]);
	fleet_loop(&f);

	if (f.fatal) {
		rc = 2;
		if (f.gate_passed)
			fleet_set_finish(&f, "failed");
	} else if (f.stopped) {
		rc = 130;
		if (f.gate_passed)
			fleet_set_finish(&f, "interrupted");
		fprintf(stderr, "iomatrix: interrupted; finished cells are kept, continue with: iomatrix run --resume %s\n",
			f.have_rs ? f.rs.dir : "SET");
	} else {
		for (size_t i = 0; i < f.nh; i++)
			account_failed(&f, &f.h[i]);
		rc = f.failed_any ? 1 : 0;
		if (f.have_rs && fleet_set_finish(&f, f.failed_any ? "failed" : "complete") < 0)
			rc = 1;
	}
	if (f.gate_passed) {
		printf("%s\n", f.rs.dir);
		fflush(stdout);
	}
out:
	hosts_release(&f);
	if (pipe_set)
		signal(SIGPIPE, old_pipe);
	if (f.have_rs)
		resultset_release(&f.rs);
	suite_free(f.s);
	errlist_release(&errs);
	free(glob);
	for (size_t i = 0; rhosts && rhosts[i]; i++)
		free((char *)rhosts[i]);
	for (size_t i = 0; rdevs && rdevs[i]; i++)
		free((char *)rdevs[i]);
	free(rhosts);
	free(rdevs);
	return rc;
}
