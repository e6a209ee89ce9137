/*
 * chart_int.h - between the files of charts/ only: the state of one
 * chart_render_all() run and the pieces every chart is made of
 * (chart_gp.c), and the line charts (chart_lines.c) that chart_render.c draws.
 * Functions returning int give 0, or -1 when a file could not be written
 * (message in x->msgs).
 */
#ifndef IOMATRIX_CHART_INT_H
#define IOMATRIX_CHART_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "chart.h"
#include "util/sbuf.h"

struct chart_ctx {
	const struct report *r;
	struct outdir od;     /* outdir/charts */
	bool svg, png;
	enum chart_mode mode;
	enum chart_scale scale;
	struct chart_set *cs;
	struct sbuf all;      /* all.gp */
	struct errlist *msgs;
	int err;
	char cdm_note[400];   /* what the CrystalDiskMark panel leaves out, or "" */
};

/* What chart_sink_add() (chart.h) writes into. */
struct chart_sink {
	struct chart_ctx *x;
};

/* ---- chart_gp.c ---- */
/* Write charts/NAME atomically. */
int chart_write_text(struct chart_ctx *x, const char *name, const struct sbuf *b);
/* Append an entry to x->cs (owned there); NULL on OOM. */
struct chart *chart_new(struct chart_ctx *x, const char *file, const char *title,
			int group);
/* Terminal lines, title, colours, common style.  ncol colours in C[]. */
void gp_begin(struct sbuf *g, const char *file, int width, int height,
	      const char *title, const int *colors, size_t ncol, bool svg, bool png);
/* The plot command, and again for the PNG terminal. */
void gp_end(struct sbuf *g, const char *file, int width, int height, bool svg,
	    bool png, const char *plot);
/* A y (or x) axis from mn to mx, linear with nice ticks or log by decades,
 * SI tick labels (400k, 1.2M). */
void gp_yaxis(struct sbuf *g, double mn, double mx, bool logy, const char *axis);
/* A log axis for values from mn to mx under x->scale. */
bool chart_want_log(const struct chart_ctx *x, double mn, double mx);
/* Write FILE.dat and FILE.gp, add the chart to the list and to all.gp. */
int chart_emit(struct chart_ctx *x, const char *file, const char *title, int group,
	       const struct sbuf *dat, const struct sbuf *gp);
/* A unique file name that says what the chart shows
 * ("rnd4k-q1t1-randread-latency"). */
void chart_file(struct chart_ctx *x, const char *what, const char *kind, char *buf,
		size_t len);
/* A workload's name in a file name: label and pattern, else its words. */
void chart_group_what(const struct rgroup *g, char *buf, size_t len);

/* ---- chart_lines.c ---- */
/* Throughput against block size (skip 0) or IOPS and latency against
 * queue depth (skip 1), one line per device. */
int chart_sweeps(struct chart_ctx *x, int skip);
/* Per workload: the latency percentile curve and the time series. */
int chart_cells(struct chart_ctx *x);

#endif
