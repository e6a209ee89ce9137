/*
 * sides.h - the numbers a verdict between two cells is made of: per
 * repetition IOPS, MB/s and mean latency of one cell (one "side"), and
 * which of them is a workload's primary metric.  Shared by compare and
 * reproduce's verdicts (repro.h).  Pure code over loaded cells, no IO.
 */
#ifndef IOMATRIX_SIDES_H
#define IOMATRIX_SIDES_H

#include <stddef.h>

#include "resultset/rset.h"

#define SIDE_MAX_REPS 256

enum metric { M_IOPS, M_MBS, M_LAT, M__N };
extern const char *const metric_names[M__N]; /* "IOPS" "MB/s" "mean latency" */

struct side {
	double v[SIDE_MAX_REPS];
	size_t n;
	double mean, sd;
};

/* Per repetition: IOPS and MB/s summed over directions, mean latency
 * weighted by IOs, into out[metric] with mean and sd.  Sets without
 * repetitions (some imports) give their summary mean as one value. */
void cell_sides(const struct rset_cell *c, struct side out[M__N]);
/* Mean latency for latency cells (label starting LAT), else MB/s or IOPS
 * as cell_judged_by_bw (suite/cell.h) says. */
enum metric primary_metric(const struct rset_cell *c);
/* The half-width of the 95 % confidence interval of s's mean (0 with fewer
 * than 2 values). */
double side_ci95(const struct side *s);

#endif
