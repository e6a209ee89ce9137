/*
 * chart.c - write gnuplot data (.dat) and scripts (.gp) for a report and run
 * one gnuplot process over all of them (chart.h).  Scripts contain our own
 * constants and whitelisted titles; every name from a suite or result set
 * (device names, cell labels) goes into the .dat files, read as column
 * headers and tick labels, where gnuplot never substitutes commands or
 * macros.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chart.h"
#include "render/escape.h"
#include "common/fsutil.h"
#include "resultset/rset.h"

struct ctx {
	const struct report *r;
	struct outdir od;     /* outdir/charts */
	bool svg, png;
	enum chart_mode mode;
	enum chart_scale scale;
	struct chart_set *cs;
	struct sbuf all;      /* all.gp */
	struct errlist *msgs;
	int err;
};

static int write_text(struct ctx *x, const char *name, const struct sbuf *b)
{
	return outdir_write(&x->od, name, sbuf_str(b), b->len, x->msgs);
}

static struct chart *chart_new(struct ctx *x, const char *file, const char *title,
			       int group)
{
	struct chart_set *cs = x->cs;
	if (cs->n == cs->alloc) {
		size_t na = cs->alloc ? cs->alloc * 2 : 16;
		struct chart *p = realloc(cs->c, na * sizeof(*p));
		if (!p)
			return NULL;
		cs->c = p;
		cs->alloc = na;
	}
	struct chart *c = &cs->c[cs->n];
	memset(c, 0, sizeof(*c));
	c->file = strdup(file);
	c->title = strdup(title);
	c->group = group;
	if (!c->file || !c->title) {
		free(c->file);
		free(c->title);
		return NULL;
	}
	cs->n++;
	return c;
}

/* ---- gnuplot script pieces ---- */

/*
 * A title drawn in the image.  It is made of our own words and numbers
 * (group titles: sizes, pattern words, QD, engine names from the set), and
 * anything outside a plain whitelist becomes a space, so no quote, backquote,
 * '@', '$' or ';' can reach gnuplot.  UTF-8 bytes (µ, –) pass: none of
 * them is an ASCII metacharacter.
 */
static void gp_title(struct sbuf *g, const char *cmd, const char *text)
{
	sbuf_addf(g, "%s '", cmd);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (isalnum(*p) || *p >= 0x80 || strchr(" ,.%/()+-:=x", *p))
			sbuf_addc(g, (char)*p);
		else
			sbuf_addc(g, ' ');
	}
	sbuf_adds(g, "'\n");
}

/* Terminal lines, title, colours, common style.  ncol colours in C[]. */
static void gp_begin(struct sbuf *g, const char *file, int width, int height,
		     const char *title, const int *colors, size_t ncol, bool svg, bool png)
{
	sbuf_adds(g, "# written by iomatrix report; re-plot with: gnuplot ");
	sbuf_addf(g, "%s.gp\nset encoding utf8\n", file);
	if (svg)
		sbuf_addf(g, "set terminal svg size %d,%d fixed noenhanced "
			  "font 'DejaVu Sans,12' background rgb 'white'\n"
			  "set output '%s.svg'\n", width, height, file);
	else if (png)
		sbuf_addf(g, "set terminal pngcairo size %d,%d noenhanced "
			  "font 'DejaVu Sans,10' background rgb 'white'\n"
			  "set output '%s.png'\n", width, height, file);
	sbuf_addf(g, "array C[%zu]\n", ncol ? ncol : 1);
	for (size_t i = 0; i < ncol; i++)
		sbuf_addf(g, "C[%zu] = '%s'\n", i + 1,
			  report_colors[colors[i] % REPORT_COLORS]);
	gp_title(g, "set title", title);
	/* legends sit above the plot, never on the data */
	sbuf_adds(g, "set datafile missing '?'\n"
		  "set border 3 lc rgb '#555555'\nset tics nomirror\n"
		  "set grid ytics lc rgb '#dddddd' lt 1\n"
		  "set key outside top center horizontal noenhanced\n");
}

/* The plot command is repeated for the PNG: `replot` loses the titles
 * taken from column headers. */
static void gp_end(struct sbuf *g, const char *file, int width, int height, bool svg,
		   bool png, const char *plot)
{
	if (svg && png)
		sbuf_addf(g, "set terminal pngcairo size %d,%d noenhanced "
			  "font 'DejaVu Sans,10' background rgb 'white'\n"
			  "set output '%s.png'\n%s", width, height, file, plot);
	sbuf_adds(g, "set output\nreset\n");
}

/* One number in SI form for a tick: 400k, 1.2M, 35, 0.5. */
static void si_text(double v, char *buf, size_t len)
{
	static const char *const suf[] = { "", "k", "M", "G", "T", "P" };
	int i = 0;
	while (fabs(v) >= 1000 && i < 5) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g%s", v, suf[i]);
}

/*
 * A value axis ("y", or "x" for latency): linear from 0 with about five
 * "nice" ticks, or logarithmic over whole decades; tick labels in SI form
 * either way, written by us (so every axis of every chart reads alike:
 * 400k, 1.2M).
 */
static void gp_yaxis(struct sbuf *g, double mn, double mx, bool logy, const char *axis)
{
	char t[32];
	if (!(mx > 0)) {
		sbuf_addf(g, "set %srange [0:1]\n", axis);
		return;
	}
	sbuf_addf(g, "set %stics (", axis);
	if (logy) {
		double lo = pow(10, floor(log10(mn > 0 ? mn : mx / 10)));
		double hi = pow(10, ceil(log10(mx)));
		if (hi <= lo)
			hi = lo * 10;
		bool dense = hi / lo <= 100;   /* few decades: 1, 2, 5 steps */
		bool first = true;
		for (double d = lo; d <= hi * 1.0001; d *= 10)
			for (int m = 1; m <= 5; m += (m == 1 ? 1 : 3)) {
				if ((!dense && m > 1) || d * m > hi * 1.0001)
					continue;
				si_text(d * m, t, sizeof(t));
				sbuf_addf(g, "%s'%s' %.17g", first ? "" : ", ", t, d * m);
				first = false;
			}
		sbuf_addf(g, ")\nset logscale %s 10\nset %srange [%.17g:%.17g]\n", axis, axis, lo, hi);
		return;
	}
	double raw = mx / 5, mag = pow(10, floor(log10(raw))), norm = raw / mag;
	double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
	double top = ceil(mx * 1.05 / step) * step;
	for (int k = 0; k * step <= top * 1.0001; k++) {
		si_text(k * step, t, sizeof(t));
		sbuf_addf(g, "%s'%s' %.17g", k ? ", " : "", t, k * step);
	}
	sbuf_addf(g, ")\nset %srange [0:%.17g]\n", axis, top);
}

static bool want_log(const struct ctx *x, double mn, double mx)
{
	if (x->scale == CHART_SCALE_LOG)
		return mn > 0;
	if (x->scale == CHART_SCALE_LINEAR)
		return false;
	return mn > 0 && mx / mn > 100;
}

static int chart_emit(struct ctx *x, const char *file, const char *title, int group,
		      const struct sbuf *dat, const struct sbuf *gp)
{
	char name[300];
	struct chart *c = chart_new(x, file, title, group);
	if (!c)
		return -1;
	snprintf(name, sizeof(name), "%s.dat", file);
	if (write_text(x, name, dat) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s.gp", file);
	if (write_text(x, name, gp) < 0)
		return -1;
	sbuf_addf(&x->all, "load '%s.gp'\n", file);
	c->svgfile = x->svg;
	c->png = x->png;
	return 0;
}

/* A file name that says what the chart shows: "rnd4k-q1t1-randread-latency";
 * unique within the report ("-2" appended on a clash). */
static void chart_file(struct ctx *x, const char *what, const char *kind, char *buf, size_t len)
{
	char slug[96], base[160];
	escape_slug(what, slug, sizeof(slug));
	snprintf(base, sizeof(base), "%s-%s", slug, kind);
	snprintf(buf, len, "%s", base);
	for (int n = 2;; n++) {
		bool clash = false;
		for (size_t i = 0; i < x->cs->n; i++)
			clash |= !strcmp(x->cs->c[i].file, buf);
		if (!clash)
			return;
		snprintf(buf, len, "%s-%d", base, n);
	}
}

/* The name of a workload in a file name: its label and pattern when it has
 * one ("RND4K Q1T1 randread"), else its words. */
static void group_what(const struct rgroup *g, char *buf, size_t len)
{
	if (g->proto->label[0])
		snprintf(buf, len, "%s %s", g->proto->label, g->proto->pattern);
	else
		snprintf(buf, len, "%s", g->words);
}

struct chart_sink {
	struct ctx *x;
};

int chart_sink_add(struct chart_sink *k, const char *file, const char *title,
		   const char *section, size_t dev, int group, int height,
		   const struct sbuf *dat, const char *setup, const char *plot)
{
	static const int colors[REPORT_COLORS] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct ctx *x = k->x;
	struct sbuf gp = SBUF_INIT;
	gp_begin(&gp, file, 800, height, title, colors, REPORT_COLORS, x->svg, x->png);
	sbuf_adds(&gp, setup);
	sbuf_adds(&gp, plot);
	gp_end(&gp, file, 800, height, x->svg, x->png, plot);
	int rc = chart_emit(x, file, title, group, dat, &gp);
	sbuf_release(&gp);
	if (rc == 0) {
		x->cs->c[x->cs->n - 1].section = section;
		x->cs->c[x->cs->n - 1].section_dev = dev;
	}
	return rc;
}

/* ---- grouped bars: IOPS and MB/s per workload, one bar per device ---- */

static double entry_ci(const struct rentry *e, bool bw)
{
	double s = 0;
	for (int k = 0; k < DIR__COUNT; k++) {
		const struct rset_dir *d = &e->cell->dir[k];
		if (!d->present)
			continue;
		double c = bw ? d->bw.ci95 / 1e6 : d->iops.ci95;
		if (d->iops.n >= 2 && isfinite(c))
			s += c * c;
	}
	return sqrt(s);
}

/* One bar chart over groups gi[0..n-1]: IOPS or MB/s, with 95 % CI bars. */
static int chart_bars_one(struct ctx *x, bool bw, const size_t *gi, size_t n,
			  const char *file, const char *title)
{
	const struct report *r = x->r;
	struct sbuf dat = SBUF_INIT, gp = SBUF_INIT;
	int colors[64];
	size_t nd = r->ndevs < 64 ? r->ndevs : 64, maxtick = 8, firsttick = 8;
	double mn = INFINITY, mx = 0;

	for (size_t d = 0; d < nd; d++)
		colors[d] = r->devs[d].color;
	escape_append(&dat, "workload", ESC_GPDATA);
	for (size_t d = 0; d < nd; d++) {
		sbuf_addc(&dat, ' ');
		escape_append(&dat, r->devs[d].display, ESC_GPDATA);
		sbuf_adds(&dat, " \"ci95\"");
	}
	sbuf_addc(&dat, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct rgroup *g = &r->groups[gi[i]];
		char tick[300];
		group_what(g, tick, sizeof(tick));
		/* two workloads with one label (direct and buffered): the title
		 * tells them apart */
		for (size_t j = 0; j < n; j++) {
			char t2[300];
			group_what(&r->groups[gi[j]], t2, sizeof(t2));
			if (j != i && !strcmp(t2, tick)) {
				snprintf(tick, sizeof(tick), "%s", g->title);
				break;
			}
		}
		size_t tl = strlen(tick);
		maxtick = tl > maxtick ? tl : maxtick;
		if (i == 0)
			firsttick = tl;
		escape_append(&dat, tick, ESC_GPDATA);
		for (size_t d = 0; d < nd; d++) {
			const struct rentry *e = NULL;
			for (size_t k = 0; k < g->n; k++)
				if (g->e[k].dev == d)
					e = &g->e[k];
			double v = e && e->cell->ok ? (bw ? rentry_bw(e) / 1e6 : rentry_iops(e)) : NAN;
			if (isfinite(v) && v > 0) {
				double ci = entry_ci(e, bw);
				/* a log axis cannot draw a bar below zero */
				if (ci >= v)
					ci = v * 0.99;
				sbuf_addf(&dat, " %.17g %.17g", v, ci);
				mn = v < mn ? v : mn;
				mx = v + ci > mx ? v + ci : mx;
			} else {
				sbuf_adds(&dat, " ? ?");
			}
		}
		sbuf_addc(&dat, '\n');
	}
	bool logy = want_log(x, mn, mx);
	/* room for the rotated tick labels, from the longest one (bottom) and
	 * the first one (it reaches left of the first bar) */
	int h = 360 + (int)(maxtick * 2.5), w = 820;
	gp_begin(&gp, file, w, h, title, colors, nd, x->svg, x->png);
	sbuf_addf(&gp, "set bmargin %d\nset lmargin %d\n", 2 + (int)(maxtick * 0.22),
		  firsttick * 0.9 > 10 ? (int)(firsttick * 0.9) + 2 : 10);
	sbuf_addf(&gp, "set style data histograms\n"
		  "set style histogram errorbars gap 1 lw 1\n"
		  "set style fill solid 0.9 border lc rgb '#333333'\n"
		  "set bars front\n"
		  "set xtics rotate by 30 right scale 0 font ',9' noenhanced\n"
		  "set ylabel '%s%s'\n", bw ? "MB/s (10^6 bytes/s)" : "IOPS",
		  logy ? ", log scale" : "");
	gp_yaxis(&gp, mn, mx, logy, "y");
	char plot[320];
	snprintf(plot, sizeof(plot), "plot for [i=1:%zu] '%s.dat' using (column(2*i)):(column(2*i+1)):xtic(1) "
		 "title columnhead(2*i) lc rgb C[i]\n", nd, file);
	sbuf_adds(&gp, plot);
	gp_end(&gp, file, w, h, x->svg, x->png, plot);
	int rc = chart_emit(x, file, title, -1, &dat, &gp);
	sbuf_release(&dat);
	sbuf_release(&gp);
	return rc;
}

/*
 * Bars per workload, split into panels by queue depth (QD1 and deeper
 * queues differ by orders of magnitude: one axis for both hides the QD1
 * bars) and into chunks of CHART_BARS_PER_CHART.
 */
static int chart_bars(struct ctx *x, bool bw)
{
	const struct report *r = x->r;
	size_t *gi = calloc(r->ngroups + 1, sizeof(*gi));
	int rc = 0;
	bool have[2] = { false, false };

	if (!gi)
		return -1;
	for (size_t i = 0; i < r->ngroups; i++)
		have[r->groups[i].proto->iodepth * r->groups[i].proto->jobs > 1] = true;
	for (int deep = 0; deep < 2 && rc == 0; deep++) {
		size_t n = 0;
		for (size_t i = 0; i < r->ngroups; i++)
			if ((r->groups[i].proto->iodepth * r->groups[i].proto->jobs > 1) == deep)
				gi[n++] = i;
		if (!n)
			continue;
		size_t per = CHART_BARS_PER_CHART, nch = (n + per - 1) / per;
		for (size_t ch = 0; ch < nch && rc == 0; ch++) {
			char file[96], title[200], part[48] = "";
			size_t a = ch * per, b = a + per < n ? a + per : n;
			if (nch > 1)
				snprintf(part, sizeof(part), " (%zu of %zu)", ch + 1, nch);
			snprintf(file, sizeof(file), "%s-per-workload%s%s", bw ? "mbs" : "iops",
				 have[0] && have[1] ? (deep ? "-deeper-queues" : "-qd1") : "", "");
			if (nch > 1)
				snprintf(file + strlen(file), sizeof(file) - strlen(file), "-%zu", ch + 1);
			snprintf(title, sizeof(title), "%s per workload%s%s",
				 bw ? "Throughput (MB/s)" : "IOPS",
				 have[0] && have[1] ? (deep ? ", queue depth x jobs above 1" : ", QD1, 1 job") : "",
				 part);
			rc = chart_bars_one(x, bw, gi + a, b - a, file, title);
		}
	}
	free(gi);
	return rc;
}

/* ---- CrystalDiskMark-style overview: one panel per device ---- */

static const struct { const char *name, *rd, *wr; uint64_t bs; int qd; } cdm_rows[] = {
	{ "SEQ1M Q8T1", "read", "write", 1 << 20, 8 },
	{ "SEQ1M Q1T1", "read", "write", 1 << 20, 1 },
	{ "RND4K Q32T1", "randread", "randwrite", 4096, 32 },
	{ "RND4K Q1T1", "randread", "randwrite", 4096, 1 },
};
#define CDM_ROWS (sizeof(cdm_rows) / sizeof(cdm_rows[0]))

static double cdm_value(const struct report *r, size_t dev, const char *pat, uint64_t bs, int qd)
{
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct rgroup *g = &r->groups[i];
		const struct rset_cell *c = g->proto;
		if (c->bs != bs || c->iodepth != qd || c->jobs != 1 || strcmp(c->pattern, pat) ||
		    c->offset_bytes || c->offset_pct > 0)
			continue;
		for (size_t k = 0; k < g->n; k++)
			if (g->e[k].dev == dev && g->e[k].cell->ok)
				return rentry_bw(&g->e[k]) / 1e6;
	}
	return NAN;
}

static int chart_cdm(struct ctx *x)
{
	const struct report *r = x->r;
	size_t nd = r->ndevs < 6 ? r->ndevs : 6, have = 0;
	double mx = 0;
	struct sbuf dat = SBUF_INIT, gp = SBUF_INIT;

	for (size_t k = 0; k < CDM_ROWS; k++)
		for (size_t d = 0; d < nd; d++) {
			double a = cdm_value(r, d, cdm_rows[k].rd, cdm_rows[k].bs, cdm_rows[k].qd);
			double b = cdm_value(r, d, cdm_rows[k].wr, cdm_rows[k].bs, cdm_rows[k].qd);
			have += isfinite(a) || isfinite(b);
			mx = isfinite(a) && a > mx ? a : mx;
			mx = isfinite(b) && b > mx ? b : mx;
		}
	if (have < 2)   /* nothing CrystalDiskMark-like was run */
		return 0;
	escape_append(&dat, "test", ESC_GPDATA);
	for (size_t d = 0; d < nd; d++) {
		sbuf_addc(&dat, ' ');
		escape_append(&dat, r->devs[d].display, ESC_GPDATA);
		sbuf_adds(&dat, " \"write\"");
	}
	sbuf_addc(&dat, '\n');
	for (size_t k = 0; k < CDM_ROWS; k++) {
		escape_append(&dat, cdm_rows[k].name, ESC_GPDATA);
		for (size_t d = 0; d < nd; d++)
			for (int w = 0; w < 2; w++) {
				double v = cdm_value(r, d, w ? cdm_rows[k].wr : cdm_rows[k].rd,
						     cdm_rows[k].bs, cdm_rows[k].qd);
				if (isfinite(v))
					sbuf_addf(&dat, " %.17g", v);
				else
					sbuf_adds(&dat, " ?");
			}
		sbuf_addc(&dat, '\n');
	}
	int colors[2] = { 0, 1 };
	int w = nd > 1 ? 460 * (int)nd : 620, h = 440;
	if (w > 1400)
		w = 1400;
	const char *file = "crystaldiskmark-overview-mbs";
	const char *title = "CrystalDiskMark-style overview: MB/s, read and write";
	gp_begin(&gp, file, w, h, title, colors, 2, x->svg, x->png);
	/* the title goes over all panels, not over each */
	sbuf_adds(&gp, "unset title\n"
		  "set style data histograms\n"
		  "set style histogram clustered gap 1\n"
		  "set style fill solid 0.9 noborder\n"
		  "set xtics scale 0 font ',9' noenhanced\n"
		  "set xrange [-0.6:3.6]\nset key autotitle columnhead\n"
		  "set ylabel 'MB/s (10^6 bytes/s)'\nset bmargin 3\n");
	gp_yaxis(&gp, 0, mx * 1.12, false, "y");
	/* one panel per device; its name is the first key entry, read from
	 * the data file like every other name */
	struct sbuf plot = SBUF_INIT;
	sbuf_addf(&plot, "set multiplot layout 1,%zu ", nd);
	gp_title(&plot, "title", title);
	for (size_t d = 0; d < nd; d++) {
		size_t rc = 2 + 2 * d, wc = rc + 1;
		sbuf_addf(&plot, "plot '%s.dat' using (0):(0) with points ps 0 lc rgb '#ffffff' "
			  "title columnhead(%zu), "
			  "'' using %zu:xtic(1) title 'read' lc rgb '%s', "
			  "'' using %zu title 'write' lc rgb '%s', "
			  "'' using ($0-1.0/6):(column(%zu)):(sprintf('%%.0f', column(%zu))) with labels "
			  "offset 0,0.6 font ',8' notitle, "
			  "'' using ($0+1.0/6):(column(%zu)):(sprintf('%%.0f', column(%zu))) with labels "
			  "offset 0,0.6 font ',8' notitle\n",
			  file, rc, rc, report_colors[0], wc, report_colors[3], rc, rc, wc, wc);
		if (d == 0)
			sbuf_adds(&plot, "unset ylabel\n");
	}
	sbuf_adds(&plot, "unset multiplot\n");
	sbuf_adds(&gp, sbuf_str(&plot));
	gp_end(&gp, file, w, h, x->svg, x->png, sbuf_str(&plot));
	int rc = chart_emit(x, file, title, -1, &dat, &gp);
	sbuf_release(&plot);
	sbuf_release(&dat);
	sbuf_release(&gp);
	return rc;
}

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
	struct series *p = realloc(l->s, (l->n + 1) * sizeof(*p));
	if (!p)
		return NULL;
	l->s = p;
	struct series *s = &l->s[l->n];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->color = color;
	s->dash = 1;
	if (!s->name)
		return NULL;
	l->n++;
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

static int chart_lines(struct ctx *x, struct lines *l, const char *file,
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
		for (size_t k = 0; k < l->s[i].n; k++) {
			double v = l->s[i].y[k];
			if (v > 0 && v < mn)
				mn = v;
			if (v > mx)
				mx = v;
		}
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
	bool logy = !ax->yticks && want_log(x, mn, mx);
	sbuf_addf(&gp, "set xlabel '%s'\nset ylabel '%s%s'\n", ax->xlabel, ax->ylabel,
		  logy ? ", log scale" : "");
	if (ax->logx == 10) {
		/* decades with SI labels, as on every y axis */
		double xmn = INFINITY, xmx = 0;
		for (size_t i = 0; i < ns; i++)
			for (size_t k = 0; k < l->s[i].n; k++) {
				double v = l->s[i].x[k];
				if (v > 0 && v < xmn)
					xmn = v;
				if (v > xmx)
					xmx = v;
			}
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
	snprintf(buf, len, "%s|%llu|%d|%d|%d|%s|%d|%s|%d|%d|%llu|%g|%llu|%llu|%llu", c->pattern,
		 skip == 0 ? 0ull : (unsigned long long)c->bs,
		 skip == 1 ? 0 : c->iodepth, c->jobs, c->rwmixread, c->engine,
		 c->direct, c->data, c->fsync, c->files,
		 (unsigned long long)c->offset_bytes, c->offset_pct,
		 (unsigned long long)c->runtime_ns, (unsigned long long)c->requests,
		 (unsigned long long)c->io_size);
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

/*
 * Sweep charts: for each distinct key-without-bs (or -qd) with at least 3
 * values, one chart with a line per device.  At most 6 sweeps per kind.
 */
static int chart_sweeps(struct ctx *x, int skip)
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
					double xv = skip == 0 ? (double)g->proto->bs / 1024 :
						    g->proto->iodepth;
					double yv = dev_metric(&g->e[k], whats[w]);
					if (whats[w] == 2)
						yv /= 1e3;
					if (series_point(lines_series(&l, dv->display, dv->color), xv, yv) < 0)
						rc = -1;
				}
			}
			for (size_t i = 0; i < l.n; i++)
				series_sort_x(&l.s[i]);
			char file[160], title[300], bs[32], what[160];
			fmt_bs(p->bs, bs, sizeof(bs));
			if (skip == 0) {
				snprintf(what, sizeof(what), "%s q%dt%d", p->pattern, p->iodepth, p->jobs);
				chart_file(x, what, "mbs-vs-block-size", file, sizeof(file));
				snprintf(title, sizeof(title), "Throughput vs block size: %s, QD%d, %d job%s",
					 report_pattern_words(p->pattern, false), p->iodepth,
					 p->jobs, p->jobs == 1 ? "" : "s");
			} else {
				snprintf(what, sizeof(what), "%s %s t%d", bs, p->pattern, p->jobs);
				chart_file(x, what, w ? "latency-vs-queue-depth" : "iops-vs-queue-depth",
					   file, sizeof(file));
				snprintf(title, sizeof(title), "%s vs queue depth: %s %s, %d job%s",
					 w ? "Mean latency" : "IOPS", bs,
					 report_pattern_words(p->pattern, false), p->jobs,
					 p->jobs == 1 ? "" : "s");
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
	const cJSON *reps = cJSON_GetObjectItemCaseSensitive(c->json, "repetitions"), *rep;
	struct bucket *b = NULL;
	size_t n = 0, alloc = 0;

	*out = NULL;
	cJSON_ArrayForEach(rep, reps) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(rep, dnames[dd]), "hist");
		const cJSON *bk = cJSON_GetObjectItemCaseSensitive(h, "buckets"), *p;
		cJSON_ArrayForEach(p, bk) {
			const cJSON *lo = cJSON_GetArrayItem(p, 0), *ct = cJSON_GetArrayItem(p, 1);
			if (!cJSON_IsNumber(lo) || !cJSON_IsNumber(ct) || !(ct->valuedouble > 0))
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
			b[n].low = lo->valuedouble;
			b[n].count = ct->valuedouble;
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
	return !strncasecmp(g->proto->label, "lat", 3);
}

static bool group_long_or_write(const struct rgroup *g)
{
	for (size_t k = 0; k < g->n; k++)
		if (g->e[k].cell->dir[DIR_WRITE].present || g->e[k].cell->runtime_mean_ns > 10e9)
			return true;
	return false;
}

/* Latency exceedance and bandwidth time series for one workload. */
static int chart_cell(struct ctx *x, size_t gi, bool lat, bool series)
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
				struct series *s = lines_series(&pl, name, dv->color);
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
					rc |= series_point(s, (i + 1) * iv, d->series_bw[i] / 1e6);
			}
		}
	}
	group_what(g, what, sizeof(what));
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
		struct axes ax = { .xlabel = "time (s)", .ylabel = "MB/s (10^6 bytes/s)" };
		rc = chart_lines(x, &sl, file, title, (int)gi, &ax);
	}
	lines_release(&pl);
	lines_release(&sl);
	return rc;
}

/* Which per-workload charts to draw.  Summary: latency of latency cells
 * (or, without one, of the first 4K random read at QD1), time series of
 * write cells and of cells longer than 10 s; all: everything. */
static int chart_cells(struct ctx *x)
{
	const struct report *r = x->r;
	size_t drawn = 0, lat_default = (size_t)-1;
	bool any_lat = false;

	for (size_t gi = 0; gi < r->ngroups; gi++) {
		const struct rset_cell *c = r->groups[gi].proto;
		any_lat |= group_is_latency(&r->groups[gi]);
		if (lat_default == (size_t)-1 && !strcmp(c->pattern, "randread") &&
		    c->bs == 4096 && c->iodepth == 1 && c->jobs == 1)
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

char *chart_find_program(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		char buf[4096];
		if (len && len + strlen(prog) + 2 < sizeof(buf)) {
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, prog);
			if (access(buf, X_OK) == 0)
				return strdup(buf);
		}
		path += len + (colon ? 1 : 0);
	}
	return NULL;
}

/* One gnuplot for everything: fork, fchdir to dfd (opened without
 * following links), exec by argv; its output goes to a new gnuplot.log
 * there (O_EXCL, never through a planted link). */
int chart_run_gnuplot(const char *gnuplot, int dfd, const char *dir, const char *script,
		      struct errlist *msgs)
{
	int logfd, status;

	logfd = openat(dfd, "gnuplot.log", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	pid_t pid = fork();

	if (pid < 0) {
		if (logfd >= 0)
			close(logfd);
		errlist_add(msgs, NULL, 0, 0, "cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char *const argv[] = { (char *)"gnuplot", (char *)script, NULL };
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		if (fchdir(dfd) < 0)
			_exit(126);
		if (logfd >= 0) {
			dup2(logfd, 1);
			dup2(logfd, 2);
		}
		execv(gnuplot, argv);
		_exit(127);
	}
	if (logfd >= 0)
		close(logfd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			errlist_add(msgs, NULL, 0, 0, "waiting for gnuplot: %s", strerror(errno));
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errlist_add(msgs, NULL, 0, 0, "gnuplot failed (exit %d); see '%s/gnuplot.log'",
			    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), dir);
		return -1;
	}
	return 0;
}

/* The report's charts: the names gnuplot will write are claimed first
 * (gnuplot's fopen would follow a planted link), then one run of all.gp. */
static int run_gnuplot(const char *gnuplot, struct ctx *x, struct errlist *msgs)
{
	for (size_t i = 0; i < x->cs->n; i++) {
		char name[300];
		snprintf(name, sizeof(name), "%s.svg", x->cs->c[i].file);
		if (x->svg)
			outdir_claim(&x->od, name);
		snprintf(name, sizeof(name), "%s.png", x->cs->c[i].file);
		if (x->png)
			outdir_claim(&x->od, name);
	}
	outdir_claim(&x->od, "gnuplot.log");
	return chart_run_gnuplot(gnuplot, x->od.fd, x->od.path, "all.gp", msgs);
}

/*
 * Read an SVG gnuplot wrote and keep the <svg> element for inlining.  Every
 * chart uses the same ids (gnuplot_canvas, gpPt0, textbox...), so they get a
 * per-chart prefix: one HTML page may not define an id twice.
 */
static char *svg_inline(int dirfd, const char *file, size_t idx)
{
	static const char *const refs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	char name[300], prefix[32];
	size_t len;
	struct sbuf out = SBUF_INIT;

	snprintf(name, sizeof(name), "%s.svg", file);
	char *buf = fsutil_read_at(dirfd, name, 16u << 20, 0, &len);
	if (!buf)
		return NULL;
	char *p = strstr(buf, "<svg");
	if (!p) {
		free(buf);
		return NULL;
	}
	snprintf(prefix, sizeof(prefix), "c%zu-", idx + 1);
	while (*p) {
		size_t best = (size_t)-1, which = 0;
		for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
			char *q = strstr(p, refs[i]);
			if (q && (size_t)(q - p) < best) {
				best = (size_t)(q - p);
				which = i;
			}
		}
		if (best == (size_t)-1) {
			sbuf_adds(&out, p);
			break;
		}
		size_t rl = strlen(refs[which]);
		sbuf_add(&out, p, best + rl);
		sbuf_adds(&out, prefix);
		p += best + rl;
	}
	free(buf);
	return sbuf_detach(&out);
}

int chart_render_all(const struct report *r, struct outdir *parent,
		     const struct chart_opts *o, struct chart_set *cs,
		     struct errlist *msgs)
{
	bool svg = o->svg, png = o->png;
	struct ctx x = { .r = r, .svg = svg, .png = png, .cs = cs, .msgs = msgs,
			 .mode = o->mode, .scale = o->scale };
	char *gnuplot = NULL;
	int rc = 0;

	x.od.fd = -1;
	memset(cs, 0, sizeof(*cs));
	if (!svg && !png)
		return 0;
	gnuplot = chart_find_program("gnuplot");
	if (!gnuplot) {
		cs->note = strdup("Charts were skipped: gnuplot is not installed "
				  "(apt-get install gnuplot-nox, then run the report again).");
		fprintf(stderr, "iomatrix: gnuplot not found; charts skipped "
			"(install it with 'apt-get install gnuplot-nox')\n");
		return 0;
	}
	sbuf_init(&x.all);
	/* charts of an earlier report that this one does not redraw are
	 * removed by outdir_finish(), from the list that report left */
	int e = outdir_open_child(&x.od, parent, "charts", msgs);
	if (e < 0) {
		rc = e == -1 ? 2 : 1;
		goto out;
	}
	if (chart_cdm(&x) < 0 || chart_bars(&x, false) < 0 || chart_bars(&x, true) < 0 ||
	    chart_sweeps(&x, 0) < 0 || chart_sweeps(&x, 1) < 0 || chart_cells(&x) < 0) {
		errlist_add(msgs, x.od.path, 0, 0, "cannot write chart files");
		rc = 1;
		goto out;
	}
	struct chart_sink sink = { &x };
	if (ssd_charts(r, &sink) < 0) {
		errlist_add(msgs, x.od.path, 0, 0, "cannot write chart files");
		rc = 1;
		goto out;
	}
	if (write_text(&x, "all.gp", &x.all) < 0) {
		rc = 1;
		goto out;
	}
	if (x.mode == CHART_SUMMARY || r->ngroups > CHART_MAX_CELL_CHARTS) {
		char note[300];
		if (x.mode == CHART_SUMMARY)
			snprintf(note, sizeof(note), "Latency and time-series charts are drawn for "
				 "latency cells, write cells and cells longer than 10 s; "
				 "'iomatrix report --charts all' draws them for every workload.");
		else
			snprintf(note, sizeof(note), "Latency and time-series charts are drawn for "
				 "the first %d workloads; report.csv and each cell's JSON in cells/ "
				 "hold the numbers of all %zu.", CHART_MAX_CELL_CHARTS, r->ngroups);
		cs->note = strdup(note);
	}
	if (run_gnuplot(gnuplot, &x, msgs) < 0) {
		rc = 1;
		goto out;
	}
	for (size_t i = 0; svg && i < cs->n; i++)
		cs->c[i].svg = svg_inline(x.od.fd, cs->c[i].file, i);
out:
	if (x.od.fd >= 0 && outdir_finish(&x.od, msgs) < 0 && !rc)
		rc = 1;
	outdir_close(&x.od);
	free(gnuplot);
	sbuf_release(&x.all);
	return rc;
}

void chart_set_release(struct chart_set *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->c[i].file);
		free(cs->c[i].title);
		free(cs->c[i].svg);
	}
	free(cs->c);
	free(cs->note);
	memset(cs, 0, sizeof(*cs));
}
