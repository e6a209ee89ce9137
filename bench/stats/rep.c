/*
 * rep.c - the repetition structure shared by the runner and the importers
 * (rep.h): release, and latency figures read the same way whether they
 * were measured or reported; the direction names of dir.h.
 */
#include <math.h>
#include <stdlib.h>

#include "rep.h"

void rep_result_release(struct rep_result *r)
{
	if (!r)
		return;
	for (int d = 0; d < DIR__COUNT; d++) {
		free(r->dir[d].hist);
		r->dir[d].hist = NULL;
		free(r->dir[d].svc_hist);
		r->dir[d].svc_hist = NULL;
		series_release(&r->dir[d].series);
	}
}

void rep_results_free(struct rep_result *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		rep_result_release(&r[i]);
	free(r);
}

const char *lat_kind_name(enum lat_kind k)
{
	return k == LAT_COMPLETION ? "completion" : k == LAT_RESPONSE ? "response" : "total";
}

/* The rule of every figure below: the exact one when the runner measured
 * the repetition (REP_EXACT), else the one the other tool reported when
 * its bit says it did; false when neither is known. */
static bool rep_figure(const struct dir_result *d, unsigned bit, double exact,
		       double reported, double *out)
{
	if (!(d->known & (REP_EXACT | bit)))
		return false;
	*out = d->known & REP_EXACT ? exact : reported;
	return true;
}

bool dir_lat_mean(const struct dir_result *d, double *out)
{
	return rep_figure(d, REP_LAT, d->lat.n ? d->lat.mean : 0, d->lat_mean_ns, out);
}

bool dir_lat_range(const struct dir_result *d, double *min, double *max)
{
	bool n = d->lat.n != 0;
	return rep_figure(d, REP_LAT_RANGE, n ? (double)d->lat.min : 0, d->lat_min_ns, min) &&
	       rep_figure(d, REP_LAT_RANGE, n ? (double)d->lat.max : 0, d->lat_max_ns, max);
}

bool dir_lat_stddev(const struct dir_result *d, double *out)
{
	return rep_figure(d, REP_LAT_SD, welford_stddev(&d->lat), d->lat_stddev_ns, out);
}

bool dir_lat_pct(const struct dir_result *d, double p, double *out)
{
	for (size_t i = 0; i < d->npct; i++)
		if (fabs(d->pct_p[i] - p) < 1e-9) {
			*out = d->pct_ns[i];
			return true;
		}
	if (d->known & REP_EXACT) {
		*out = d->hist ? (double)hist_percentile(d->hist, p) : 0;
		return true;
	}
	if (d->hist && d->hist->total) {
		*out = (double)hist_percentile(d->hist, p);
		return true;
	}
	return false;
}

const char *dir_name(int d)
{
	return d == DIR_READ ? "read" : "write";
}
