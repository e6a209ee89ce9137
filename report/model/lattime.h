/*
 * lattime.h - the "Latency over time" section of a report:
 * for a cell whose first repetition kept each interval's latency histogram
 * (series.hist), its percentiles interval by interval and the spike
 * sentence; the charts (charts/lattime_chart.c) draw the percentiles over
 * time and a heatmap of the share of each interval's IOs at each latency.
 * A row of report_sections[] (cmd/sections.c); lattime_report hangs off
 * struct report and is freed by lattime_release(); render/lattime_out.c
 * renders it.
 *
 * Which cells: every cell with interval histograms gets its numbers; the
 * section shows latency cells (primary_metric, sides.h), cells that ran
 * longer than LATTIME_LONG_S, cells with a write cliff and cells with a
 * spike, and under --charts all every cell it drew.
 */
#ifndef IOMATRIX_REPORT_LATTIME_H
#define IOMATRIX_REPORT_LATTIME_H

#include "report.h"
#include "section.h"
#include "stats/ivhist.h"

/* A cell longer than this is shown whatever its metric. */
#define LATTIME_LONG_S 10.0
/* An interval whose p99 is this many times the median interval's p99 is a
 * spike, named by the spike sentence. */
#define LATTIME_SPIKE_X 10.0

struct lattime_cell {
	size_t dev, group, entry;   /* indexes into report.devs, .groups, .e */
	const struct rset_cell *cell;
	bool reads, writes;         /* the directions merged into hs */
	struct ivhist hs;           /* owned: the first repetition's intervals,
				     * its directions summed */
	size_t n;                   /* intervals with a length (the last is
				     * left out when shorter than half of one) */
	double iv_s, runtime_s;     /* interval and the repetition's runtime */
	double *p50, *p99, *p999;   /* owned, n each: ns, NAN without IO */
	double run_p99;             /* of the whole repetition, ns */
	double median_p99;          /* of the intervals' p99s, ns; NAN: none */
	bool shown;                 /* the section shows it (see above) */
	char *spike;                /* owned: the spike sentence, NULL: none */
};

struct lattime_report {
	struct lattime_cell *c;
	size_t n;
};

int lattime_load(struct report *r);
void lattime_release(struct report *r);

/* "7 m 12 s", "3.5 s", "1 h 0 m 5 s": a time from the start of the run. */
void lattime_fmt_time(double s, char *buf, size_t len);
/* "(latency p50 4.01 ms, p99 4.10 ms)" of the intervals of repetition
 * rep's writes that lie whole in [start_ns, start_ns + dur_ns), into buf;
 * "" when none does (a plateau shorter than an interval, a set without
 * series.hist).  For the write cliff's sentence (ssd.c). */
void lattime_span_text(const struct rset_rep *rep, double start_ns, double dur_ns,
		       char *buf, size_t len);

#endif
