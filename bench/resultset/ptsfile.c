/*
 * ptsfile.c - the SNIA PTS files of a set and the PTS parts of a cell file
 * (ptsfile.h).
 */
#include "ptsfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "jsonread.h"
#include "rset.h"

/* SETDIR/SUB/DEV.json, making SUB first. */
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

/* ---- steady/DEVICE.json ---- */

static cJSON *track_json(const struct rounds_track *t)
{
	cJSON *o = cJSON_CreateObject(), *v;
	const struct steady_verdict *x = &t->v;
	if (!o || !cJSON_AddStringToObject(o, "label", t->label) ||
	    !cJSON_AddNumberToObject(o, "cell_id", t->cell_id) ||
	    !(v = cJSON_AddArrayToObject(o, "values")))
		goto err;
	for (size_t i = 0; i < t->n; i++)
		cJSON_AddItemToArray(v, cJSON_CreateNumber(t->values[i]));
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
	for (size_t i = 0; i < st->nt; i++)
		if (!cJSON_AddItemToArray(tr, track_json(&st->t[i])))
			goto err;
	return j;
err:
	cJSON_Delete(j);
	return NULL;
}

int resultset_steady_write(const char *setdir, const struct rounds_state *st,
			   char *err, size_t errlen)
{
	cJSON *j = state_json(st);
	if (!j) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int r = write_dev_json(setdir, "steady", st->device, j, err, errlen);
	cJSON_Delete(j);
	return r;
}

int resultset_steady_read(const char *setdir, struct rounds_state *st)
{
	char path[PATH_MAX + 128], why[256];
	snprintf(path, sizeof(path), "%s/steady/%s.json", setdir, st->device);
	cJSON *j = resultset_read_json(path, why, sizeof(why));
	if (!j)
		return -1;
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
	cJSON_Delete(j);
	/* a track with fewer values than rounds_done: restart the device */
	for (size_t i = 0; i < st->nt; i++)
		if (st->t[i].n < done)
			done = 0;
	for (size_t i = 0; i < st->nt; i++)
		st->t[i].n = done;
	st->rounds_done = done;
	return 0;
}

/* Device names become file names: see resultset_pts_read(). */
static bool dev_name_ok(const char *n)
{
	if (!n || !*n || n[0] == '.' || strlen(n) > 64)
		return false;
	for (const char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '.' || *p == '_' || *p == '-'))
			return false;
	return true;
}

cJSON *resultset_pts_read(const char *setdir, const char *sub, const char *dev,
			  char *why, size_t whylen)
{
	char path[PATH_MAX + 128], jwhy[200];
	size_t len;

	why[0] = '\0';
	if (!dev_name_ok(dev))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s/%s.json", setdir, sub, dev);
	char *buf = fsutil_read_at(AT_FDCWD, path, 16u << 20, 0, &len);
	if (!buf)
		return NULL;
	cJSON *j = rset_parse_json(buf, len, jwhy, sizeof(jwhy));
	free(buf);
	if (!j || !cJSON_IsObject(j)) {
		snprintf(why, whylen, "%s: %s", path, j ? "not a JSON object" : jwhy);
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

/* ---- precondition/DEVICE.json ---- */

cJSON *resultset_precond_new(const char *dev, const char *kind)
{
	char now[32];
	cJSON *j = cJSON_CreateObject();

	iso8601_now(now, sizeof(now));
	if (!j || !cJSON_AddNumberToObject(j, "schema_version", RESULTSET_SCHEMA_VERSION) ||
	    !cJSON_AddStringToObject(j, "device", dev) ||
	    !cJSON_AddStringToObject(j, "started_at", now) ||
	    !cJSON_AddStringToObject(j, "kind", kind)) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

int resultset_precond_purge(cJSON *j, bool done, uint64_t bytes,
			    uint64_t runtime_ns)
{
	if (done) {
		cJSON *p = cJSON_AddObjectToObject(j, "purge");
		if (!p || !cJSON_AddStringToObject(p, "kind", "discard") ||
		    !cJSON_AddNumberToObject(p, "bytes", (double)bytes) ||
		    !cJSON_AddNumberToObject(p, "runtime_ns", (double)runtime_ns))
			return -ENOMEM;
	} else if (!cJSON_AddNullToObject(j, "purge")) {
		return -ENOMEM;
	}
	return cJSON_AddArrayToObject(j, "passes") ? 0 : -ENOMEM;
}

int resultset_precond_add_pass(cJSON *j, const struct cell *pc,
			       const struct rep_result *rep)
{
	cJSON *passes = cJSON_GetObjectItemCaseSensitive(j, "passes");
	cJSON *o = cJSON_CreateObject(), *reps, *rj = resultset_rep_to_json(rep, 1);
	cJSON *params = cell_to_json(pc);

	if (!passes || !o || !rj || !params ||
	    !(reps = cJSON_AddArrayToObject(o, "repetitions"))) {
		cJSON_Delete(o);
		cJSON_Delete(rj);
		cJSON_Delete(params);
		return -ENOMEM;
	}
	cJSON_AddItemToObject(o, "params", params);
	cJSON_AddItemToArray(reps, rj);
	cJSON_AddItemToArray(passes, o);
	return 0;
}

int resultset_precond_write(const char *setdir, const char *dev, cJSON *j,
			    char *err, size_t errlen)
{
	char now[32];

	iso8601_now(now, sizeof(now));
	if (!cJSON_AddStringToObject(j, "status", "ok") ||
	    !cJSON_AddStringToObject(j, "finished_at", now)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return write_dev_json(setdir, "precondition", dev, j, err, errlen);
}

/* ---- cell files measured in rounds or until steady ---- */

/* A finite number, else 0 (json_num). */
static double num(const cJSON *o, const char *k)
{
	double x = 0;
	json_num(o, k, &x);
	return x;
}

int resultset_rep_from_json(const cJSON *rep, struct rep_result *out)
{
	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(rep))
		return -1;
	out->runtime_ns = (uint64_t)num(rep, "runtime_ns");
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(rep, "cpu");
	out->have_cpu = cJSON_IsObject(cpu);
	out->cpu_usr_pct = num(cpu, "usr_pct");
	out->cpu_sys_pct = num(cpu, "sys_pct");
	for (int d = 0; d < DIR__COUNT; d++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(rep, dir_name(d));
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

/* The repetitions of rounds before `round` in SETDIR's cell file of id
 * (a round cut short by SIGINT is dropped), as a new array the caller
 * owns; an empty array when there is no file; NULL when out of memory. */
static cJSON *old_round_reps(const char *setdir, int id, unsigned round)
{
	char path[PATH_MAX + 64], name[RESULTSET_CELL_NAME_MAX], why[256];
	cJSON *out = cJSON_CreateArray(), *rep;

	resultset_cell_name(id, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/cells/%s", setdir, name);
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

/* The steady_state record of a cell that repeated until steady. */
static void steady_json(cJSON *j, const struct cell *c,
			const struct steady_verdict *v, size_t nreps)
{
	cJSON *o = cJSON_AddObjectToObject(j, "steady_state");
	if (!o)
		return;
	cJSON_AddNumberToObject(o, "window", c->steady.window);
	cJSON_AddNumberToObject(o, "range_pct", c->steady.range_frac * 100);
	cJSON_AddNumberToObject(o, "slope_pct", c->steady.slope_frac * 100);
	cJSON_AddNumberToObject(o, "max", c->steady.max);
	cJSON_AddBoolToObject(o, "steady", v->steady);
	if (v->steady)
		cJSON_AddNumberToObject(o, "steady_rep", (double)nreps);
	else
		cJSON_AddNullToObject(o, "steady_rep");
	cJSON_AddNumberToObject(o, "range_found_pct", v->range_frac * 100);
	cJSON_AddNumberToObject(o, "slope_found_pct", v->slope_frac * 100);
}

/* "repetitions" of a round's cell file: the earlier rounds' (all, taken),
 * then this round's tagged with it; plus "rounds". */
static void rounds_json(cJSON *j, cJSON *all, const struct cell_outcome *o,
			unsigned round, unsigned w)
{
	int no = cJSON_GetArraySize(all);
	for (size_t r = 0; r < o->nreps; r++) {
		cJSON *rj = resultset_rep_to_json(&o->reps[r], no + (int)r + 1);
		if (rj) {
			cJSON_AddNumberToObject(rj, "round", round);
			cJSON_AddItemToArray(all, rj);
		}
	}
	cJSON_ReplaceItemInObjectCaseSensitive(j, "repetitions", all);
	cJSON *x = cJSON_AddObjectToObject(j, "rounds");
	if (x) {
		cJSON_AddNumberToObject(x, "done", round);
		cJSON_AddNumberToObject(x, "window_first", round >= w ? round - w + 1 : 1);
		cJSON_AddNumberToObject(x, "window_last", round);
	}
}

/*
 * The summary covers the measurement window (the last `window` rounds, or
 * repetitions with steady_state), while "repetitions" keeps everything
 * measured, each repetition tagged with its round.
 */
cJSON *resultset_cell_window_json(const char *setdir, const struct cell *c,
				  const struct cell_outcome *o, unsigned round,
				  unsigned rounds_window,
				  const struct steady_verdict *sv)
{
	struct cell_outcome win = *o;
	struct rep_result *old = NULL;
	size_t nold = 0;
	cJSON *all = NULL, *j = NULL, *x;

	if (c->steady.window && o->nreps > c->steady.window) {
		win.reps = o->reps + o->nreps - c->steady.window;
		win.nreps = c->steady.window;
	}
	if (round) {
		unsigned wf = round >= rounds_window ? round - rounds_window + 1 : 1;
		all = round > 1 ? old_round_reps(setdir, c->id, round) : cJSON_CreateArray();
		if (!all)
			return NULL;
		old = calloc((size_t)cJSON_GetArraySize(all) + o->nreps + 1, sizeof(*old));
		if (!old)
			goto out;
		cJSON_ArrayForEach(x, all) {
			const cJSON *rn = cJSON_GetObjectItemCaseSensitive(x, "round");
			if (cJSON_IsNumber(rn) && rn->valuedouble >= wf &&
			    resultset_rep_from_json(x, &old[nold]) == 0)
				nold++;
		}
		/* the window: earlier rounds' from their JSON, this round's as
		 * measured (copies that borrow the histograms) */
		if (o->nreps)
			memcpy(old + nold, o->reps, sizeof(*old) * o->nreps);
		win.reps = old;
		win.nreps = nold + o->nreps;
	}
	j = resultset_cell_to_json(c, &win);
	if (!j || (!round && !c->steady.window))
		goto out;
	if (!round) { /* steady_state: keep every repetition */
		cJSON *ra = cJSON_CreateArray();
		for (size_t r = 0; ra && r < o->nreps; r++)
			cJSON_AddItemToArray(ra, resultset_rep_to_json(&o->reps[r], (int)r + 1));
		if (ra)
			cJSON_ReplaceItemInObjectCaseSensitive(j, "repetitions", ra);
		steady_json(j, c, sv, o->nreps);
		goto out;
	}
	rounds_json(j, all, o, round, rounds_window);
	all = NULL;
	if (c->steady.window)
		steady_json(j, c, sv, o->nreps);
out:
	rep_results_free(old, nold);
	cJSON_Delete(all);
	return j;
}
