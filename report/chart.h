/*
 * chart.h - gnuplot charts for a report: .dat and .gp files written to
 * OUT/charts/, then ONE gnuplot process (argv, no shell) renders them all
 * to SVG and/or PNG.  The .gp scripts hold no string from a suite or result
 * set (titles live in the report's captions; device names and tick labels
 * are read from the .dat files), so nothing there can reach gnuplot's
 * command or macro substitution.
 */
#ifndef IOMATRIX_CHART_H
#define IOMATRIX_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "common/errlist.h"
#include "outdir.h"
#include "report.h"

struct chart {
	char *file;      /* owned: base name, e.g. "bars-iops-1" */
	char *title;     /* owned: caption, plain text */
	int group;       /* -1: overview chart; else index into report.groups */
	char *svg;       /* owned: the <svg> element to inline, NULL if none */
	bool png;        /* a PNG was written */
	bool svgfile;    /* an SVG was written */
};

struct chart_set {
	struct chart *c;
	size_t n, alloc;
	char *note;      /* owned: why charts are missing, NULL if all fine */
};

/* Most per-cell charts (percentiles, time series) drawn for big sets. */
#define CHART_MAX_CELL_CHARTS 24
/* Most cells in one grouped-bar chart. */
#define CHART_BARS_PER_CHART 24

/*
 * Write the chart files under outdir/charts (never a link) and run gnuplot
 * once.  Returns 0 (charts done, or skipped with cs->note set when gnuplot
 * is missing), 1 when writing or gnuplot failed, 2 when charts/ is a link
 * or not a directory (message in msgs).
 */
int chart_render_all(const struct report *r, struct outdir *parent, bool svg,
		     bool png, struct chart_set *cs, struct errlist *msgs);
void chart_set_release(struct chart_set *cs);

/* Shared with the site's charts: the full path of prog in $PATH (caller
 * frees) or NULL; run `gnuplot SCRIPT` in the directory dfd (dir: its name
 * for messages), output to a new dir/gnuplot.log (which must not exist),
 * 0 or -1 with a message. */
char *chart_find_program(const char *prog);
int chart_run_gnuplot(const char *gnuplot, int dfd, const char *dir, const char *script,
		      struct errlist *msgs);

#endif
