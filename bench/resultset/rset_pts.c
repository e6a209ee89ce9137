/*
 * rset_pts.c - a device's SNIA PTS files into the typed model (rset.h):
 * steady/DEVICE.json (the rounds and the rule) and
 * precondition/DEVICE.json (the purge and the passes), read by
 * resultset_pts_read (ptsfile.h), the writer's room.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ptsfile.h"
#include "rset_int.h"

/* Most tracks or passes one file may hold: a suite has a handful. */
#define PTS_MAX_ITEMS 4096

static int track_read(const cJSON *o, struct rset_track *t)
{
	const cJSON *v = rj_get(o, "values"), *x;
	int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;

	t->label = rj_strdup(o, "label");
	if (n <= 0 || n > 1000000)
		return 0;
	if (!(t->values = malloc(sizeof(double) * (size_t)n)))
		return -1;
	cJSON_ArrayForEach(x, v)
		t->values[t->n++] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	return 0;
}

static int steady_fill(const cJSON *j, struct rset_steady *s)
{
	const cJSON *rule = rj_get(j, "rule"), *win = rj_get(j, "window");
	const cJSON *tr = rj_get(j, "tracks"), *o;
	const char *st = rj_str(j, "status", NULL);
	int n = cJSON_IsArray(tr) ? cJSON_GetArraySize(tr) : 0;

	s->present = true;
	s->metric = strdup(rj_str(j, "metric", "iops"));
	s->running = !st || !strcmp(st, "running");
	s->window = (int)rj_num(rule, "window", 5);
	s->max = (int)rj_num(rule, "max", 25);
	s->range_pct = rj_num(rule, "range_pct", 20);
	s->slope_pct = rj_num(rule, "slope_pct", 10);
	s->rounds_done = (int)rj_num(j, "rounds_done", 0);
	s->steady_round = (int)rj_num(j, "steady_round", 0);
	s->win_first = (int)rj_num(win, "first", 0);
	s->win_last = (int)rj_num(win, "last", 0);
	if (!s->metric)
		return -1;
	if (n <= 0 || n > PTS_MAX_ITEMS)
		return 0;
	if (!(s->tracks = calloc((size_t)n, sizeof(*s->tracks))))
		return -1;
	cJSON_ArrayForEach(o, tr)
		if (track_read(o, &s->tracks[s->ntracks++]) < 0)
			return -1;
	return 0;
}

int rset_steady_load(const char *setdir, const char *dev, struct rset_steady *s,
		     char *why, size_t whylen)
{
	memset(s, 0, sizeof(*s));
	cJSON *j = resultset_pts_read(setdir, "steady", dev, why, whylen);
	if (!j)
		return 0;
	int rc = steady_fill(j, s) < 0 ? -1 : 1;
	cJSON_Delete(j);
	return rc;
}

void rset_steady_release(struct rset_steady *s)
{
	for (size_t i = 0; i < s->ntracks; i++) {
		free(s->tracks[i].label);
		free(s->tracks[i].values);
	}
	free(s->tracks);
	free(s->metric);
	memset(s, 0, sizeof(*s));
}

static int pass_read(const cJSON *o, struct rset_pass *p)
{
	const cJSON *pa = rj_get(o, "params");
	const char *pat = rj_str(pa, "pattern", NULL);

	p->bs = (uint64_t)rj_num(pa, "bs_bytes", 0);
	p->pattern = PAT_WRITE;
	if (pat && pattern_parse(pat, &p->pattern) < 0)
		p->pattern = PAT_WRITE;
	return rset_rep_read(cJSON_GetArrayItem(rj_get(o, "repetitions"), 0), &p->rep);
}

int rset_precond_load(const char *setdir, const char *dev, struct rset_precond *p,
		      char *why, size_t whylen)
{
	memset(p, 0, sizeof(*p));
	cJSON *j = resultset_pts_read(setdir, "precondition", dev, why, whylen);
	if (!j)
		return 0;
	const cJSON *purge = rj_get(j, "purge"), *passes = rj_get(j, "passes"), *o;
	int n = cJSON_IsArray(passes) ? cJSON_GetArraySize(passes) : 0, rc = 1;
	p->present = true;
	p->purged = cJSON_IsObject(purge);
	p->purge_bytes = rj_num(purge, "bytes", 0);
	if (n > 0 && n <= PTS_MAX_ITEMS) {
		if (!(p->passes = calloc((size_t)n, sizeof(*p->passes))))
			rc = -1;
		cJSON_ArrayForEach(o, passes)
			if (rc > 0 && pass_read(o, &p->passes[p->npasses++]) < 0)
				rc = -1;
	}
	cJSON_Delete(j);
	return rc;
}

void rset_precond_release(struct rset_precond *p)
{
	for (size_t i = 0; i < p->npasses; i++)
		rset_rep_release(&p->passes[i].rep);
	free(p->passes);
	memset(p, 0, sizeof(*p));
}
