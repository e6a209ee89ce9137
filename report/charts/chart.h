/*
 * chart.h - gnuplot charts for a report: .dat and .gp files written to
 * OUT/charts/, then ONE gnuplot process (argv, no shell) renders them all
 * to SVG and/or PNG.  Device names and tick labels are read from the .dat
 * files; the title drawn in each image is built from our own words and
 * numbers and passed through a whitelist of characters, so nothing from a
 * suite or result set can reach gnuplot's command or macro substitution.
 *
 * The folder's header, over several files: chart_render_all() and the
 * gnuplot helpers are chart_render.c's, the sink and gp_title()
 * chart_gp.c's, each section's charts its own file's.  chart_render.c calls chart_gp.c and
 * chart_lines.c, which include this header (chart_int.h), so no chart.c
 * shares its name.
 */
#ifndef IOMATRIX_CHART_H
#define IOMATRIX_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errlist.h"
#include "render/outdir.h"
#include "model/report.h"
#include "model/section.h"  /* struct chart, chart_set */

/* Most per-cell charts (percentiles, time series) drawn for big sets. */
#define CHART_MAX_CELL_CHARTS 24
/* Most cells in one grouped-bar chart. */
#define CHART_BARS_PER_CHART 16

enum chart_mode {
	CHART_SUMMARY,   /* default: overview bars, CrystalDiskMark panel, sweeps,
			    latency of latency cells, time series of write cells
			    and of cells longer than 10 s */
	CHART_ALL,       /* also latency and time series of every workload */
};
enum chart_scale { CHART_SCALE_AUTO, CHART_SCALE_LINEAR, CHART_SCALE_LOG };

struct chart_opts {
	bool svg, png;
	enum chart_mode mode;
	enum chart_scale scale;  /* auto: log only when values span > 100x */
};

/*
 * Write the chart files under outdir/charts (never a link) and run gnuplot
 * once.  Returns 0 (charts done, or skipped with cs->note set when gnuplot
 * is missing), 1 when writing or gnuplot failed, 2 when charts/ is a link
 * or not a directory (message in msgs).
 */
int chart_render_all(const struct report *r, struct outdir *parent,
		     const struct chart_opts *opts, struct chart_set *cs,
		     struct errlist *msgs);

/*
 * The charts of optional sections (the charts hook of a report_sections[]
 * row, e.g. ssd_chart.c) are added through a sink: chart_gp.c writes FILE.dat
 * as given and FILE.gp from its own terminal and style lines (colours in
 * the gnuplot array C[1..8]), then `setup` and `plot` (our constants and
 * numbers only, never a string from a set), and renders it with everything
 * else in the one gnuplot run.  A chart with a section is placed by that
 * section's context hook; else group says which results table it follows
 * (-1: the overview).
 */
struct chart_sink;
struct sbuf;
int chart_sink_add(struct chart_sink *k, const char *file, const char *title,
		   const char *section, size_t dev, int group, int height,
		   const struct sbuf *dat, const char *setup, const char *plot);
/* ssd_chart.c: steady-state, PTS and write-cliff charts, the charts hook
 * of the SSD row (cmd/sections.c).  0 or -1. */
int ssd_charts(const struct report *r, struct chart_sink *k);

/* qos_chart.c: the QoS chart of each swept cell (response p50/p99/p99.9
 * against achieved IOPS, log latency, the knee and the target), the
 * charts hook of the QoS row.  0 or -1. */
int qos_charts(const struct report *r, struct chart_sink *k);
/* lattime_chart.c: the percentiles of each interval over time and the
 * heatmap of each cell the "Latency over time" section keeps, the charts
 * hook of its row.  0 or -1. */
int lattime_charts(const struct report *r, struct chart_sink *k);
/* Shared with the site's charts: the full path of prog in $PATH (caller
 * frees) or NULL; run `gnuplot SCRIPT` in the directory dfd (dir: its name
 * for messages), output to a new dir/gnuplot.log (which must not exist),
 * 0 or -1 with a message. */
char *chart_find_program(const char *prog);
/* `cmd 'text'` (e.g. cmd "set title") with text through the title
 * whitelist: anything but letters, digits, UTF-8 and  ,.%/()+-:=x  becomes
 * a space, so no gnuplot metacharacter survives. */
void gp_title(struct sbuf *g, const char *cmd, const char *text);
int chart_run_gnuplot(const char *gnuplot, int dfd, const char *dir, const char *script,
		      struct errlist *msgs);

#endif
