/*
 * sweep.c - the load sweep (sweep.h): one rated repetition per offered
 * load, then the bisection around the QoS target.  The math (which loads,
 * the knee, the verdict) is stats/qos.c's; this file only runs it.
 */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/interval.h"
#include "stats/rep.h"
#include "stats/stats.h"

double sweep_max_iops(const struct rep_result *reps, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += reps[i].dir[DIR_READ].iops + reps[i].dir[DIR_WRITE].iops;
	return n ? sum / (double)n : 0;
}

/* The directions' histograms merged (a mixed cell's load point is one
 * curve); h is zeroed first. */
static void merged(const struct rep_result *r, bool svc, struct lat_hist *h,
		   struct welford *w)
{
	memset(h, 0, sizeof(*h));
	welford_init(w);
	for (int d = 0; d < DIR__COUNT; d++) {
		const struct dir_result *dr = &r->dir[d];
		const struct lat_hist *src = svc ? dr->svc_hist : dr->hist;
		if (!dr->present || !src)
			continue;
		hist_merge(h, src);
		welford_merge(w, svc ? &dr->svc_lat : &dr->lat);
	}
}

/* The response p99 of each interval of r that has IO (the last left out
 * when shorter than half of one, as the report's charts do): their count,
 * least and most, into p. */
static void point_intervals(const struct rep_result *r, struct qos_point *p)
{
	struct ivhist s;
	ivhist_init(&s);
	for (int d = 0; d < DIR__COUNT; d++)
		if (r->dir[d].present && ivhist_merge(&s, &r->dir[d].series.hist) < 0) {
			ivhist_release(&s);
			return;
		}
	size_t n = s.n;
	double iv = (double)r->dir[r->dir[DIR_READ].present ? DIR_READ : DIR_WRITE]
			.series.interval_ns / 1e9;
	if (n && interval_sample_len(n - 1, n, iv, (double)r->runtime_ns / 1e9) <= 0)
		n--;
	for (size_t i = 0; i < n; i++) {
		if (!ivhist_count(&s, i))
			continue;
		double v = (double)ivhist_percentile(&s, i, 99);
		if (!p->iv_n || v < p->iv_p99_min_ns)
			p->iv_p99_min_ns = v;
		if (!p->iv_n || v > p->iv_p99_max_ns)
			p->iv_p99_max_ns = v;
		p->iv_n++;
	}
	ivhist_release(&s);
}

void sweep_point_of(const struct rep_result *r, double offered, struct qos_point *p)
{
	struct lat_hist *hp = malloc(sizeof(*hp)); /* 17 KiB: off the stack */
	struct welford w;

	memset(p, 0, sizeof(*p));
	p->offered_iops = offered;
	p->achieved_iops = r->dir[DIR_READ].iops + r->dir[DIR_WRITE].iops;
	if (!hp)
		return;
#define h (*hp)
	merged(r, false, &h, &w);
	p->p50_ns = (double)hist_percentile(&h, 50);
	p->p99_ns = (double)hist_percentile(&h, 99);
	p->p999_ns = (double)hist_percentile(&h, 99.9);
	p->p9999_ns = (double)hist_percentile(&h, 99.99);
	p->mean_ns = w.n ? w.mean : 0;
	merged(r, true, &h, &w);
	p->svc_p50_ns = (double)hist_percentile(&h, 50);
	p->svc_p99_ns = (double)hist_percentile(&h, 99);
	p->svc_p999_ns = (double)hist_percentile(&h, 99.9);
	p->svc_mean_ns = w.n ? w.mean : 0;
#undef h
	free(hp);
	point_intervals(r, p);
}

/* One point: c at `offered` IOPS in total (each job a share, at least 1). */
static int run_point(const struct cell *c, const struct target *t,
		     struct run_ctl *ctl, double offered, struct qos_point *p,
		     char *err, size_t errlen)
{
	struct cell pc = *c;
	struct rep_result r;
	unsigned jobs = c->jobs ? c->jobs : 1;
	uint64_t per_job = (uint64_t)llround(offered / jobs);

	if (!per_job)
		per_job = 1;
	memset(&pc.rate, 0, sizeof(pc.rate));
	pc.rate.iops[0] = pc.rate.iops[1] = per_job;
	memset(&pc.load_sweep, 0, sizeof(pc.load_sweep));
	int ret = runner_run_rep(&pc, t, ctl, &r, err, errlen);
	if (ret == 0)
		sweep_point_of(&r, (double)(per_job * jobs), p);
	rep_result_release(&r);
	return ret;
}

/* The points of the sweep and the bisection (runner_sweep without the
 * probe's maximum and the error text). */
static int sweep_points(const struct cell *c, const struct target *t,
			struct run_ctl *ctl, double max_iops, struct qos_point *pts,
			size_t *n, char *err, size_t errlen)
{
	unsigned np = sweep_npoints(&c->load_sweep);
	*n = 0;
	if (!c->load_sweep.niops && !(max_iops > 0)) {
		snprintf(err, errlen, "load_sweep: the unthrottled probe did no IO, so "
			 "there is no maximum to take shares of; give iops: [...]");
		return -EIO;
	}
	for (unsigned i = 0; i < np && i < SWEEP_MAX_STEPS; i++) {
		int ret = run_point(c, t, ctl, sweep_offered(&c->load_sweep, i, max_iops),
				    &pts[*n], err, errlen);
		if (ret < 0)
			return ret;
		(*n)++;
	}
	qos_points_sort(pts, *n);
	for (unsigned k = 0; c->qos.metric != QOS_NONE && k < QOS_BISECT_STEPS; k++) {
		double off = qos_bisect_next(pts, *n, &c->qos);
		if (off <= 0)
			break;
		int ret = run_point(c, t, ctl, off, &pts[*n], err, errlen);
		if (ret < 0)
			return ret;
		pts[(*n)++].refined = true;
		qos_points_sort(pts, *n);
	}
	return 0;
}

int runner_sweep(const struct cell *c, const struct target *t, struct run_ctl *ctl,
		 const struct rep_result *probe, size_t nprobe, double *max_iops,
		 struct qos_point *pts, size_t *n, char *err, size_t errlen)
{
	*max_iops = sweep_max_iops(probe, nprobe);
	if (errlen)
		err[0] = '\0';
	int ret = sweep_points(c, t, ctl, *max_iops, pts, n, err, errlen);
	if (ret < 0 && errlen && !err[0])
		snprintf(err, errlen, "load_sweep: %s", strerror(-ret));
	return ret;
}
