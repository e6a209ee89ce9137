/*
 * fleet_host.c - one host's conversation, for controller.c: the messages the
 * controller sends (ping, suite, cell, go, end) and what it does with
 * each line its agent sends back.  Every field of a reply is checked
 * against the state the host is in before it is believed.
 */
#include "fleet_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/version.h"
#include "fleet/launch.h"
#include "resultset/cellcheck.h"
#include "suite/suite.h"

static void send_ping(struct fleet *f, struct fhost *h)
{
	cJSON *m = proto_msg_new("ping");
	int64_t t0 = fleet_now(f);

	if (m)
		cJSON_AddNumberToObject(m, "t0", (double)t0);
	h->samples[h->nsamples].t0 = t0;
	fleet_send(f, h, m);
}

static void send_suite(struct fleet *f, struct fhost *h)
{
	cJSON *m = proto_msg_new("suite"), *d;

	if (!m)
		return;
	cJSON_AddStringToObject(m, "text", f->s->text);
	cJSON_AddStringToObject(m, "file", "suite.yaml");
	d = cJSON_AddArrayToObject(m, "devices");
	for (size_t i = 0; d && i < h->nov; i++)
		cJSON_AddItemToArray(d, cJSON_CreateString(h->ov[i]));
	cJSON_AddNumberToObject(m, "scale", f->o->run.scale > 0 ? f->o->run.scale : 1);
	cJSON_AddBoolToObject(m, "yes_destroy_data", f->o->run.yes_destroy_data);
	cJSON_AddStringToObject(m, "host", h->name);
	/* a launcher's rank: the agent fills {rank}, {node}, {local_rank} */
	const struct fleet_transport *t = f->o->transport;
	for (size_t i = 0; t && i < t->nhosts; i++)
		if (!strcmp(t->hosts[i].name, h->name))
			cJSON_AddItemToObject(m, "launch", launch_host_json(&t->hosts[i]));
	fleet_send(f, h, m);
	h->st = HS_SUITE;
}

void fleet_send_cell(struct fleet *f, struct fhost *h, size_t plan_idx)
{
	const struct cell *c = &f->s->cells[plan_idx];
	cJSON *m;

	/* one start per repetition of this cell: the agent's rep numbers
	 * index it, so it is exactly as long as the cell's repeat */
	free(h->starts);
	h->nstarts = 0;
	h->starts = calloc(c->repeat ? c->repeat : 1, sizeof(*h->starts));
	if (!h->starts) {
		fleet_host_failed(f, h, "out of memory");
		return;
	}
	h->nstarts = c->repeat;
	for (size_t r = 0; r < h->nstarts; r++)
		h->starts[r] = FLEET_NO_START;
	h->next_rep = 1;
	h->go_rep = 0;
	h->cur = plan_idx;
	h->busy = true;
	h->st = HS_CELL;
	h->cell_deadline_ns = fleet_now(f) + fleet_cell_budget_ns(f, c);
	iso8601_now(h->cell_start, sizeof(h->cell_start));
	m = proto_msg_new("cell");
	if (m)
		cJSON_AddNumberToObject(m, "id", c->id);
	fleet_send(f, h, m);
}

void fleet_send_go(struct fleet *f, struct fhost *h, unsigned rep, int64_t at)
{
	cJSON *m = proto_msg_new("go");

	if (m) {
		cJSON_AddNumberToObject(m, "id", f->s->cells[h->cur].id);
		cJSON_AddNumberToObject(m, "rep", rep);
		if (at)
			cJSON_AddNumberToObject(m, "at_ns", (double)(at + h->clk.offset_ns));
	}
	h->st = HS_GO;
	h->go_rep = rep;
	fleet_send(f, h, m);
}

void fleet_send_end(struct fleet *f, struct fhost *h)
{
	h->st = HS_ENDING;
	fleet_send(f, h, proto_msg_new("end"));
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
	cJSON *r = proto_msg_new("hello");
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
	/* the numbers, as any cell from outside: survey mode stores them,
	 * aggregate mode merges them */
	char why[512], clean[512];
	if (cellcheck_cell(cell, why, sizeof(why)) < 0) {
		proto_sanitize(why, strlen(why), clean, sizeof(clean));
		fleet_host_failed(f, h, "protocol error: its cell %d fails validation: %s",
				  f->s->cells[h->cur].id, clean);
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

/* rep_done names the repetition go was sent for, nothing else: its
 * number indexes h->starts. */
static void on_rep_done(struct fleet *f, struct fhost *h, cJSON *m)
{
	int64_t rep, start;

	if (h->st != HS_GO || !proto_get_i64(m, "rep", &rep) || rep < 1 ||
	    rep != (int64_t)h->go_rep || (uint64_t)rep > h->nstarts ||
	    !proto_get_i64(m, "start_ns", &start)) {
		fleet_host_failed(f, h, "protocol error: unexpected rep_done (repetition out of range or not the one started)");
		return;
	}
	/* both within 2^53 (proto_get_i64): no overflow */
	h->starts[rep - 1] = start - h->clk.offset_ns;
	h->next_rep = (unsigned)rep + 1;
	h->st = HS_CELL;
}

static void on_ready(struct fleet *f, struct fhost *h, cJSON *m)
{
	int64_t rep;

	if (h->st != HS_CELL || !proto_get_i64(m, "rep", &rep) || rep < 1 ||
	    rep != (int64_t)h->next_rep || (uint64_t)rep > h->nstarts) {
		fleet_host_failed(f, h, "protocol error: unexpected ready (repetition out of range or out of order)");
		return;
	}
	if (!f->o->aggregate) {
		fleet_send_go(f, h, (unsigned)rep, 0);
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

void fleet_read_stderr(struct fhost *h)
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
	fleet_read_stderr(h);
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
	if (f->o->transport)
		fleet_host_failed(f, h, "lost: its rank's agent ended%s%s", words[0] ? ": " : "", words);
	else
		fleet_host_failed(f, h, "lost: the connection ended%s%s (ssh exit %d)",
				  words[0] ? ": " : "", words, code);
}

void fleet_host_line(struct fleet *f, struct fhost *h, const char *line,
		     size_t len, int64_t now)
{
	char why[256];
	cJSON *m = proto_parse(line, len, why, sizeof(why));

	if (!m) {
		char head[48];
		proto_sanitize(line, len < 40 ? len : 40, head, sizeof(head));
		fleet_host_failed(f, h, "protocol error: its agent sent %s: '%s'", why, head);
		return;
	}
	/* only a whole line counts as a word: a host trickling bytes is
	 * silent (the silence and line deadlines then end it) */
	h->last_rx_ns = now;
	host_on_msg(f, h, m, now);
	cJSON_Delete(m);
}

void fleet_host_read(struct fleet *f, struct fhost *h)
{
	long n;
	char *line;
	size_t len;

	while (fleet_live(h) && (n = linebuf_fill(&h->lb, h->conn.from_fd)) != -EAGAIN) {
		if (n == -EMSGSIZE) {
			fleet_host_failed(f, h, "protocol error: its agent sent a line longer than 64 MiB");
			return;
		}
		if (n <= 0) {
			host_gone(f, h);
			return;
		}
		int64_t now = fleet_now(f);
		bool whole = false;
		while (fleet_live(h) && (line = linebuf_next(&h->lb, &len))) {
			fleet_host_line(f, h, line, len, now);
			whole = true;
		}
		/* the deadline of a line runs from its first byte, not from
		 * the last: a byte every few seconds does not extend it */
		if (!linebuf_pending(&h->lb))
			h->line_start_ns = 0;
		else if (whole || !h->line_start_ns)
			h->line_start_ns = now;
	}
}

/* How long a cell may take on a host, layout and every repetition
 * included: three times its estimate plus half an hour (a slow disk,
 * a big layout), or 12 h for a cell stopped by size (not estimated). */
int64_t fleet_cell_budget_ns(const struct fleet *f, const struct cell *c)
{
	uint64_t est = cell_estimate_ns(c);
	const uint64_t cap = (uint64_t)INT64_MAX / 4;

	if (f->cell_ns > 0)
		return f->cell_ns;
	if (!est)
		return 12ll * 3600 * 1000000000;
	if (est > cap / 3)
		return (int64_t)cap;
	return (int64_t)(3 * est) + 1800ll * 1000000000;
}

bool fleet_host_overdue(struct fleet *f, struct fhost *h)
{
	int64_t now = fleet_now(f);

	if (h->deadline_ns && now > h->deadline_ns) {
		fleet_host_failed(f, h, "unreachable: no answer from its agent in %lld s",
				  (long long)(FLEET_HANDSHAKE_NS / 1000000000));
		h->unreachable = true;
		return true;
	}
	if (h->line_start_ns && now - h->line_start_ns > f->line_ns) {
		fleet_host_failed(f, h, "lost: its agent began a line and did not end it in %.1f s (a stalled or trickling connection)",
				  (double)f->line_ns / 1e9);
		return true;
	}
	if (h->busy && (h->st == HS_CELL || h->st == HS_GO) &&
	    h->cell_deadline_ns && now > h->cell_deadline_ns) {
		fleet_host_failed(f, h, "lost: cell %d did not finish in %.1f s, its deadline (3x its estimate + 30 min)",
				  f->s->cells[h->cur].id,
				  (double)fleet_cell_budget_ns(f, &f->s->cells[h->cur]) / 1e9);
		return true;
	}
	if (!h->deadline_ns && h->last_rx_ns && now - h->last_rx_ns > f->silence_ns) {
		fleet_host_failed(f, h, "lost: no word from its agent in %lld s (it says alive every %d s); hung or cut off",
				  (long long)(f->silence_ns / 1000000000), FLEET_ALIVE_S);
		return true;
	}
	return false;
}
