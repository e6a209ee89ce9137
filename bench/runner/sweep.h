/*
 * sweep.h - the load sweep of a cell: after the cell's own
 * repetitions, unthrottled, have measured its maximum, run it once at
 * each offered load of load_sweep, then bisect between the points around
 * the QoS target.  Each point is one rated repetition (runner_run_rep
 * with the point's rate), kept as a struct qos_point (stats/qos.h).
 */
#ifndef IOMATRIX_SWEEP_H
#define IOMATRIX_SWEEP_H

#include <stddef.h>

#include "runner.h"
#include "stats/qos.h"

/* Most points a sweep has: its steps plus the bisection's. */
#define SWEEP_MAX_POINTS (SWEEP_MAX_STEPS + QOS_BISECT_STEPS)

/* The probed maximum: the mean over the repetitions of the IOPS of every
 * direction together. */
double sweep_max_iops(const struct rep_result *reps, size_t n);

/* What one rated repetition says as a load point (offered: the total the
 * jobs were asked for). */
void sweep_point_of(const struct rep_result *r, double offered,
		    struct qos_point *p);

/* Run the sweep of c on the prepared target t after its probe, the
 * repetitions probe[0..nprobe): *max_iops gets the probed maximum
 * (sweep_max_iops), pts (room for SWEEP_MAX_POINTS) the points sorted by
 * offered load, *n their count.  0, or -errno with err filled in (-EINTR
 * when stopped: the points so far are kept in pts). */
int runner_sweep(const struct cell *c, const struct target *t, struct run_ctl *ctl,
		 const struct rep_result *probe, size_t nprobe, double *max_iops,
		 struct qos_point *pts, size_t *n, char *err, size_t errlen);

#endif
