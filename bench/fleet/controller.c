/*
 * controller.c - fleet.h's fleet_run(): the controller.  One poll loop over
 * every host's ssh pipes; each host walks hello -> clock -> suite -> cells
 * -> end.  Survey hosts run their cells on their own; in aggregate mode
 * fleet_step() holds every host at each repetition until all are ready,
 * then sends go with a start time a few round trips ahead, mapped onto
 * each host's clock.
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

#include "util/fsutil.h"
#include "util/termesc.h"
#include "util/testhook.h"
#include "util/version.h"
#include "util/monotime.h"
#include "fleet/launch.h"
#include "fleet/merge.h"
#include "suite/suite.h"

#define BARRIER_FLOOR_NS (20ll * 1000000)
#define STOP_WAIT_MS 1500
#define STOP_WAIT_LAUNCHED_MS 300

/* ---- scheduling ---- */

static int plan_todo(struct fleet *f);

static void start_host(struct fleet *f, struct fhost *h)
{
	const struct fleet_transport *t = f->o->transport;
	char err[512];
	int r;

	if (t) {
		size_t i = 0;
		while (i < t->nhosts && strcmp(t->hosts[i].name, h->name))
			i++;
		r = -ENOENT;
		snprintf(err, sizeof(err), "not one of this launch's ranks");
		if (i < t->nhosts)
			r = t->connect(t->ctx, i, &h->conn, err, sizeof(err));
	} else {
		r = ssh_spawn(&f->o->ssh, h->name, &h->conn, err, sizeof(err));
	}
	if (r < 0) {
		h->st = HS_HELLO; /* so that failing it counts as unreachable */
		h->unreachable = true;
		fleet_host_failed(f, h, "%s", err);
		return;
	}
	h->st = HS_HELLO;
	h->deadline_ns = fleet_now(f) + FLEET_HANDSHAKE_NS;
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
		if (!f->o->run.quiet)
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

/* A launch that is not what --mpi or --aggregate promise, said before any
 * IO (also with --quiet): run --mpi that no launcher started (the manifest
 * records "singleton", fleet/launch.h), and an aggregate of one host,
 * whose 'all' cell is that host alone. */
static void fleet_warn_one(const struct fleet *f)
{
	const struct fleet_transport *t = f->o->transport;
	const char *who = t && t->record ? proto_get_str(t->record, "launcher") : NULL;
	char hb[256];

	if (who && !strcmp(who, "singleton"))
		fprintf(stderr, "iomatrix: warning: run --mpi was started by no launcher: one "
			"rank, a singleton; start it with mpirun -np N or srun -n N for a fleet "
			"of ranks\n");
	if (f->o->aggregate && f->nh == 1)
		fprintf(stderr, "iomatrix: warning: --aggregate of one host is no aggregate: "
			"its 'all' cell is '%s' alone; give several hosts (or ranks)\n",
			termesc(f->h[0].name, hb, sizeof(hb)));
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
	if ((f->o->run.resume ? fleet_set_resume(f, err, sizeof(err))
			  : fleet_set_begin(f, err, sizeof(err))) < 0) {
		termesc_puts(stderr, "iomatrix: ", err);
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
	fleet_warn_same_machine(f);
	return 0;
}

static void survey_step(struct fleet *f)
{
	size_t active = 0, cap = f->o->parallel ? f->o->parallel : f->nh;

	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->st == HS_FAILED)
			account_failed(f, h);
		if (fleet_live(h))
			active++;
		if (h->st != HS_IDLE)
			continue;
		if (h->pos < h->ntodo)
			fleet_send_cell(f, h, h->todo[h->pos]);
		else
			fleet_send_end(f, h);
	}
	for (size_t i = 0; i < f->nh && active < cap; i++)
		if (f->h[i].st == HS_WAITING) {
			start_host(f, &f->h[i]);
			active++;
		}
}

static bool participant(const struct fhost *h)
{
	return h->busy && fleet_live(h);
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
			fleet_send_go(f, &f->h[i], rep, at);
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
		m = proto_msg_new("abort");
		if (m) {
			cJSON_AddNumberToObject(m, "id", f->s->cells[f->agg_cur].id);
			cJSON_AddStringToObject(m, "reason", f->agg_fail);
		}
		h->aborted = true;
		h->st = HS_CELL; /* its answer is a result */
		fleet_send(f, h, m);
	}
}

/* Does any host see cell plan_idx's device as a file (not a directory,
 * not a block device)?  Then the hosts may share it (NFS, Lustre: one file
 * for all), and it must be laid out once. */
static bool agg_file_target(const struct fleet *f, size_t plan_idx)
{
	const char *dev = f->s->cells[plan_idx].device;

	for (size_t i = 0; i < f->nh; i++) {
		const cJSON *d, *devs = cJSON_GetObjectItemCaseSensitive(f->h[i].info, "devices");
		cJSON_ArrayForEach(d, devs) {
			const char *name = proto_get_str(d, "name");
			const char *kind = proto_get_str(cJSON_GetObjectItemCaseSensitive(d, "fingerprint"),
							 "kind");
			if (name && kind && !strcmp(name, dev) && !strcmp(kind, "file"))
				return true;
		}
	}
	return false;
}

/*
 * Start the aggregate's next cell on every idle host.  On a file target
 * every host would create and lay out the same shared file at once: one
 * won O_CREAT|O_EXCL and the others failed (4 of 5 runs of three hosts).
 * So the first host alone gets the cell; it lays the file out and says
 * ready, and only then do the others get it (agg_release): they find the
 * file complete, with iomatrix's marker, and open it as it is (a host on
 * its own filesystem lays out its own).  Every host still waits at the
 * barrier before the first IO.  Directories and block devices need no
 * order: a host's scratch files carry its name.
 */
static void agg_start(struct fleet *f)
{
	bool staged = agg_file_target(f, f->agg_cur), first = true;

	f->agg_staged = false;
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->st != HS_IDLE)
			continue;
		h->aborted = false;
		h->in_agg = true;
		if (first || !staged) {
			fleet_send_cell(f, h, f->agg_cur);
			first = false;
		} else {
			h->agg_wait = true;   /* takes part, not a participant yet */
			f->agg_staged = true;
		}
	}
}

/* The first host laid the shared file out (it is ready, or done with the
 * cell, or lost): the others get the cell now. */
static void agg_release(struct fleet *f)
{
	f->agg_staged = false;
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (!h->agg_wait)
			continue;
		h->agg_wait = false;
		if (h->st == HS_IDLE)
			fleet_send_cell(f, h, f->agg_cur);
		else
			h->in_agg = false;   /* lost meanwhile: written by account_failed */
	}
}

static void aggregate_step(struct fleet *f)
{
	size_t npart = 0, nready = 0, nheld = 0;

	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->st == HS_FAILED) {
			account_failed(f, h);
			if (h->agg_wait)   /* its cells, this one too, are written */
				h->in_agg = h->agg_wait = false;
		}
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
					fleet_send_end(f, &f->h[i]);
			return;
		}
		f->agg_busy = true;
		f->agg_cur = f->agg_todo[f->agg_pos];
		f->agg_fail[0] = '\0';
		agg_start(f);
		return;
	}
	/* staged: the first host is the one participant until it is ready;
	 * if it failed, the aggregate fails below and the waiting hosts are
	 * written failed with the reason (fleet_write_aggregate) */
	if (f->agg_staged && !f->agg_fail[0] && npart) {
		if (nready == npart)
			agg_release(f);
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
 * files and says bye), give them STOP_WAIT_MS, then end their ssh.  A
 * launcher's ranks got the signal themselves, and mpirun sends SIGKILL a
 * second after SIGTERM: the set must be marked interrupted before that. */
static void stop_all(struct fleet *f)
{
	int64_t wait_ms = f->o->transport ? STOP_WAIT_LAUNCHED_MS : STOP_WAIT_MS;
	int64_t until = fleet_now(f) + wait_ms * 1000000;

	f->stopped = true;
	for (size_t i = 0; i < f->nh; i++)
		if (fleet_live(&f->h[i]) && f->h[i].conn.to_fd >= 0)
			fleet_send(f, &f->h[i], proto_msg_new("stop"));
	for (;;) {
		struct pollfd pfd[f->nh ? f->nh : 1];
		struct fhost *who[f->nh ? f->nh : 1];
		size_t n = 0;
		for (size_t i = 0; i < f->nh; i++)
			if (fleet_live(&f->h[i]) && f->h[i].conn.from_fd >= 0) {
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
		if (fleet_live(&f->h[i])) {
			ssh_close_input(&f->h[i].conn);
			ssh_reap(&f->h[i].conn, 0);
			ssh_release(&f->h[i].conn);
			f->h[i].st = HS_DONE;
		}
}

/* ---- the loop ---- */

int fleet_step(struct fleet *f)
{
	if (!f->gate_passed && gate(f) < 0)
		return -1;
	if (f->gate_passed) {
		if (f->o->aggregate)
			aggregate_step(f);
		else
			survey_step(f);
	}
	return 0;
}

static bool all_done(const struct fleet *f)
{
	for (size_t i = 0; i < f->nh; i++)
		if (fleet_live(&f->h[i]) || f->h[i].st == HS_WAITING)
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
		if (*f->o->run.stop) {
			stop_all(f);
			break;
		}
		if (fleet_step(f) < 0)
			break;
		if (all_done(f))
			break;
		for (size_t i = 0; i < f->nh; i++) {
			struct fhost *h = &f->h[i];
			if (!fleet_live(h))
				continue;
			if (fleet_host_overdue(f, h))
				continue;
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
			if (!pfd[k].revents || !fleet_live(who[k]))
				continue;
			if (k % 2)
				fleet_read_stderr(who[k]);
			else
				fleet_host_read(f, who[k]);
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
		if (!h->todo)
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

int fleet_hosts_init(struct fleet *f)
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
		h->ov = calloc(o->run.ndevices + 1, sizeof(*h->ov));
		if (!h->ov)
			return -1;
		/* global ones first: the host's own come later and win */
		for (int pass = 0; pass < 2; pass++)
			for (size_t k = 0; k < o->run.ndevices; k++) {
				size_t hl;
				const char *rest = override_host(o->run.devices[k], &hl);
				if (pass == 0 && !hl)
					h->ov[h->nov++] = rest;
				else if (pass == 1 && hl && hl == strlen(h->name) &&
					 !strncmp(o->run.devices[k], h->name, hl))
					h->ov[h->nov++] = rest;
			}
	}
	return 0;
}

void fleet_hosts_release(struct fleet *f)
{
	for (size_t i = 0; i < f->nh; i++) {
		struct fhost *h = &f->h[i];
		if (h->conn.pid > 0 || h->conn.to_fd >= 0) {
			if (h->conn.to_fd >= 0 && fleet_live(h))
				fleet_send(f, h, proto_msg_new("end"));
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
		/* a launcher's ranks are named by us (launch.h), not typed */
		if (!o->transport && ssh_check_host(o->hosts[i], err, sizeof(err)) < 0) {
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
		termesc_puts(stderr, "iomatrix: ", err);
		return -1;
	}
	return 0;
}

/* A launcher's fleet: every host of the set (a resumed one's too) is a
 * rank of this launch, and every rank a host: a resume needs the same
 * ranks per node as the run it completes. */
static int check_launch(const struct fleet_opts *o)
{
	const struct fleet_transport *t = o->transport;
	size_t i, k;

	if (!t)
		return 0;
	for (i = 0; i < o->nhosts; i++) {
		for (k = 0; k < t->nhosts && strcmp(t->hosts[k].name, o->hosts[i]); k++)
			;
		if (k == t->nhosts)
			break;
	}
	if (i == o->nhosts && o->nhosts == t->nhosts)
		return 0;
	fprintf(stderr, "iomatrix: this launch has %zu rank(s) (%s%s), the set has %zu host(s) (%s%s); "
		"a resumed set needs the same ranks on the same nodes: launch it as the run was launched\n",
		t->nhosts, t->nhosts ? t->hosts[0].name : "", t->nhosts > 1 ? ", ..." : "",
		o->nhosts, o->nhosts ? o->hosts[0] : "", o->nhosts > 1 ? ", ..." : "");
	return -1;
}

int fleet_run(const struct fleet_opts *given)
{
	struct fleet f = { 0 };
	struct fleet_opts ro = *given, *o = &ro;
	struct suite_opts so = { 0 };
	struct errlist errs = ERRLIST_INIT;
	const char **glob = NULL, **rhosts = NULL, **rdevs = NULL;
	char err[2048];
	void (*old_pipe)(int) = SIG_DFL;
	bool pipe_set = false;
	int rc = 0;

	f.o = o;
	f.epoch_ns = (int64_t)mono_ns();
	/* test hooks (testhook.h): short deadlines instead of minutes */
	f.silence_ns = testhook_ms("fleet_silence_ms", FLEET_SILENCE_S * 1000ll) * 1000000;
	f.line_ns = testhook_ms("fleet_line_ms", FLEET_LINE_S * 1000ll) * 1000000;
	f.cell_ns = testhook_ms("fleet_cell_ms", 0) * 1000000;
	f.lock_fd = -1;
	if (o->run.resume &&
	    fleet_set_open_resume(&f, o, &rhosts, &rdevs, err, sizeof(err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", err);
		rc = 2;
		goto out;
	}
	if (check_opts(o) < 0 || check_launch(o) < 0) {
		rc = 2;
		goto out;
	}
	/* the controller expands the suite with the overrides for everyone;
	 * each agent expands it again with its own paths */
	glob = calloc(o->run.ndevices + 1, sizeof(*glob));
	if (!glob)
		return 1;
	for (size_t k = 0; k < o->run.ndevices; k++) {
		size_t hl;
		const char *rest = override_host(o->run.devices[k], &hl);
		if (!hl)
			glob[so.ndevice_overrides++] = rest;
	}
	so.device_overrides = glob;
	so.scale = o->run.scale;
	if (suite_load(o->run.suite_path, &so, &f.s, &errs) < 0) {
		errlist_print(&errs, stderr);
		rc = 2;
		goto out;
	}
	if (!f.s->ncells) {
		fprintf(stderr, "iomatrix: '%s' expands to no cells; check matrix/exclude\n", o->run.suite_path);
		rc = 2;
		goto out;
	}
	/* the agents run repetitions; a sweep's load points are bench/run's */
	for (size_t i = 0; i < f.s->ncells; i++)
		if (load_sweep_on(&f.s->cells[i].load_sweep)) {
			fprintf(stderr, "iomatrix: '%s': cell %d has a load_sweep, which runs "
				"on one host only (no --hosts); run it without --hosts, or "
				"give the cell rate_iops for one load\n", o->run.suite_path,
				f.s->cells[i].id);
			rc = 2;
			goto out;
		}
	if (o->run.resume && fleet_set_check_suite(&f, err, sizeof(err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", err);
		rc = 2;
		goto out;
	}
	if (fleet_hosts_init(&f) < 0) {
		fprintf(stderr, "iomatrix: out of memory\n");
		rc = 1;
		goto out;
	}
	/* an ssh that died between our poll and our write is EPIPE on that
	 * host, not the end of the controller */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	pipe_set = true;
	if (!o->run.quiet)
		fprintf(stderr, "iomatrix: %s run of '%s' on %zu host%s (%zu cells each)\n",
			o->aggregate ? "aggregate" : "survey", f.s->name, f.nh,
			f.nh == 1 ? "" : "s", f.s->ncells);
	fleet_warn_one(&f);
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
		if (given->run.set_dir)
			snprintf(given->run.set_dir, given->run.set_dir_len, "%s", f.rs.dir);
	}
out:
	fleet_hosts_release(&f);
	if (pipe_set)
		signal(SIGPIPE, old_pipe);
	if (f.have_rs)
		resultset_release(&f.rs);
	if (f.lock_fd >= 0)
		close(f.lock_fd);
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
