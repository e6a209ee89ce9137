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

/* The elements of arr, each read by one(element, item) into a new array
 * of items of size bytes: *items and *n set (both stay NULL/0 for no
 * array, an empty one or one of more than PTS_MAX_ITEMS); 0, or -1 out of
 * memory (*n counts the items begun, for their release). */
static int rset_pts_items(const cJSON *arr, size_t size, int (*one)(const cJSON *o, void *item),
			  void **items, size_t *n)
{
	int len = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	const cJSON *o;

	if (len <= 0 || len > PTS_MAX_ITEMS)
		return 0;
	if (!(*items = calloc((size_t)len, size)))
		return -1;
	cJSON_ArrayForEach(o, arr)
		if (one(o, (char *)*items + (*n)++ * size) < 0)
			return -1;
	return 0;
}

static int track_read(const cJSON *o, void *item)
{
	struct rset_track *t = item;
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

static int steady_fill(const cJSON *j, void *out)
{
	struct rset_steady *s = out;
	const cJSON *rule = rj_get(j, "rule"), *win = rj_get(j, "window");
	const char *st = rj_str(j, "status", NULL);
	void *tracks = NULL;
	int rc;

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
	rc = rset_pts_items(rj_get(j, "tracks"), sizeof(*s->tracks), track_read, &tracks,
			    &s->ntracks);
	s->tracks = tracks;
	return rc;
}

/* Both loaders: *out (size bytes) zeroed, then setdir's KIND/DEV.json
 * read into it by fill (0, or -1 out of memory): 1, 0 when there is no
 * such file (why says), -1 (release *out all the same). */
static int rset_pts_load(const char *setdir, const char *kind, const char *dev, void *out,
			 size_t size, int (*fill)(const cJSON *j, void *out), char *why,
			 size_t whylen)
{
	memset(out, 0, size);
	cJSON *j = resultset_pts_read(setdir, kind, dev, why, whylen);
	if (!j)
		return 0;
	int rc = fill(j, out) < 0 ? -1 : 1;
	cJSON_Delete(j);
	return rc;
}

int rset_steady_load(const char *setdir, const char *dev, struct rset_steady *s,
		     char *why, size_t whylen)
{
	return rset_pts_load(setdir, "steady", dev, s, sizeof(*s), steady_fill, why, whylen);
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

static int pass_read(const cJSON *o, void *item)
{
	struct rset_pass *p = item;
	const cJSON *pa = rj_get(o, "params");
	const char *pat = rj_str(pa, "pattern", NULL);

	p->bs = (uint64_t)rj_num(pa, "bs_bytes", 0);
	p->pattern = PAT_WRITE;
	if (pat && pattern_parse(pat, &p->pattern) < 0)
		p->pattern = PAT_WRITE;
	return rset_rep_read(cJSON_GetArrayItem(rj_get(o, "repetitions"), 0), &p->rep);
}

static int precond_fill(const cJSON *j, void *out)
{
	struct rset_precond *p = out;
	const cJSON *purge = rj_get(j, "purge");
	void *passes = NULL;
	int rc;

	p->present = true;
	p->purged = cJSON_IsObject(purge);
	p->purge_bytes = rj_num(purge, "bytes", 0);
	rc = rset_pts_items(rj_get(j, "passes"), sizeof(*p->passes), pass_read, &passes,
			    &p->npasses);
	p->passes = passes;
	return rc;
}

int rset_precond_load(const char *setdir, const char *dev, struct rset_precond *p,
		      char *why, size_t whylen)
{
	return rset_pts_load(setdir, "precondition", dev, p, sizeof(*p), precond_fill, why,
			     whylen);
}

void rset_precond_release(struct rset_precond *p)
{
	for (size_t i = 0; i < p->npasses; i++)
		rset_rep_release(&p->passes[i].rep);
	free(p->passes);
	memset(p, 0, sizeof(*p));
}
