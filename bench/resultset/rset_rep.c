/*
 * rset_rep.c - one stored repetition into struct rset_rep (rset.h): its
 * per-direction numbers, latency histogram, time series and write cliff,
 * as cellfile.c writes them.  A missing or wrong-typed member reads as
 * unknown (NAN, 0, empty), never as an error: the file may be anyone's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "histfile.h"
#include "rset_int.h"

/* Upper bound on one stored array (series, histogram, plateaus): far
 * above what a run writes (a 10 ms series of a day is 8.6 M). */
#define REP_MAX_ARRAY 10000000

static double num_or_nan(const cJSON *x)
{
	return cJSON_IsNumber(x) && isfinite(x->valuedouble) ? x->valuedouble : NAN;
}

/* The numbers of array a (NAN for a non-number) into a new array. */
static int nums_read(const cJSON *a, double **out, size_t *n)
{
	int m = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
	const cJSON *x;

	*out = NULL;
	*n = 0;
	if (m <= 0 || m > REP_MAX_ARRAY)
		return 0;
	if (!(*out = malloc(sizeof(double) * (size_t)m)))
		return -1;
	cJSON_ArrayForEach(x, a)
		(*out)[(*n)++] = num_or_nan(x);
	return 0;
}

/* Array a's numbers into a new array of exactly n entries (NAN past a's
 * end or for a non-number); NULL when a is no array. */
static int nums_read_n(const cJSON *a, size_t n, double **out)
{
	const cJSON *x;
	size_t i = 0;

	*out = NULL;
	if (!cJSON_IsArray(a) || !n)
		return 0;
	if (!(*out = malloc(sizeof(double) * n)))
		return -1;
	cJSON_ArrayForEach(x, a)
		if (i < n)
			(*out)[i++] = num_or_nan(x);
	while (i < n)
		(*out)[i++] = NAN;
	return 0;
}

static int series_read(const cJSON *se, struct rset_series *s)
{
	s->interval_ns = rj_size(se, "interval_ns");
	if (nums_read(rj_get(se, "bytes"), &s->bytes, &s->n) < 0 ||
	    nums_read_n(rj_get(se, "ios"), s->n, &s->ios) < 0)
		return -1;
	return nums_read_n(rj_get(se, "lat_mean_ns"), s->n, &s->lat_mean_ns);
}

static int pct_cmp(const void *a, const void *b)
{
	const double *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

size_t rset_pcts_read(const cJSON *pcts, double pct_p[RSET_MAX_PCT],
		      double pct_ns[RSET_MAX_PCT])
{
	const cJSON *p;
	double pairs[RSET_MAX_PCT][2];
	size_t n = 0;

	cJSON_ArrayForEach(p, pcts) {
		char *end;
		double pv = p->string ? strtod(p->string, &end) : NAN;
		if (n >= RSET_MAX_PCT || !p->string || end == p->string || *end ||
		    !(pv > 0 && pv <= 100) || !cJSON_IsNumber(p) || !isfinite(p->valuedouble))
			continue;
		pairs[n][0] = pv;
		pairs[n++][1] = p->valuedouble;
	}
	qsort(pairs, n, sizeof(pairs[0]), pct_cmp);
	for (size_t i = 0; i < n; i++) {
		pct_p[i] = pairs[i][0];
		pct_ns[i] = pairs[i][1];
	}
	return n;
}

/* lat_ns's min, max, stddev and percentiles. */
static void lat_read(const cJSON *lat, struct rset_rep_dir *d)
{
	d->lat_min_ns = num_or_nan(rj_get(lat, "min"));
	d->lat_max_ns = num_or_nan(rj_get(lat, "max"));
	d->lat_stddev_ns = num_or_nan(rj_get(lat, "stddev"));
	d->npct = rset_pcts_read(rj_get(lat, "percentiles"), d->pct_p, d->pct_ns);
}

static int hist_read(const cJSON *h, struct rset_rep_dir *d)
{
	const cJSON *bk = rj_get(h, "buckets"), *p;
	int m = cJSON_IsArray(bk) ? cJSON_GetArraySize(bk) : 0;
	if (m <= 0 || m > REP_MAX_ARRAY)
		return 0;
	if (!(d->hist = malloc(sizeof(*d->hist) * (size_t)m)))
		return -1;
	cJSON_ArrayForEach(p, bk) {
		d->hist[d->nhist].lo_ns = num_or_nan(cJSON_GetArrayItem(p, 0));
		d->hist[d->nhist++].count = num_or_nan(cJSON_GetArrayItem(p, 1));
	}
	return 0;
}

/* series.hist (histfile.h); the set reader held the cell to it before
 * (histfile_check_cell), so what does not read is left out.  -1 out of
 * memory. */
static int hists_read(const cJSON *se, struct rset_rep_dir *d)
{
	char why[256];
	return histfile_read(se, &d->hists, why, sizeof(why)) == -2 ? -1 : 0;
}

static int cliff_read(const cJSON *c, struct rset_cliff *cl)
{
	const cJSON *pl = rj_get(c, "plateaus"), *p;
	int m = cJSON_IsArray(pl) ? cJSON_GetArraySize(pl) : 0;

	if (!cJSON_IsObject(c))
		return 0;
	cl->present = true;
	cl->found = cJSON_IsTrue(rj_get(c, "found"));
	cl->head_from_fine = cJSON_IsTrue(rj_get(c, "head_from_fine"));
	cl->break_ns = rj_num(c, "break_ns", 0);
	cl->drop_pct = rj_num(c, "drop_pct", 0);
	cl->interval_ns = rj_num(c, "interval_ns", 1e9);
	cl->samples = rj_int(c, "samples", -1, 0, REP_MAX_ARRAY);
	if (m > 0 && m <= REP_MAX_ARRAY) {
		if (!(cl->plateaus = calloc((size_t)m, sizeof(*cl->plateaus))))
			return -1;
		cJSON_ArrayForEach(p, pl) {
			struct rset_plateau *x = &cl->plateaus[cl->nplateaus++];
			x->first_index = num_or_nan(rj_get(p, "first_index"));
			x->start_ns = num_or_nan(rj_get(p, "start_ns"));
			x->duration_ns = rj_num(p, "duration_ns", 0);
			x->level_bw_bytes_s = rj_num(p, "level_bw_bytes_s", 0);
			x->bytes = rj_num(p, "bytes", 0);
		}
	}
	return nums_read(rj_get(c, "stalls"), &cl->stalls, &cl->nstalls);
}

static int dir_read(const cJSON *o, struct rset_rep_dir *d)
{
	const cJSON *se = rj_get(o, "series");

	d->iops = d->bw_bytes_s = d->lat_mean_ns = d->ios = d->bytes = NAN;
	d->lat_min_ns = d->lat_max_ns = d->lat_stddev_ns = NAN;
	if (!cJSON_IsObject(o))
		return 0;
	d->present = true;
	d->iops = num_or_nan(rj_get(o, "iops"));
	d->bw_bytes_s = num_or_nan(rj_get(o, "bw_bytes_s"));
	d->lat_mean_ns = num_or_nan(rj_get(rj_get(o, "lat_ns"), "mean"));
	lat_read(rj_get(o, "lat_ns"), d);
	d->ios = num_or_nan(rj_get(o, "ios"));
	d->bytes = num_or_nan(rj_get(o, "bytes"));
	if (hist_read(rj_get(o, "hist"), d) < 0 || series_read(se, &d->series) < 0 ||
	    series_read(rj_get(se, "fine"), &d->fine) < 0 || hists_read(se, d) < 0)
		return -1;
	return cliff_read(rj_get(o, "cliff"), &d->cliff);
}

int rset_rep_read(const cJSON *rep, struct rset_rep *r)
{
	memset(r, 0, sizeof(*r));
	r->runtime_ns = rj_num(rep, "runtime_ns", 0);
	for (int k = 0; k < DIR__COUNT; k++)
		if (dir_read(rj_get(rep, dir_name(k)), &r->dir[k]) < 0)
			return -1;
	return 0;
}

void rset_cell_steady_read(const cJSON *ss, struct rset_cell_steady *s)
{
	memset(s, 0, sizeof(*s));
	if (!cJSON_IsObject(ss))
		return;
	s->present = true;
	s->steady = cJSON_IsTrue(rj_get(ss, "steady"));
	s->range_found_pct = rj_num(ss, "range_found_pct", NAN);
	s->slope_found_pct = rj_num(ss, "slope_found_pct", NAN);
	s->window = rj_int(ss, "window", 0, 0, 1000000);
}

const struct rset_cliff *rset_rep_cliff(const struct rset_rep *r)
{
	const struct rset_cliff *c = r ? &r->dir[DIR_WRITE].cliff : NULL;
	return c && c->found && c->nplateaus >= 2 ? c : NULL;
}

void rset_rep_release(struct rset_rep *r)
{
	for (int k = 0; k < DIR__COUNT; k++) {
		struct rset_rep_dir *d = &r->dir[k];
		free(d->hist);
		free(d->series.bytes);
		free(d->series.ios);
		free(d->series.lat_mean_ns);
		free(d->fine.bytes);
		free(d->fine.ios);
		free(d->fine.lat_mean_ns);
		free(d->cliff.plateaus);
		free(d->cliff.stalls);
		ivhist_release(&d->hists);
	}
	memset(r, 0, sizeof(*r));
}
