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

#include "common/fsutil.h"
#include "common/units.h"
#include "common/testhook.h"
#include "host/purge.h"
#include "resultset/resultset.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int write_dev_json(const char *setdir, const char *sub, const char *dev,
			  const cJSON *j, char *err, size_t errlen)
{
	char path[PATH_MAX + 128];
	snprintf(path, sizeof(path), "%s/%s", setdir, sub);
	int r = fsutil_mkdir_p(path);
	if (r == 0) {
		snprintf(path, sizeof(path), "%s/%s/%s.json", setdir, sub, dev);
		r = resultset_write_json(path, j);
	}
	if (r < 0)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-r));
	return r;
}

/* ---- purge and preconditioning ---- */

/* The write pass as a cell on the device's file set: nothing of the first
 * cell's workload survives but where it runs and how (engine, direct). */
static void pass_cell(const struct cell *first, const struct precond_pass *p,
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
	snprintf(pc->label, sizeof(pc->label), "PRECONDITION %u", idx + 1);
	pc->label_given = true;
}

static int run_pass(const struct cell *first, const struct precond_pass *p,
		    unsigned idx, struct run_ctl *ctl, cJSON *passes,
		    bool quiet, bool *created, char *err, size_t errlen)
{
	struct cell pc;
	struct target t;
	struct rep_result rep;
	int r;

	pass_cell(first, p, idx, &pc);
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
	cJSON *o = cJSON_CreateObject(), *reps, *rj = resultset_rep_to_json(&rep, 1);
	cJSON *params = cell_to_json(&pc);
	rep_result_release(&rep);
	if (!o || !rj || !params || !(reps = cJSON_AddArrayToObject(o, "repetitions"))) {
		cJSON_Delete(o);
		cJSON_Delete(rj);
		cJSON_Delete(params);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	cJSON_AddItemToObject(o, "params", params);
	cJSON_AddItemToArray(reps, rj);
	cJSON_AddItemToArray(passes, o);
	return 0;
}

int ssd_prepare_device(const struct suite_device *d, const struct cell *first,
		       bool yes_destroy_data, struct run_ctl *ctl,
		       const char *setdir, bool quiet, bool *created,
		       char *err, size_t errlen)
{
	char now[32];
	int r = 0;

	if (d->purge == PURGE_NONE && d->pre.kind == PRECOND_NONE)
		return 0;
	cJSON *j = cJSON_CreateObject(), *passes;
	iso8601_now(now, sizeof(now));
	if (!j || !cJSON_AddNumberToObject(j, "schema_version", RESULTSET_SCHEMA_VERSION) ||
	    !cJSON_AddStringToObject(j, "device", d->name) ||
	    !cJSON_AddStringToObject(j, "started_at", now) ||
	    !cJSON_AddStringToObject(j, "kind", precond_kind_name(d->pre.kind)))
		goto oom;
	if (d->purge == PURGE_DISCARD) {
		uint64_t bytes = 0, t0 = mono_ns();
		if (!quiet)
			fprintf(stderr, "iomatrix: %s: purging '%s' (BLKDISCARD)\n",
				d->name, first->path);
		r = purge_discard(d->name, first->path, d->destructive,
				  yes_destroy_data, ctl->stop, &bytes, err, errlen);
		if (r < 0)
			goto out;
		cJSON *p = cJSON_AddObjectToObject(j, "purge");
		if (!p || !cJSON_AddStringToObject(p, "kind", "discard") ||
		    !cJSON_AddNumberToObject(p, "bytes", (double)bytes) ||
		    !cJSON_AddNumberToObject(p, "runtime_ns", (double)(mono_ns() - t0)))
			goto oom;
	} else if (!cJSON_AddNullToObject(j, "purge")) {
		goto oom;
	}
	if (!(passes = cJSON_AddArrayToObject(j, "passes")))
		goto oom;
	for (unsigned i = 0; i < d->pre.npass; i++) {
		r = run_pass(first, &d->pre.pass[i], i, ctl, passes, quiet, created,
			     err, errlen);
		if (r < 0)
			goto out;
		if (ctl->stop && *ctl->stop) {
			r = -EINTR;
			goto out;
		}
	}
	iso8601_now(now, sizeof(now));
	if (!cJSON_AddStringToObject(j, "status", "ok") ||
	    !cJSON_AddStringToObject(j, "finished_at", now))
		goto oom;
	r = write_dev_json(setdir, "precondition", d->name, j, err, errlen);
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

/* Round values kept in steady/DEV.json: only the rounds all of whose cells
 * were written (rounds_done), in the suite's track order. */
static void state_from_json(struct rounds_state *st, const cJSON *j)
{
	const cJSON *rd = cJSON_GetObjectItemCaseSensitive(j, "rounds_done");
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(j, "tracks"), *o;
	/* from the set: bounded before the cast (1e400 would be undefined) */
	unsigned done = cJSON_IsNumber(rd) && rd->valuedouble >= 0 &&
			rd->valuedouble <= 1e6 ? (unsigned)rd->valuedouble : 0;
	if (done > st->cfg->rule.max)
		done = st->cfg->rule.max;
	cJSON_ArrayForEach(o, tr) {
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, "label");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "values");
		for (size_t i = 0; cJSON_IsString(l) && i < st->nt; i++) {
			if (strcmp(st->t[i].label, l->valuestring))
				continue;
			const cJSON *x;
			st->t[i].n = 0;
			cJSON_ArrayForEach(x, v)
				if (st->t[i].n < done && cJSON_IsNumber(x))
					st->t[i].values[st->t[i].n++] = x->valuedouble;
		}
	}
	/* a track with fewer values than rounds_done: restart the device */
	for (size_t i = 0; i < st->nt; i++)
		if (st->t[i].n < done)
			done = 0;
	for (size_t i = 0; i < st->nt; i++)
		st->t[i].n = done;
	st->rounds_done = done;
}

int rounds_state_load(struct rounds_state *st, const struct suite *s,
		      const char *dev, const char *setdir, char *err,
		      size_t errlen)
{
	char path[PATH_MAX + 128], why[256];
	memset(st, 0, sizeof(*st));
	snprintf(st->device, sizeof(st->device), "%s", dev);
	st->cfg = &s->rounds;
	if (track_init(st, s) < 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/steady/%s.json", setdir, dev);
	cJSON *j = resultset_read_json(path, why, sizeof(why));
	if (!j)
		return 0; /* not started: round 0 */
	state_from_json(st, j);
	cJSON_Delete(j);
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

static cJSON *track_json(const struct rounds_state *st, const struct rounds_track *t)
{
	cJSON *o = cJSON_CreateObject(), *v;
	const struct steady_verdict *x = &t->v;
	if (!o || !cJSON_AddStringToObject(o, "label", t->label) ||
	    !cJSON_AddNumberToObject(o, "cell_id", t->cell_id) ||
	    !(v = cJSON_AddArrayToObject(o, "values")))
		goto err;
	for (size_t i = 0; i < t->n; i++)
		cJSON_AddItemToArray(v, cJSON_CreateNumber(t->values[i]));
	(void)st;
	if (!cJSON_AddBoolToObject(o, "steady", x->steady) ||
	    !(t->first_steady ? cJSON_AddNumberToObject(o, "first_steady_round",
							(double)t->first_steady) :
	      cJSON_AddNullToObject(o, "first_steady_round")) ||
	    !cJSON_AddNumberToObject(o, "avg", x->avg) ||
	    !cJSON_AddNumberToObject(o, "range", x->range) ||
	    !cJSON_AddNumberToObject(o, "range_pct", x->range_frac * 100) ||
	    !cJSON_AddNumberToObject(o, "slope", x->slope) ||
	    !cJSON_AddNumberToObject(o, "excursion", x->excursion) ||
	    !cJSON_AddNumberToObject(o, "slope_pct", x->slope_frac * 100) ||
	    !cJSON_AddBoolToObject(o, "range_ok", x->range_ok) ||
	    !cJSON_AddBoolToObject(o, "slope_ok", x->slope_ok))
		goto err;
	return o;
err:
	cJSON_Delete(o);
	return NULL;
}

static cJSON *state_json(const struct rounds_state *st)
{
	const struct steady_rule *rule = &st->cfg->rule;
	cJSON *j = cJSON_CreateObject(), *r, *w, *tr;
	unsigned first = st->rounds_done > rule->window ?
			 st->rounds_done - rule->window + 1 : 1;
	if (!j || !cJSON_AddNumberToObject(j, "schema_version", RESULTSET_SCHEMA_VERSION) ||
	    !cJSON_AddStringToObject(j, "device", st->device) ||
	    !cJSON_AddStringToObject(j, "metric", ss_metric_name(st->cfg->metric)) ||
	    !(r = cJSON_AddObjectToObject(j, "rule")) ||
	    !cJSON_AddNumberToObject(r, "window", rule->window) ||
	    !cJSON_AddNumberToObject(r, "range_pct", rule->range_frac * 100) ||
	    !cJSON_AddNumberToObject(r, "slope_pct", rule->slope_frac * 100) ||
	    !cJSON_AddNumberToObject(r, "max", rule->max) ||
	    !cJSON_AddNumberToObject(j, "rounds_done", st->rounds_done) ||
	    !cJSON_AddStringToObject(j, "status", st->steady_round ? "steady" :
				     st->finished ? "not_reached" : "running") ||
	    !(st->steady_round ? cJSON_AddNumberToObject(j, "steady_round", st->steady_round) :
	      cJSON_AddNullToObject(j, "steady_round")) ||
	    !(w = cJSON_AddObjectToObject(j, "window")) ||
	    !cJSON_AddNumberToObject(w, "first", st->rounds_done ? first : 0) ||
	    !cJSON_AddNumberToObject(w, "last", st->rounds_done) ||
	    !(tr = cJSON_AddArrayToObject(j, "tracks")))
		goto err;
	for (size_t i = 0; i < st->nt; i++) {
		cJSON *t = track_json(st, &st->t[i]);
		if (!t)
			goto err;
		cJSON_AddItemToArray(tr, t);
	}
	return j;
err:
	cJSON_Delete(j);
	return NULL;
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
	cJSON *j = state_json(st);
	if (!j) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int r = write_dev_json(setdir, "steady", st->device, j, err, errlen);
	cJSON_Delete(j);
	if (r >= 0)
		testhook_point("round");
	return r;
}

/* ---- cell files ---- */

double ssd_reps_metric(const struct rep_result *r, unsigned n, enum ss_metric m)
{
	double sum = 0, lat = 0, latn = 0;
	for (unsigned i = 0; i < n; i++) {
		double secs = (double)r[i].runtime_ns / 1e9;
		for (int d = 0; d < DIR__COUNT; d++) {
			if (secs > 0)
				sum += m == SS_BW ? (double)r[i].dir[d].bytes / secs :
				       (double)r[i].dir[d].ios / secs;
			lat += r[i].dir[d].lat.mean * (double)r[i].dir[d].lat.n;
			latn += (double)r[i].dir[d].lat.n;
		}
	}
	if (m == SS_LAT_MEAN)
		return latn > 0 ? lat / latn : 0;
	return n ? sum / n : 0;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(x) ? x->valuedouble : 0;
}

int ssd_rep_from_json(const cJSON *rep, struct rep_result *out)
{
	static const char *const names[DIR__COUNT] = { "read", "write" };
	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(rep))
		return -1;
	out->runtime_ns = (uint64_t)num(rep, "runtime_ns");
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(rep, "cpu");
	out->have_cpu = cJSON_IsObject(cpu);
	out->cpu_usr_pct = num(cpu, "usr_pct");
	out->cpu_sys_pct = num(cpu, "sys_pct");
	for (int d = 0; d < DIR__COUNT; d++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(rep, names[d]);
		struct dir_result *dr = &out->dir[d];
		welford_init(&dr->lat);
		if (!cJSON_IsObject(x))
			continue;
		const cJSON *lat = cJSON_GetObjectItemCaseSensitive(x, "lat_ns");
		dr->present = true;
		dr->known = REP_EXACT; /* what we wrote: moments and histogram */
		dr->ios = (uint64_t)num(x, "ios");
		dr->bytes = (uint64_t)num(x, "bytes");
		dr->iops = num(x, "iops");
		dr->bw_bytes_s = num(x, "bw_bytes_s");
		/* Welford state from the exact moments we stored */
		dr->lat.n = dr->ios;
		dr->lat.mean = num(lat, "mean");
		double sd = num(lat, "stddev");
		dr->lat.m2 = dr->ios > 1 ? sd * sd * (double)(dr->ios - 1) : 0;
		dr->lat.min = (uint64_t)num(lat, "min");
		dr->lat.max = (uint64_t)num(lat, "max");
		dr->hist = calloc(1, sizeof(*dr->hist));
		if (!dr->hist ||
		    hist_from_json(cJSON_GetObjectItemCaseSensitive(x, "hist"), dr->hist) < 0) {
			rep_result_release(out);
			return -1;
		}
	}
	return 0;
}

cJSON *ssd_old_round_reps(const char *setdir, int id, unsigned round)
{
	char path[PATH_MAX + 64], why[256];
	cJSON *out = cJSON_CreateArray(), *rep;
	snprintf(path, sizeof(path), "%s/cells/%04d.json", setdir, id);
	cJSON *j = resultset_read_json(path, why, sizeof(why));
	if (!j || !out)
		return out;
	cJSON_ArrayForEach(rep, cJSON_GetObjectItemCaseSensitive(j, "repetitions")) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(rep, "round");
		if (cJSON_IsNumber(r) && r->valuedouble >= 1 && r->valuedouble < round)
			cJSON_AddItemToArray(out, cJSON_Duplicate(rep, true));
	}
	cJSON_Delete(j);
	return out;
}
