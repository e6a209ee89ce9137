/*
 * lattime.c - lattime.h: each interval's percentiles from the first
 * repetition's interval histograms, the spike rule and its sentence, the
 * latency of a stretch of writes for the cliff's sentence (the
 * template context is render/lattime_out.c's).
 */
#include "lattime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/interval.h"
#include "stats/stats.h"
#include "util/ramkind.h"
#include "qos.h"
#include "sides.h"

void lattime_fmt_time(double s, char *buf, size_t len)
{
	if (s > 0 && s < 1) {
		snprintf(buf, len, "%.4g ms", s * 1e3);
		return;
	}
	if (s < 60) {
		snprintf(buf, len, "%.*f s", s < 10 && fabs(s - round(s)) > 1e-9 ? 2 : 0, s);
		return;
	}
	long t = lround(s), h = t / 3600, m = t / 60 % 60, sec = t % 60;
	if (h)
		snprintf(buf, len, "%ld h %ld m %ld s", h, m, sec);
	else
		snprintf(buf, len, "%ld m %ld s", m, sec);
}

/* The percentile p of intervals [from, to) of s summed; 0 when empty. */
static double span_pct(const struct ivhist *s, size_t from, size_t to, double p,
		       struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
	for (size_t i = from; i < to && i < s->n; i++)
		for (size_t q = s->off[i]; q < s->off[i + 1]; q++) {
			h->count[s->idx[q] < HIST_BUCKETS ? s->idx[q] : HIST_BUCKETS - 1] += s->cnt[q];
			h->total += s->cnt[q];
		}
	return (double)hist_percentile(h, p);
}

void lattime_span_text(const struct rset_rep *rep, double start_ns, double dur_ns,
		       char *buf, size_t len)
{
	const struct rset_rep_dir *w = rep ? &rep->dir[DIR_WRITE] : NULL;
	struct lat_hist *h;
	char a[32], b[32];

	if (len)
		buf[0] = '\0';
	if (!w || !w->hists.n || !w->series.interval_ns || !isfinite(start_ns) ||
	    !(dur_ns > 0))
		return;
	double iv = (double)w->series.interval_ns;
	size_t from = (size_t)ceil(start_ns / iv - 1e-9);
	double end = floor((start_ns + dur_ns) / iv + 1e-9);
	if (end <= (double)from || !(h = malloc(sizeof(*h))))
		return;
	size_t to = (size_t)end;
	double p50 = span_pct(&w->hists, from, to, 50, h);
	double p99 = span_pct(&w->hists, from, to, 99, h);
	free(h);
	if (!(p50 > 0))
		return;
	qos_fmt_lat(p50, a, sizeof(a));
	qos_fmt_lat(p99, b, sizeof(b));
	snprintf(buf, len, " (latency p50 %s, p99 %s)", a, b);
}

/*
 * "ssd, 4K random reads at QD1: p99 rose to 48.2 ms at 7 m 12 s, 12x the
 * median interval's (4.01 ms), and to 30 ms from 9 m 0 s to 9 m 30 s
 * (7.5x)."  Each stretch of consecutive intervals at or above
 * LATTIME_SPIKE_X times the median is named by its highest p99 and its
 * times (an interval by its start); NULL when there is none.
 */
static char *spike_sentence(const struct report *r, const struct lattime_cell *l)
{
	struct sbuf b = SBUF_INIT;
	size_t nst = 0, more = 0;
	char v[32], t0[48], t1[48], m[32];

	if (!isfinite(l->median_p99) || !(l->median_p99 > 0))
		return NULL;
	double lim = LATTIME_SPIKE_X * l->median_p99;
	for (size_t i = 0; i < l->n; i++) {
		if (!(l->p99[i] >= lim))
			continue;
		size_t j = i, top = i;
		while (j + 1 < l->n && l->p99[j + 1] >= lim)
			if (l->p99[++j] > l->p99[top])
				top = j;
		if (nst++ >= 4) {
			more++;
			i = j;
			continue;
		}
		qos_fmt_lat(l->p99[top], v, sizeof(v));
		lattime_fmt_time((double)i * l->iv_s, t0, sizeof(t0));
		double end = (double)(j + 1) * l->iv_s;
		lattime_fmt_time(end < l->runtime_s || !(l->runtime_s > 0) ? end : l->runtime_s,
				 t1, sizeof(t1));
		if (nst == 1)
			sbuf_addf(&b, "%s, %s: p99 rose to %s", r->devs[l->dev].display,
				  r->groups[l->group].words, v);
		else
			sbuf_addf(&b, ", and to %s", v);
		if (j > i)
			sbuf_addf(&b, " from %s to %s", t0, t1);
		else
			sbuf_addf(&b, " at %s", t0);
		fmt_ratio(l->p99[top] / l->median_p99, m, sizeof(m));
		if (nst == 1) {
			qos_fmt_lat(l->median_p99, v, sizeof(v));
			sbuf_addf(&b, ", %s the median interval's p99 (%s)", m, v);
		} else {
			sbuf_addf(&b, " (%s)", m);
		}
		i = j;
	}
	if (!nst)
		return NULL;
	if (more)
		sbuf_addf(&b, ", and %zu more stretch%s", more, more == 1 ? "" : "es");
	sbuf_addc(&b, '.');
	return sbuf_detach(&b);
}

/* The first repetition's directions summed: 0, 1 when it has none (or
 * their intervals differ), -1 out of memory. */
static int cell_hists(const struct rset_rep *rep, struct lattime_cell *l)
{
	uint64_t iv = 0;
	for (int d = 0; d < DIR__COUNT; d++) {
		const struct rset_rep_dir *x = &rep->dir[d];
		if (!x->present || !x->hists.n)
			continue;
		if (iv && x->series.interval_ns != iv)
			return 1;
		iv = x->series.interval_ns;
		if (ivhist_merge(&l->hs, &x->hists) < 0)
			return -1;
		*(d == DIR_READ ? &l->reads : &l->writes) = true;
	}
	l->iv_s = (double)iv / 1e9;
	return iv && l->hs.n ? 0 : 1;
}

/* Each interval's percentiles, the run's p99, the median of the
 * intervals' p99s.  -1 out of memory. */
static int cell_numbers(struct lattime_cell *l)
{
	struct lat_hist *h = malloc(sizeof(*h));
	double *m = NULL;
	size_t nm = 0;

	l->n = l->hs.n;
	if (l->n && interval_sample_len(l->n - 1, l->n, l->iv_s, l->runtime_s) <= 0)
		l->n--;
	l->p50 = calloc(l->n + 1, sizeof(double));
	l->p99 = calloc(l->n + 1, sizeof(double));
	l->p999 = calloc(l->n + 1, sizeof(double));
	m = calloc(l->n + 1, sizeof(double));
	if (!h || !m || !l->p50 || !l->p99 || !l->p999) {
		free(h);
		free(m);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		bool any = ivhist_count(&l->hs, i) > 0;
		l->p50[i] = any ? (double)ivhist_percentile(&l->hs, i, 50) : NAN;
		l->p99[i] = any ? (double)ivhist_percentile(&l->hs, i, 99) : NAN;
		l->p999[i] = any ? (double)ivhist_percentile(&l->hs, i, 99.9) : NAN;
		if (any)
			m[nm++] = l->p99[i];
	}
	l->median_p99 = nm >= 3 ? stats_median_inplace(m, nm) : NAN;
	l->run_p99 = ivhist_sum(&l->hs, h) == 0 ? (double)hist_percentile(h, 99) : NAN;
	free(h);
	free(m);
	return 0;
}

static int cell_load(struct report *r, size_t gi, size_t k, struct lattime_report *s)
{
	const struct rentry *e = &r->groups[gi].e[k];
	const struct rset_cell *c = e->cell;
	const struct rset_rep *rep = c->ok && c->nreps && c->reps ? &c->reps[0] : NULL;
	struct lattime_cell l;
	int rc;

	if (!rep)
		return 0;
	memset(&l, 0, sizeof(l));
	ivhist_init(&l.hs);
	l.dev = e->dev;
	l.group = gi;
	l.entry = k;
	l.cell = c;
	l.runtime_s = rep->runtime_ns / 1e9;
	if ((rc = cell_hists(rep, &l)) != 0 || (rc = cell_numbers(&l)) < 0 || !l.n) {
		ivhist_release(&l.hs);
		free(l.p50);
		free(l.p99);
		free(l.p999);
		return rc < 0 ? -1 : 0;
	}
	const struct rdev *dv = &r->devs[e->dev];
	bool ram = dv->info && ram_kind_is(dv->info->virt_kind);
	l.spike = spike_sentence(r, &l);
	l.shown = primary_metric(c) == M_LAT || l.runtime_s > LATTIME_LONG_S ||
		  (rset_rep_cliff(rep) && !ram) || l.spike;
	s->c[s->n++] = l;
	return 0;
}

int lattime_load(struct report *r)
{
	struct lattime_report *s = r->lattime = calloc(1, sizeof(*s));
	if (!s || !(s->c = report_per_entry(r, sizeof(*s->c))))
		return -1;
	for (size_t gi = 0; gi < r->ngroups; gi++)
		for (size_t k = 0; k < r->groups[gi].n; k++)
			if (cell_load(r, gi, k, s) < 0)
				return -1;
	return 0;
}

void lattime_release(struct report *r)
{
	struct lattime_report *s = r->lattime;
	for (size_t i = 0; s && i < s->n; i++) {
		ivhist_release(&s->c[i].hs);
		free(s->c[i].p50);
		free(s->c[i].p99);
		free(s->c[i].p999);
		free(s->c[i].spike);
	}
	if (s)
		free(s->c);
	free(s);
	r->lattime = NULL;
}
