/*
 * run_loop.c - run_int.h's run_all(): the cells of a run, device by device
 * (purge and precondition first) and round by round, each cell's
 * repetitions and load sweep through the runner, and its file written as
 * soon as it is known.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cliopt.h"
#include "util/testhook.h"
#include "util/termesc.h"
#include "util/units.h"
#include "pts/run_ssd.h"
#include "resultset/qosfile.h"
#include "runner/sweep.h"
#include "run_int.h"

/* load_sweep: after the probe (the repetitions), the load points; NULL:
 * none, stopped, or failed (cerr) */
static cJSON *cell_sweep(struct run_state *st, const struct cell *c,
			 unsigned nreps, char *cerr, size_t len)
{
	static struct qos_point pts[SWEEP_MAX_POINTS];
	struct sweep_data sd = { .pts = pts, .target = c->qos, .knee = -1 };

	if (!load_sweep_on(&c->load_sweep) || !nreps || cerr[0] || *st->stop)
		return NULL;
	int ret = runner_sweep(c, &st->files.tgt, st->ctl, st->reps.reps, nreps, &sd.max_iops,
			       pts, &sd.n, cerr, len);
	run_progress_clear(st->ps);
	return ret < 0 ? NULL : resultset_sweep_to_json(&sd);
}

/* Run cell i (round 0: no rounds) and write its file.  rst gets the
 * tracked value of this round. */
static void run_cell(struct run_state *st, size_t i, unsigned round,
		     struct rounds_state *rst)
{
	const struct cell *c = &st->s->cells[i];
	struct run_progress *ps = st->ps;
	char started[32], finished[32], cerr[PATH_MAX + 512] = "", err[1024];
	struct steady_verdict sv = { 0 };
	unsigned nreps = 0;
	cJSON *sweep = NULL;

	if (!round && resultset_cell_ok(st->rs, c->id)) {
		/* resume: the index says measured; the file must agree */
		char why[256];
		if (resultset_cell_verify(st->rs, c, why, sizeof(why)) == 0)
			return;
		fprintf(stderr, "iomatrix: cell %d (%s %s): %s; measuring it again\n",
			c->id, c->device, c->label, why);
	}
	run_progress_cell(ps, i, c, round);
	iso8601_now(started, sizeof(started));
	int ret = runner_files_use(&st->files, c, st->ctl, cerr, sizeof(cerr));
	run_progress_clear(ps);
	if (ret == -EINTR || *st->stop)
		return;
	if (ret < 0) {
		if (!cerr[0])
			snprintf(cerr, sizeof(cerr), "cannot prepare '%s': %s", c->path,
				 strerror(-ret));
		if (runner_error_is_input(ret)) {
			st->fatal = 1;
			termesc_puts(stderr, "iomatrix: ", cerr);
		}
	} else {
		nreps = runner_cell_reps(c, &st->files.tgt, st->ctl, ps, &st->reps, &sv,
					 cerr, sizeof(cerr));
		sweep = cell_sweep(st, c, nreps, cerr, sizeof(cerr));
		if (*st->stop) {
			cJSON_Delete(sweep);
			/* an unfinished cell is not kept: --resume reruns it */
			for (unsigned r = 0; r < nreps; r++)
				rep_result_release(&st->reps.reps[r]);
			return;
		}
	}
	iso8601_now(finished, sizeof(finished));
	if (rst)
		rounds_state_note(rst, c, runner_reps_metric(st->reps.reps, nreps,
							     st->s->rounds.metric));
	struct cell_outcome out = {
		.error = cerr[0] ? cerr : NULL, .started_at = started,
		.finished_at = finished, .reps = st->reps.reps, .nreps = nreps,
		.load_sweep = sweep,
	};
	cJSON *cj = resultset_cell_window_json(st->rs->dir, c, &out, round,
					       st->s->rounds.rule.window, &sv);
	cJSON_Delete(sweep);
	if (!st->fatal) /* a fatal error was printed once already */
		run_progress_cell_line(ps, c, cerr[0] ? cerr : NULL, st->reps.reps, nreps);
	for (unsigned r = 0; r < nreps; r++)
		rep_result_release(&st->reps.reps[r]);
	if (!cj) {
		fprintf(stderr, "iomatrix: out of memory writing cell %d\n", c->id);
		st->rc = EXIT_RUNTIME;
		st->fatal = 1;
		return;
	}
	if (cerr[0])
		st->failed_any = true;
	if (resultset_write_cell(st->rs, c->id, cj, err, sizeof(err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", err);
		st->rc = EXIT_RUNTIME;
		st->fatal = 1;
		return;
	}
	testhook_point("cell");
	run_progress_cell_done(ps);
}

static const struct suite_device *device_of(const struct suite *s, const char *name)
{
	for (size_t d = 0; d < s->ndevices; d++)
		if (!strcmp(s->devices[d].name, name))
			return &s->devices[d];
	return NULL;
}

/* Purge and precondition before the device's first cell runs, unless a
 * resumed device already measured something (its state would be undone). */
static int device_begin(struct run_state *st, const struct suite_device *d,
			const struct cell *first, bool fresh)
{
	char err[PATH_MAX + 512] = "";
	if (!fresh || (d->purge == PURGE_NONE && d->pre.kind == PRECOND_NONE))
		return 0;
	runner_files_drop(&st->files, first);
	int r = ssd_prepare_device(d, first, st->a->sh.yes_destroy_data, st->ctl,
				   st->rs->dir, st->a->sh.quiet, &st->files.pre_created,
				   err, sizeof(err));
	run_progress_clear(st->ps);
	if (r == -EINTR || *st->stop)
		return -1;
	if (r < 0) {
		fprintf(stderr, "iomatrix: device '%s': %s\n", d->name, err);
		st->fatal = 1;
		if (!runner_error_is_input(r)) {
			st->rc = EXIT_RUNTIME;
			st->failed_any = true;
		}
		return -1;
	}
	return 0;
}

/* The cells [i0, i1) of one device: once, or round by round. */
static void run_device(struct run_state *st, size_t i0, size_t i1)
{
	const struct suite *s = st->s;
	const struct suite_device *d = device_of(s, s->cells[i0].device);
	struct rounds_state rst;
	char err[1024];

	if (!s->rounds.on) {
		bool fresh = true;
		for (size_t i = i0; i < i1; i++)
			fresh &= !resultset_cell_ok(st->rs, s->cells[i].id);
		if (d && device_begin(st, d, &s->cells[i0], fresh) < 0)
			return;
		for (size_t i = i0; i < i1 && !*st->stop && !st->fatal; i++)
			run_cell(st, i, 0, NULL);
		return;
	}
	if (rounds_state_load(&rst, s, s->cells[i0].device, st->rs->dir, err,
			      sizeof(err)) < 0) {
		termesc_puts(stderr, "iomatrix: ", err);
		st->rc = EXIT_RUNTIME;
		st->fatal = 1;
		return;
	}
	if (rst.finished)
		goto out;
	if (rst.rounds_done)
		run_progress_round(st->ps, rst.device, rst.rounds_done + 1, 0, true);
	if (d && device_begin(st, d, &s->cells[i0], rst.rounds_done == 0) < 0)
		goto out;
	while (!rst.finished && !*st->stop && !st->fatal) {
		unsigned round = rst.rounds_done + 1;
		run_progress_round(st->ps, rst.device, round, s->rounds.rule.max, false);
		for (size_t i = i0; i < i1 && !*st->stop && !st->fatal; i++)
			run_cell(st, i, round, &rst);
		if (*st->stop || st->fatal)
			break; /* an unfinished round is run again on --resume */
		if (rounds_state_end_round(&rst, st->rs->dir, err, sizeof(err)) < 0) {
			termesc_puts(stderr, "iomatrix: ", err);
			st->rc = EXIT_RUNTIME;
			st->fatal = 1;
			break;
		}
	}
out:
	run_progress_rounds_verdict(st->ps, rst.device, rst.steady_round, rst.finished,
				    rst.rounds_done, rst.cfg->rule.window);
	rounds_state_release(&rst);
}

/* Every device in plan order (a device's cells are contiguous). */
void run_all(struct run_state *st)
{
	const struct suite *s = st->s;
	size_t i = 0;
	while (i < s->ncells && !*st->stop && !st->fatal) {
		size_t end = i + 1;
		while (end < s->ncells && !strcmp(s->cells[end].device, s->cells[i].device))
			end++;
		run_device(st, i, end);
		i = end;
	}
	run_progress_clear(st->ps);
	runner_files_drop(&st->files, NULL);
}
