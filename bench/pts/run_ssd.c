/*
 * run_ssd.c - purge, preconditioning, rounds and steady-state bookkeeping
 * for `run` (run_ssd.h).  The measuring itself is the runner's; this file
 * decides what to run around the cells and what to keep of it.
 */
#include "run_ssd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/fsutil.h"
#include "util/units.h"
#include "util/testhook.h"
#include "util/monotime.h"
#include "host/purge.h"
#include "resultset/ptsfile.h"

/* ---- purge and preconditioning ---- */

bool ssd_device_writes(const struct suite *s, const struct suite_device *d)
{
	for (size_t k = 0; k < s->ncells; k++)
		if (!strcmp(s->cells[k].device, d->name) &&
		    pattern_writes(s->cells[k].pattern))
			return true;
	return d->purge != PURGE_NONE || d->pre.kind != PRECOND_NONE;
}

/* Nothing of the first cell's workload survives but where it runs and how
 * (engine, direct). */
void ssd_precond_cell(const struct cell *first, const struct precond_pass *p,
		      unsigned idx, struct cell *pc)
{
	*pc = *first;
	pc->id = 0;
	pc->pattern = p->pattern;
	pc->bs = p->bs;
	pc->iodepth = p->iodepth;
	pc->jobs = p->jobs;
	pc->runtime_ns = pc->ramp_ns = pc->requests = pc->io_size = 0;
	pc->io_size_mult = 0;
	pc->repeat = 1;
	pc->cooldown_ns = 0;
	pc->fsync = 0;
	pc->end_fsync = false;
	pc->drop_caches = false;
	pc->data = DATA_RANDOM; /* incompressible, whatever the cells use */
	pc->active_range_pct = 100;
	pc->offset = 0;
	pc->offset_pct = 0;
	pc->interval_given = false;
	memset(&pc->steady, 0, sizeof(pc->steady));
	pc->seed = first->seed ^ (0x70726563ull + idx);
	char label[32];
	snprintf(label, sizeof(label), "PRECONDITION %u", idx + 1);
	cell_set_label(pc, label);
	pc->label_given = true;
}

static int run_pass(const struct cell *first, const struct precond_pass *p,
		    unsigned idx, struct run_ctl *ctl, cJSON *pre,
		    bool quiet, bool *created, char *err, size_t errlen)
{
	struct cell pc;
	struct target t;
	struct rep_result rep;
	int r;

	ssd_precond_cell(first, p, idx, &pc);
	r = runner_prepare(&pc, &t, ctl, err, errlen);
	if (r < 0)
		return r;
	*created |= t.created;
	double set = (double)t.file_size * t.nfiles;
	uint64_t amount = p->amount_mult > 0 ? (uint64_t)(p->amount_mult * set) :
			  p->amount_bytes;
	pc.io_size = amount - amount % pc.bs;
	if (pc.io_size < pc.bs)
		pc.io_size = pc.bs;
	if (!quiet) {
		char a[32];
		units_format_size_short(pc.io_size, a, sizeof(a));
		fprintf(stderr, "iomatrix: %s: preconditioning pass %u: %s of %s\n",
			first->device, idx + 1, a, pattern_name(pc.pattern));
	}
	r = runner_run_rep(&pc, &t, ctl, &rep, err, errlen);
	/* the files stay: the cells run on them; the main loop removes them */
	target_release(&t);
	if (r < 0) {
		rep_result_release(&rep);
		return r;
	}
	r = resultset_precond_add_pass(pre, &pc, &rep);
	rep_result_release(&rep);
	if (r < 0)
		snprintf(err, errlen, "out of memory");
	return r;
}

int ssd_prepare_device(const struct suite_device *d, const struct cell *first,
		       bool yes_destroy_data, struct run_ctl *ctl,
		       const char *setdir, bool quiet, bool *created,
		       char *err, size_t errlen)
{
	int r = 0;

	if (d->purge == PURGE_NONE && d->pre.kind == PRECOND_NONE)
		return 0;
	cJSON *j = resultset_precond_new(d->name, precond_kind_name(d->pre.kind));
	if (!j)
		goto oom;
	uint64_t bytes = 0, t0 = mono_ns();
	if (d->purge == PURGE_DISCARD) {
		if (!quiet)
			fprintf(stderr, "iomatrix: %s: purging '%s' (BLKDISCARD)\n",
				d->name, first->path);
		r = purge_discard(d->name, first->path, d->destructive,
				  yes_destroy_data, ctl->stop, &bytes, err, errlen);
		if (r < 0)
			goto out;
	}
	if (resultset_precond_purge(j, d->purge == PURGE_DISCARD, bytes,
				    mono_ns() - t0) < 0)
		goto oom;
	for (unsigned i = 0; i < d->pre.npass; i++) {
		r = run_pass(first, &d->pre.pass[i], i, ctl, j, quiet, created,
			     err, errlen);
		if (r < 0)
			goto out;
		if (ctl->stop && *ctl->stop) {
			r = -EINTR;
			goto out;
		}
	}
	r = resultset_precond_write(setdir, d->name, j, err, errlen);
	goto out;
oom:
	r = -ENOMEM;
	snprintf(err, errlen, "out of memory");
out:
	cJSON_Delete(j);
	return r;
}

/* ---- rounds ---- */

static int track_init(struct rounds_state *st, const struct suite *s)
{
	const struct suite_rounds *r = &s->rounds;
	st->t = calloc(r->ntrack ? r->ntrack : 1, sizeof(*st->t));
	st->pending = calloc(r->ntrack ? r->ntrack : 1, sizeof(double));
	if (!st->t || !st->pending)
		return -ENOMEM;
	st->nt = r->ntrack;
	for (size_t i = 0; i < r->ntrack; i++) {
		struct rounds_track *t = &st->t[i];
		snprintf(t->label, sizeof(t->label), "%s", r->track[i]);
		for (size_t k = 0; k < s->ncells; k++)
			if (!strcmp(s->cells[k].device, st->device) &&
			    !strcmp(s->cells[k].label, t->label))
				t->cell_id = s->cells[k].id;
		t->values = calloc(r->rule.max + 1, sizeof(double));
		if (!t->values)
			return -ENOMEM;
		st->pending[i] = NAN;
	}
	return 0;
}

int rounds_state_load(struct rounds_state *st, const struct suite *s,
		      const char *dev, const char *setdir, char *err,
		      size_t errlen)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->device, sizeof(st->device), "%s", dev);
	st->cfg = &s->rounds;
	if (track_init(st, s) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (resultset_steady_read(setdir, st) < 0)
		return 0; /* not started: round 0 */
	/* judge again what was there: a set steady at its last round is done */
	for (size_t i = 0; i < st->nt; i++) {
		steady_judge(st->t[i].values, st->t[i].n, &st->cfg->rule, &st->t[i].v);
		st->t[i].first_steady = steady_first_round(st->t[i].values,
							   st->t[i].n, &st->cfg->rule);
	}
	bool all = st->nt > 0 && st->rounds_done > 0;
	for (size_t i = 0; i < st->nt; i++)
		all &= st->t[i].v.steady;
	if (all)
		st->steady_round = st->rounds_done;
	st->finished = all || st->rounds_done >= st->cfg->rule.max;
	return 0;
}

void rounds_state_release(struct rounds_state *st)
{
	for (size_t i = 0; i < st->nt; i++)
		free(st->t[i].values);
	free(st->t);
	free(st->pending);
	memset(st, 0, sizeof(*st));
}

void rounds_state_note(struct rounds_state *st, const struct cell *c, double value)
{
	for (size_t i = 0; i < st->nt; i++)
		if (st->t[i].cell_id == c->id)
			st->pending[i] = value;
}

int rounds_state_end_round(struct rounds_state *st, const char *setdir,
			   char *err, size_t errlen)
{
	bool all = st->nt > 0;
	for (size_t i = 0; i < st->nt; i++) {
		struct rounds_track *t = &st->t[i];
		if (t->n < st->cfg->rule.max)
			t->values[t->n++] = isnan(st->pending[i]) ? 0 : st->pending[i];
		st->pending[i] = NAN;
		steady_judge(t->values, t->n, &st->cfg->rule, &t->v);
		if (!t->first_steady && t->v.steady)
			t->first_steady = t->n;
		all &= t->v.steady;
	}
	st->rounds_done++;
	if (all && !st->steady_round)
		st->steady_round = st->rounds_done;
	st->finished = all || st->rounds_done >= st->cfg->rule.max;
	int r = resultset_steady_write(setdir, st, err, errlen);
	if (r >= 0)
		testhook_point("round");
	return r;
}
