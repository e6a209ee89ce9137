/*
 * chart_gp.c - the pieces every chart is made of (chart_int.h): the .gp
 * script's terminal, title, axes and end, the chart list entry and the
 * .dat/.gp files, and the sink through which a section's charts arrive.
 * Titles pass a whitelist here; names from a set only ever reach .dat
 * files.  The bottom of charts/: it calls no other file of the room.
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
#include "util/fsutil.h"
#include "resultset/rset.h"

int chart_write_text(struct chart_ctx *x, const char *name, const struct sbuf *b)
{
	return outdir_write(&x->od, name, sbuf_str(b), b->len, x->msgs);
}

struct chart *chart_new(struct chart_ctx *x, const char *file, const char *title,
			       int group)
{
	struct chart_set *cs = x->cs;
	struct chart *c = ARRAY_PUSH(cs->c, cs->alloc, cs->n, 16);
	if (!c)
		return NULL;
	c->group = group;
	if (!(c->file = strdup(file)) || !(c->title = strdup(title))) {
		free(c->file);
		cs->n--;   /* a chart without its names is none: chart_file reads them */
		return NULL;
	}
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
void gp_title(struct sbuf *g, const char *cmd, const char *text)
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

/* The chart's title in lines of at most maxc characters, broken at
 * spaces (a heatmap's title of ~100 characters ran off both sides of an
 * 800 px chart), each character as gp_title lets it through; "\n"
 * between lines needs gnuplot's double quotes, which the same characters
 * cannot end. */
static void gp_title_lines(struct sbuf *g, const char *text, size_t maxc)
{
	size_t col = 0;
	sbuf_adds(g, "set title \"");
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == ' ' && col > 0) {
			size_t w = strcspn((const char *)p + 1, " "); /* the next word */
			if (col + 1 + w > maxc) {
				sbuf_adds(g, "\\n");
				col = 0;
				continue;
			}
		}
		sbuf_addc(g, isalnum(*p) || *p >= 0x80 || strchr(" ,.%/()+-:=x", *p) ?
			  (char)*p : ' ');
		col += (*p & 0xc0) != 0x80;   /* a UTF-8 character counts once */
	}
	sbuf_adds(g, "\"\n");
}

/* Terminal lines, title, colours, common style.  ncol colours in C[]. */
void gp_begin(struct sbuf *g, const char *file, int width, int height,
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
	gp_title_lines(g, title, (size_t)width / 8); /* ~7 px a character at 12 pt, centred on the plot */
	/* legends sit above the plot, never on the data */
	sbuf_adds(g, "set datafile missing '?'\n"
		  "set border 3 lc rgb '#555555'\nset tics nomirror\n"
		  "set grid ytics lc rgb '#dddddd' lt 1\n"
		  "set key outside top center horizontal noenhanced\n");
}

/* The plot command is repeated for the PNG: `replot` loses the titles
 * taken from column headers. */
void gp_end(struct sbuf *g, const char *file, int width, int height, bool svg,
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
void gp_yaxis(struct sbuf *g, double mn, double mx, bool logy, const char *axis)
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

bool chart_want_log(const struct chart_ctx *x, double mn, double mx)
{
	if (x->scale == CHART_SCALE_LOG)
		return mn > 0;
	if (x->scale == CHART_SCALE_LINEAR)
		return false;
	return mn > 0 && mx / mn > 100;
}

int chart_emit(struct chart_ctx *x, const char *file, const char *title, int group,
		      const struct sbuf *dat, const struct sbuf *gp)
{
	char name[300];
	struct chart *c = chart_new(x, file, title, group);
	if (!c)
		return -1;
	snprintf(name, sizeof(name), "%s.dat", file);
	if (chart_write_text(x, name, dat) < 0)
		return -1;
	snprintf(name, sizeof(name), "%s.gp", file);
	if (chart_write_text(x, name, gp) < 0)
		return -1;
	sbuf_addf(&x->all, "load '%s.gp'\n", file);
	c->svgfile = x->svg;
	c->png = x->png;
	return 0;
}

/* A file name that says what the chart shows: "rnd4k-q1t1-randread-latency";
 * unique within the report ("-2" appended on a clash). */
void chart_file(struct chart_ctx *x, const char *what, const char *kind, char *buf, size_t len)
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
void chart_group_what(const struct rgroup *g, char *buf, size_t len)
{
	if (g->proto->cell.label[0])
		snprintf(buf, len, "%s %s", g->proto->cell.label, pattern_name(g->proto->cell.pattern));
	else
		snprintf(buf, len, "%s", g->words);
}

int chart_sink_add(struct chart_sink *k, const char *file, const char *title,
		   const char *section, size_t dev, int group, int height,
		   const struct sbuf *dat, const char *setup, const char *plot)
{
	static const int colors[REPORT_COLORS] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct chart_ctx *x = k->x;
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
