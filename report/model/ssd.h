/*
 * ssd.h - the SSD-truth part of a report: per device the SNIA
 * PTS steady-state verdict read from steady/DEVICE.json, preconditioning
 * from precondition/DEVICE.json, the PTS IOPS table (R/W mix x block size),
 * the write cliffs found in the time series, and the warnings they call for.
 *
 * The SSD row of report_sections[] (section.h, filled in
 * cmd/sections.c) points at ssd_report_load(), ssd_report_release(), the
 * charts' ssd_charts() and the output's ssd_report_context()
 * (render/section_out.h); the model, renderer and charts reach them only
 * through that row.  Ownership: the struct
 * ssd_report hangs off struct report and is freed by ssd_report_release().
 */
#ifndef IOMATRIX_SSD_REPORT_H
#define IOMATRIX_SSD_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/steady.h"
#include "resultset/rset.h"
#include "report.h"

/*
 * One tracking variable.  The verdicts are recomputed from the stored
 * rounds with the file's rule (steady.h), so that a row's range, slope and
 * "steady" always belong to one window: `at_steady` is the window that
 * first met the rule (rounds first_steady_round - window + 1 to
 * first_steady_round), `last` the final window (the last `window` rounds),
 * which the results average.
 */
struct ssd_track {
	const char *label;     /* into the struct rset_steady */
	const double *values;  /* into the struct rset_steady: the value per round */
	size_t n;
	int first_steady_round; /* 1-based, recomputed; 0: never */
	struct steady_verdict at_steady; /* zeroed when never steady */
	struct steady_verdict last;
};

struct ssd_dev {
	size_t dev;            /* index into report.devs */
	struct rset_steady steady; /* owned, !present when the device ran no rounds:
				    * the metric, the rule, the rounds, the window */
	struct rset_precond pre;   /* owned, !present without preconditioning */
	struct steady_rule rule; /* steady's rule, as steady_judge() takes it */
	struct ssd_track *t;
	size_t nt;
};

/* One R/W mix x block size table of a device's random cells. */
#define SSD_PTS_MAX 16
struct ssd_pts {
	size_t dev;                 /* index into report.devs */
	int nmix, nbs;
	uint64_t mix[SSD_PTS_MAX];  /* read percent, descending */
	uint64_t bs[SSD_PTS_MAX];   /* bytes, descending */
	double iops[SSD_PTS_MAX][SSD_PTS_MAX]; /* NaN: not measured */
};

struct ssd_report {
	struct ssd_dev *d;
	size_t n;
	struct ssd_pts *pts;
	size_t npts;
};

/* What a steady-state metric ("iops", "bw_bytes_s", "lat_mean_ns") is
 * divided by for its tables and charts: MB/s, µs, IOPS. */
double ssd_metric_div(const char *metric);

/* Read the steady-state and preconditioning files of every device, add the
 * write-cliff sentences to the summary and the warnings.  0, or -1 on OOM. */
int ssd_report_load(struct report *r);
void ssd_report_release(struct report *r);

/* "1.71 GB", "855 MB": bytes in decimal units, 3 figures. */
void ssd_fmt_bytes(double b, char *buf, size_t len);
/* "preconditioning with 128K sequential writes" */
void ssd_pass_words(const struct rset_pass *pass, char *buf, size_t len);

#endif
