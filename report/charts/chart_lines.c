/*
 * chart_lines.c - line charts from (x, y) series: throughput against block
 * size and IOPS and latency against queue depth (the sweeps), and per
 * workload the latency percentile curve (exceedance from the merged
 * histogram) and the time series.  Split from chart_render.c.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "chart_int.h"
#include "render/escape.h"
#include "util/array.h"
#include "stats/interval.h"
#include "util/fsutil.h"
#include "resultset/rset.h"

/* ---- line charts from (x, y) series in column pairs ---- */

struct series {
	char *name;       /* owned */
	int color;
	int dash;         /* gnuplot dash type: 1 solid, 2 dashed (writes) */
	size_t n, alloc;
	double *x, *y;
};

struct lines {
	struct series *s;
	size_t n;
};

static struct series *lines_series(struct lines *l, const char *name, int color)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->s[i].name, name))
			return &l->s[i];
	struct series *s = ARRAY_ADD(l->s, l->n);
	if (!s)
		return NULL;
	s->color = color;
	s->dash = 1;
	if (!(s->name = strdup(name))) {
		l->n--;   /* unnamed, it would be found by no name */
		return NULL;
	}
	return s;
}

static int series_point(struct series *s, double x, double y)
{
	if (!s)
		return -1;
	if (s->n == s->alloc) {
		size_t na = s->alloc ? s->alloc * 2 : 16;
		double *nx = realloc(s->x, na * sizeof(double));
		if (!nx)
			return -1;
		s->x = nx;
		double *ny = realloc(s->y, na * sizeof(double));
		if (!ny)
			return -1;
		s->y = ny;
		s->alloc = na;
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
	return 0;
}

static void lines_release(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->s[i].name);
		free(l->s[i].x);
		free(l->s[i].y);
	}
	free(l->s);
	memset(l, 0, sizeof(*l));
}

struct axes {
	const char *xlabel, *ylabel;
	int logx;            /* 0, 2 or 10 */
	bool ylog;           /* exceedance: log y with percentile ticks */
	const char *style;   /* "linespoints", "lines" */
	const char *yticks;  /* our own tick list, or NULL for SI ticks */
	double ymin, ymax;   /* with yticks */
};

/* Widen [*mn, *mx] to take in v[0..n-1]: *mn the smallest positive value
 * (a log axis starts there), *mx the largest. */
static void series_span(const double *v, size_t n, double *mn, double *mx)
{
	for (size_t k = 0; k < n; k++) {
		if (v[k] > 0 && v[k] < *mn)
			*mn = v[k];
		if (v[k] > *mx)
			*mx = v[k];
	}
}

static int chart_lines(struct chart_ctx *x, struct lines *l, const char *file,
		       const char *title, int group, const struct axes *ax)
{
	struct sbuf dat = SBUF_INIT, gp = SBUF_INIT;
	size_t maxn = 0, ns = l->n < 64 ? l->n : 64;
	int colors[64];
	double mn = INFINITY, mx = 0;
	int rc;

	if (!ns)
		return 0;
	for (size_t i = 0; i < ns; i++) {
		colors[i] = l->s[i].color;
		if (l->s[i].n > maxn)
			maxn = l->s[i].n;
		series_span(l->s[i].y, l->s[i].n, &mn, &mx);
	}
	for (size_t i = 0; i < ns; i++) {
		sbuf_adds(&dat, i ? " \"x\" " : "\"x\" ");
		escape_append(&dat, l->s[i].name, ESC_GPDATA);
	}
	sbuf_addc(&dat, '\n');
	for (size_t k = 0; k < maxn; k++) {
		for (size_t i = 0; i < ns; i++) {
			const struct series *s = &l->s[i];
			if (k < s->n && isfinite(s->x[k]) && isfinite(s->y[k]))
				sbuf_addf(&dat, "%s%.17g %.17g", i ? " " : "", s->x[k], s->y[k]);
			else
				sbuf_adds(&dat, i ? " NaN NaN" : "NaN NaN");
		}
		sbuf_addc(&dat, '\n');
	}
	int h = 440, w = 800;
	gp_begin(&gp, file, w, h, title, colors, ns, x->svg, x->png);
	sbuf_addf(&gp, "array D[%zu]\n", ns);
	for (size_t i = 0; i < ns; i++)
		sbuf_addf(&gp, "D[%zu] = %d\n", i + 1, l->s[i].dash);
	bool logy = !ax->yticks && chart_want_log(x, mn, mx);
	sbuf_addf(&gp, "set xlabel '%s'\nset ylabel '%s%s'\n", ax->xlabel, ax->ylabel,
		  logy ? ", log scale" : "");
	if (ax->logx == 10) {
		/* decades with SI labels, as on every y axis */
		double xmn = INFINITY, xmx = 0;
		for (size_t i = 0; i < ns; i++)
			series_span(l->s[i].x, l->s[i].n, &xmn, &xmx);
		gp_yaxis(&gp, xmn, xmx, true, "x");
	} else if (ax->logx) {
		sbuf_addf(&gp, "set logscale x %d\nset format x '%%g'\n", ax->logx);
	}
	if (ax->yticks)
		sbuf_addf(&gp, "set ytics (%s)\nset logscale y 10\nset yrange [%.17g:%.17g]\n",
			  ax->yticks, ax->ymin, ax->ymax);
	else
		gp_yaxis(&gp, mn, mx, logy, "y");
	char plot[360];
	snprintf(plot, sizeof(plot), "plot for [i=1:%zu] '%s.dat' using (column(2*i-1)):(column(2*i)) "
		 "with %s lc rgb C[i] dt D[i] title columnhead(2*i)\n",
		 ns, file, ax->style ? ax->style : "linespoints lw 2 pt 7 ps 0.6");
	sbuf_adds(&gp, plot);
	gp_end(&gp, file, w, h, x->svg, x->png, plot);
	rc = chart_emit(x, file, title, group, &dat, &gp);
	sbuf_release(&dat);
	sbuf_release(&gp);
	return rc;
}

/* Key of a group without one parameter, to find bs / qd sweeps.  The
 * offset and stop rule are part of it: zone reads at 0 %, 50 % and 95 %
 * are no sweep, and a 60 s latency cell at QD1 is not a point of the 20 s
 * QD sweep (it once drew a vertical segment onto the QD1 point). */
static void sweep_key(const struct rset_cell *c, int skip, char *buf, size_t len)
{
	snprintf(buf, len, "%s|%llu|%u|%u|%u|%s|%d|%s|%u|%u|%llu|%g|%llu|%llu|%llu", pattern_name(c->cell.pattern),
		 skip == 0 ? 0ull : (unsigned long long)c->cell.bs,
		 skip == 1 ? 0 : c->cell.iodepth, c->cell.jobs, c->cell.rwmixread, c->cell.engine,
		 c->cell.direct, data_name(c->cell.data), c->cell.fsync, c->cell.files,
		 (unsigned long long)c->cell.offset, c->cell.offset_pct,
		 (unsigned long long)c->cell.runtime_ns, (unsigned long long)c->cell.requests,
		 (unsigned long long)c->cell.io_size);
}

/* Sweep points arrive in suite order (QD 1, 32, then 2, 4, ...); a line
 * through them must go left to right, one point per x. */
static void series_sort_x(struct series *s)
{
	for (size_t i = 1; i < s->n; i++) {
		double xv = s->x[i], yv = s->y[i];
		size_t j = i;
		for (; j > 0 && s->x[j - 1] > xv; j--) {
			s->x[j] = s->x[j - 1];
			s->y[j] = s->y[j - 1];
		}
		s->x[j] = xv;
		s->y[j] = yv;
	}
	size_t o = 0;
	for (size_t i = 0; i < s->n; i++)
		if (o == 0 || s->x[i] != s->x[o - 1]) {
			s->x[o] = s->x[i];
			s->y[o] = s->y[i];
			o++;
		}
	s->n = o;
}

static double dev_metric(const struct rentry *e, int what)
{
	switch (what) {
	case 0: return rentry_bw(e) / 1e6;
	case 1: return rentry_iops(e);
	default: return rentry_lat(e);
	}
}

/* What a sweep runs, for its title: "random read" or, for a mixed pattern,
 * with its mix ("random read/write 70/30"): the mix is part of the sweep
 * key, so charts of two mixes must not share a title.  `slug` gets the
 * same for the file name ("randrw r70"). */
static void sweep_words(const struct rset_cell *p, char *words, size_t wlen,
			char *slug, size_t slen)
{
	const char *pw = report_cell_words(p, false);

	if (pattern_is_mixed(report_cell_pattern(p))) {
		snprintf(words, wlen, "%s %u/%u", pw, p->cell.rwmixread, 100 - p->cell.rwmixread);
		snprintf(slug, slen, "%s r%u", pattern_name(p->cell.pattern), p->cell.rwmixread);
	} else {
		snprintf(words, wlen, "%s", pw);
		snprintf(slug, slen, "%s", pattern_name(p->cell.pattern));
	}
}

/*
 * Sweep charts: for each distinct key-without-bs (or -qd) with at least 3
 * values, one chart with a line per device.  At most 6 sweeps per kind.
 */
int chart_sweeps(struct chart_ctx *x, int skip)
{
	const struct report *r = x->r;
	char key[320], k2[320];
	char **done = calloc(r->ngroups + 1, sizeof(char *));
	size_t ndone = 0, emitted = 0;
	int rc = 0;

	if (!done)
		return -1;
	for (size_t gi = 0; gi < r->ngroups && emitted < 6 && rc == 0; gi++) {
		sweep_key(r->groups[gi].proto, skip, key, sizeof(key));
		bool seen = false;
		for (size_t i = 0; i < ndone; i++)
			seen |= !strcmp(done[i], key);
		if (seen)
			continue;
		done[ndone++] = strdup(key);
		size_t nvals = 0;
		for (size_t gj = 0; gj < r->ngroups; gj++) {
			sweep_key(r->groups[gj].proto, skip, k2, sizeof(k2));
			nvals += !strcmp(k2, key);
		}
		if (nvals < 3)
			continue;
		const struct rset_cell *p = r->groups[gi].proto;
		int whats[2] = { skip == 0 ? 0 : 1, 2 };
		int nwhat = skip == 0 ? 1 : 2;
		emitted++;
		for (int w = 0; w < nwhat && rc == 0; w++) {
			struct lines l = { 0 };
			for (size_t gj = 0; gj < r->ngroups; gj++) {
				sweep_key(r->groups[gj].proto, skip, k2, sizeof(k2));
				if (strcmp(k2, key))
					continue;
				const struct rgroup *g = &r->groups[gj];
				for (size_t k = 0; k < g->n; k++) {
					if (!g->e[k].cell->ok)
						continue;
					const struct rdev *dv = &r->devs[g->e[k].dev];
					double xv = skip == 0 ? (double)g->proto->cell.bs / 1024 :
						    g->proto->cell.iodepth;
					double yv = dev_metric(&g->e[k], whats[w]);
					if (whats[w] == 2)
						yv /= 1e3;
					if (series_point(lines_series(&l, dv->display, dv->color), xv, yv) < 0)
						rc = -1;
				}
			}
			for (size_t i = 0; i < l.n; i++)
				series_sort_x(&l.s[i]);
			char file[160], title[300], bs[32], what[160], words[96], slug[48];
			fmt_bs(p->cell.bs, bs, sizeof(bs));
			sweep_words(p, words, sizeof(words), slug, sizeof(slug));
			if (skip == 0) {
				snprintf(what, sizeof(what), "%s q%ut%u", slug, p->cell.iodepth, p->cell.jobs);
				chart_file(x, what, "mbs-vs-block-size", file, sizeof(file));
				snprintf(title, sizeof(title), "Throughput vs block size: %s, QD%u, %u job%s",
					 words, p->cell.iodepth, p->cell.jobs, p->cell.jobs == 1 ? "" : "s");
			} else {
				snprintf(what, sizeof(what), "%s %s t%u", bs, slug, p->cell.jobs);
				chart_file(x, what, w ? "latency-vs-queue-depth" : "iops-vs-queue-depth",
					   file, sizeof(file));
				snprintf(title, sizeof(title), "%s vs queue depth: %s %s, %u job%s",
					 w ? "Mean latency" : "IOPS", bs, words, p->cell.jobs,
					 p->cell.jobs == 1 ? "" : "s");
			}
			struct axes ax = {
				.xlabel = skip == 0 ? "block size (KiB)" : "queue depth",
				.ylabel = whats[w] == 0 ? "MB/s (10^6 bytes/s)" :
					  whats[w] == 1 ? "IOPS" : "mean latency (µs)",
				.logx = 2,
			};
			if (rc == 0)
				rc = chart_lines(x, &l, file, title, -1, &ax);
			lines_release(&l);
		}
	}
	for (size_t i = 0; i < ndone; i++)
		free(done[i]);
	free(done);
	return rc;
}

static const char *const dnames[DIR__COUNT] = { "read", "write" };

/* ---- latency exceedance from the histogram ---- */

struct bucket {
	double low, count;
};

static int bucket_cmp(const void *a, const void *b)
{
	double x = ((const struct bucket *)a)->low, y = ((const struct bucket *)b)->low;
	return x < y ? -1 : x > y;
}

/* The merged histogram of one direction over every repetition (sorted,
 * equal lows summed).  Returns the bucket count; *out is owned by the
 * caller.  0 when the cell has none (imports without json+ bins). */
static size_t hist_merged(const struct rset_cell *c, int dd, struct bucket **out)
{
	struct bucket *b = NULL;
	size_t n = 0, alloc = 0;

	*out = NULL;
	for (int r = 0; c->reps && r < c->nreps; r++) {
		const struct rset_rep_dir *d = &c->reps[r].dir[dd];
		for (size_t i = 0; i < d->nhist; i++) {
			const struct rset_bucket *p = &d->hist[i];
			if (isnan(p->lo_ns) || !(p->count > 0))
				continue;
			if (n == alloc) {
				alloc = alloc ? alloc * 2 : 256;
				if (alloc > (1u << 22))
					break;
				struct bucket *q = realloc(b, alloc * sizeof(*q));
				if (!q) {
					free(b);
					return 0;
				}
				b = q;
			}
			b[n].low = p->lo_ns;
			b[n].count = p->count;
			n++;
		}
	}
	if (n > 1)
		qsort(b, n, sizeof(*b), bucket_cmp);
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (o && b[o - 1].low == b[i].low)
			b[o - 1].count += b[i].count;
		else
			b[o++] = b[i];
	}
	*out = b;
	return o;
}

/*
 * A step curve of P(latency > x) from the histogram: each bucket drops the
 * curve at its upper edge.  It starts at p1 (no flat lead-in from the
 * minimum) and ends where fewer than one IO remains.  Without a histogram
 * only the percentiles the source has are drawn, as points.
 */
static int exceed_points(struct series *s, const struct rset_cell *c, int dd, double div,
			 double *nmax)
{
	const struct rset_dir *d = &c->dir[dd];
	struct bucket *b;
	size_t nb = hist_merged(c, dd, &b);
	int rc = 0;

	if (nb) {
		double total = 0, cum = 0, prev = 1;
		for (size_t i = 0; i < nb; i++)
			total += b[i].count;
		*nmax = total > *nmax ? total : *nmax;
		for (size_t i = 0; i < nb && rc == 0; i++) {
			cum += b[i].count;
			double e = 1 - cum / total;
			double up = i + 1 < nb ? b[i + 1].low : b[i].low * (1 + 1.0 / 64);
			if (e > 0.99) {
				prev = e;
				continue;
			}
			if (prev <= 0.99 || s->n)
				rc |= series_point(s, up / div, prev > 0.99 ? 0.99 : prev);
			else
				rc |= series_point(s, up / div, 0.99);
			if (e * total < 1)
				break;
			rc |= series_point(s, up / div, e);
			prev = e;
		}
		free(b);
		return rc;
	}
	for (size_t i = 0; i < d->npct && rc == 0; i++)
		if (d->pct_p[i] >= 1 && d->pct_p[i] < 100)
			rc |= series_point(s, d->pct_ns[i] / div, 1 - d->pct_p[i] / 100);
	double n = (double)d->ios;
	*nmax = n > *nmax ? n : *nmax;
	return rc;
}

/* y ticks of an exceedance chart: only percentiles the sample can resolve
 * (at least ten IOs beyond them). */
static void exceed_ticks(double nmax, char *buf, size_t len, double *ymin)
{
	static const struct { const char *name; double e; } t[] = {
		{ "p50", 0.5 }, { "p90", 0.1 }, { "p99", 0.01 },
		{ "p99.9", 0.001 }, { "p99.99", 0.0001 }, { "p99.999", 0.00001 },
	};
	size_t o = 0;
	*ymin = 0.01;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (nmax * t[i].e < 10 && i > 0)
			break;
		o += (size_t)snprintf(buf + o, len - o, "%s'%s' %g", o ? ", " : "", t[i].name, t[i].e);
		*ymin = t[i].e;
		if (o >= len)
			break;
	}
	*ymin /= 2;
}

static bool group_is_latency(const struct rgroup *g)
{
	return !strncasecmp(g->proto->cell.label, "lat", 3);
}

static bool group_long_or_write(const struct rgroup *g)
{
	for (size_t k = 0; k < g->n; k++)
		if (g->e[k].cell->dir[DIR_WRITE].present || g->e[k].cell->runtime_mean_ns > 10e9)
			return true;
	return false;
}

/* Latency exceedance and bandwidth time series for one workload. */
static int chart_cell(struct chart_ctx *x, size_t gi, bool lat, bool series)
{
	const struct report *r = x->r;
	const struct rgroup *g = &r->groups[gi];
	struct lines pl = { 0 }, sl = { 0 };
	double lats[128], nmax = 0;
	size_t nl = 0;
	char name[256], file[200], title[400], what[300];
	int rc = 0;

	for (size_t k = 0; k < g->n; k++)
		for (int dd = 0; dd < DIR__COUNT; dd++) {
			const struct rset_dir *d = &g->e[k].cell->dir[dd];
			if (g->e[k].cell->ok && d->present && d->npct && nl < 128)
				lats[nl++] = d->pct_ns[d->npct - 1];
		}
	double div;
	const char *unit = fmt_lat_unit(lats, nl, &div);
	for (size_t k = 0; k < g->n; k++) {
		const struct rset_cell *c = g->e[k].cell;
		const struct rdev *dv = &r->devs[g->e[k].dev];
		if (!c->ok)
			continue;
		for (int dd = 0; dd < DIR__COUNT; dd++) {
			const struct rset_dir *d = &c->dir[dd];
			if (!d->present)
				continue;
			if (g->mixed)
				snprintf(name, sizeof(name), "%s %s", dv->display, dnames[dd]);
			else
				snprintf(name, sizeof(name), "%s", dv->display);
			if (lat) {
				/* fio's clat is named: it is not total latency */
				char ln[300];
				snprintf(ln, sizeof(ln), "%s%s", name,
					 c->lat_pct_kind == LAT_COMPLETION ? " (completion)" : "");
				struct series *s = lines_series(&pl, ln, dv->color);
				if (s && g->mixed && dd == DIR_WRITE)
					s->dash = 2;
				rc |= s ? exceed_points(s, c, dd, div, &nmax) : -1;
			}
			if (series && d->nseries >= 3) {
				struct series *s = lines_series(&sl, name, dv->color);
				if (s && g->mixed && dd == DIR_WRITE)
					s->dash = 2;
				double iv = (double)d->series_interval_ns / 1e9;
				for (size_t i = 0; i < d->nseries; i++)
					rc |= series_point(s, interval_sample_mid(i, d->nseries, iv,
								d->series_runtime_s),
							   d->series_bw[i] / 1e6);
			}
		}
	}
	chart_group_what(g, what, sizeof(what));
	bool any_pts = false;
	for (size_t i = 0; i < pl.n; i++)
		any_pts |= pl.s[i].n > 0;
	if (rc == 0 && any_pts) {
		char xl[64], ticks[256];
		double ymin;
		exceed_ticks(nmax, ticks, sizeof(ticks), &ymin);
		chart_file(x, what, "latency", file, sizeof(file));
		snprintf(title, sizeof(title), "Latency percentiles: %s", g->title);
		snprintf(xl, sizeof(xl), "latency (%s), log scale", unit);
		struct axes ax = { .xlabel = xl, .ylabel = "percentile (share of IOs slower)",
				   .logx = 10, .style = "lines lw 2", .yticks = ticks,
				   .ymin = ymin, .ymax = 1 };
		rc = chart_lines(x, &pl, file, title, (int)gi, &ax);
	}
	if (rc == 0 && sl.n) {
		chart_file(x, what, "mbs-over-time", file, sizeof(file));
		snprintf(title, sizeof(title), "Throughput over time (first repetition): %s", g->title);
		struct axes ax = { .xlabel = INTERVAL_X_LABEL, .ylabel = "MB/s (10^6 bytes/s)" };
		rc = chart_lines(x, &sl, file, title, (int)gi, &ax);
	}
	lines_release(&pl);
	lines_release(&sl);
	return rc;
}

/* Which per-workload charts to draw.  Summary: latency of latency cells
 * (or, without one, of the first 4K random read at QD1), time series of
 * write cells and of cells longer than 10 s; all: everything. */
int chart_cells(struct chart_ctx *x)
{
	const struct report *r = x->r;
	size_t drawn = 0, lat_default = (size_t)-1;
	bool any_lat = false;

	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rset_cell *c = r->groups[gi].proto;
		any_lat |= group_is_latency(&r->groups[gi]);
		if (lat_default == (size_t)-1 && c->cell.pattern == PAT_RANDREAD &&
		    c->cell.bs == 4096 && c->cell.iodepth == 1 && c->cell.jobs == 1)
			lat_default = gi;
	}
	for (size_t gi = 0; gi < r->ngroups && drawn < CHART_MAX_CELL_CHARTS; gi++) {
		const struct rgroup *g = &r->groups[gi];
		bool all = x->mode == CHART_ALL;
		bool lat = all || group_is_latency(g) || (!any_lat && gi == lat_default);
		bool ser = all || group_long_or_write(g);
		if (!lat && !ser)
			continue;
		if (chart_cell(x, gi, lat, ser) < 0)
			return -1;
		drawn++;
	}
	return 0;
}
