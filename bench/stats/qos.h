/*
 * qos.h - latency under load, the pure part: the schedule of
 * intended start times a rate-limited job keeps (rate_iops,
 * rate_process), the load sweep's settings and points, the knee of the
 * response-latency curve and the QoS target ("sustains N IOPS with p99 <=
 * 1 ms").  No IO, no clock: the runner feeds it times and the report
 * feeds it points, and unit tests feed it synthetic curves.
 */
#ifndef IOMATRIX_QOS_H
#define IOMATRIX_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prng.h"

/* ---- the rate: rate_iops and rate_process (cell keys) ---- */

enum rate_process { RATE_LINEAR, RATE_POISSON };

/* rate_iops as fio writes it: one value for both directions, or
 * [read, write].  0: no rate.  A job issues rate_job_iops() IOs a second. */
struct cell_rate {
	uint64_t iops[2];   /* read, write; both 0: none */
	bool pair;          /* given as [read, write] */
};

/* IOs per second one job of a pattern that reads and/or writes is to
 * issue: the direction it does, or for a mixed pattern the sum of the
 * pair (one value: that value in total, split by rwmixread). */
uint64_t rate_job_iops(const struct cell_rate *r, bool reads, bool writes);

/*
 * The intended start times of one job: linear spaces them exactly 1/rate
 * apart; poisson draws exponential gaps of mean 1/rate (seeded, so a rerun
 * offers the same arrivals).  The times are kept however late the job
 * runs: a job behind schedule issues at once and the response latency of
 * each IO counts from its own intended start (no coordinated omission).
 */
struct rate_gen {
	uint64_t next_ns;      /* intended start of the next IO */
	double period_ns;      /* mean gap */
	double carry;          /* fraction of a ns not yet added (linear) */
	bool poisson;
	struct prng rng;
};
void rate_gen_init(struct rate_gen *g, uint64_t start_ns, double iops,
		   enum rate_process p, uint64_t seed);
/* The intended start of the next IO; advances the schedule. */
uint64_t rate_gen_take(struct rate_gen *g);

/* ---- the sweep: load_sweep and qos (cell keys) ---- */

#define SWEEP_MAX_STEPS 100
#define SWEEP_MAX_IOPS 32

/* load_sweep: steps points from from_pct to to_pct of the probed maximum,
 * or the absolute offered loads iops[] (niops of them, at most
 * SWEEP_MAX_IOPS).  steps 0 and niops 0: no sweep.  iops is interned
 * (util/intern.h) where a cell holds it, so that a cell stays small and
 * equal sweeps compare equal as bytes. */
struct load_sweep {
	double from_pct, to_pct;
	unsigned steps;
	unsigned niops;
	const uint64_t *iops;
};
bool load_sweep_on(const struct load_sweep *s);

enum qos_metric { QOS_NONE, QOS_MEAN, QOS_P99, QOS_P999, QOS_P9999 };
/* qos: the response latency the load must keep (one metric). */
struct qos_target {
	enum qos_metric metric;
	uint64_t target_ns;
};
/* "p99", "p99.9", "p99.99", "mean"; "" for QOS_NONE */
const char *qos_metric_name(enum qos_metric m);
/* the percentile of a metric (99, 99.9, 99.99), 0 for mean */
double qos_metric_pct(enum qos_metric m);
/* parse a metric name; -1 unknown */
int qos_metric_parse(const char *s, enum qos_metric *out);

/* One load point: what was offered, what the device did, the response
 * latency (intended start to completion) and the service latency (submit
 * to completion), ns. */
struct qos_point {
	double offered_iops, achieved_iops;
	double p50_ns, p99_ns, p999_ns, p9999_ns, mean_ns;
	double svc_p50_ns, svc_p99_ns, svc_p999_ns, svc_mean_ns;
	bool refined;          /* added by the bisection, not a sweep point */
	/* the response p99 of each interval of the point's repetition (its
	 * series.hist, directions summed): how many intervals had IO, and the
	 * least and the most of their p99s; iv_n 0 when not known */
	unsigned iv_n;
	double iv_p99_min_ns, iv_p99_max_ns;
};

/* The offered load (total IOPS of the cell) of sweep point i of n, given
 * the probed maximum. */
double sweep_offered(const struct load_sweep *s, unsigned i, double max_iops);
unsigned sweep_npoints(const struct load_sweep *s);

/*
 * The knee: the first point (in offered order) from which the response
 * p99 stays above QOS_KNEE_K times its low-load level at every higher load
 * (one spike below it, a busy machine's, is not the knee), and never below
 * the load the points sustain at the target (t, may be NULL or QOS_NONE:
 * no such bound), where the two would contradict each other.  The
 * low-load level (qos_low_p99) is the least p99 of the lower half of the
 * loads that another of them confirms, within QOS_LOW_CONFIRM of it: one
 * quiet point is not the level (in 2 of 12 sweeps of a
 * 2,000-IOPS throttle one low load's p99 of 0.2 ms put the knee at 54-75 %
 * of the maximum, below the load the same report sustained at p99
 * <= 5 ms), nor one stalled run at the lowest load; when no two agree,
 * their median.  Why k = 3: at low load p99 is the device's service time
 * plus little queueing; in an M/M/1 queue the response time is
 * S / (1 - rho), which triples at rho = 2/3, the load from which waiting
 * outweighs service.  A smaller k (2) would let one noisy point of a busy
 * machine pass for the knee; a larger one marks it where the curve is
 * already vertical.  -1: no knee (or fewer than 2 points).  pts must be
 * sorted by offered_iops.
 */
#define QOS_KNEE_K 3.0
/* Two low loads whose p99 lie within this factor confirm each other: in
 * an M/M/1 queue the p99 at 20, 40, 60 and 80 % load lie 1.33x, 1.5x
 * and 2x apart, so one load of such a sweep lost to a spike still leaves
 * the next to confirm the lowest; a quiet point of 0.2 ms lies 3x or more
 * below a throttled device's low-load level of 0.6-1 ms. */
#define QOS_LOW_CONFIRM 2.0
#define QOS_LOW_MAX 64     /* low loads looked at, at most */
int qos_knee(const struct qos_point *pts, size_t n, double k,
	     const struct qos_target *t);
/* The low-load level of response p99 (see qos_knee), of pts sorted by
 * offered_iops; 0 when none. */
double qos_low_p99(const struct qos_point *pts, size_t n);

/* A point keeps up when it achieved at least this share of its offered
 * load: beyond it the queue grows for as long as the run lasts. */
#define QOS_KEEPS_UP 0.9
/* The metric of the target at point p (ns). */
double qos_point_value(const struct qos_point *p, enum qos_metric m);
/* Does p meet the target and keep up with its offered load? */
bool qos_meets(const struct qos_point *p, const struct qos_target *t);

/* What the points say about a target.  A device sustains the highest
 * achieved load of the points that meet the target and keep up
 * (qos_meets): a noisy point below it that misses the target does not
 * hide it (docs/qos.md).  The same rule writes the cell file's verdict,
 * picks where the runner bisects and makes the report's sentence. */
struct qos_verdict {
	bool met;              /* some point meets it */
	double sustained_iops; /* met: the highest achieved IOPS of those */
	int best;              /* met: that point; else the lowest value's */
	double lowest_ns;      /* !met: the lowest value of the metric */
};
/* pts sorted by offered_iops; n may be 0 (not met, best -1). */
void qos_judge(const struct qos_point *pts, size_t n, const struct qos_target *t,
	       struct qos_verdict *v);

/* Bisection around the sustained load: the offered load to try next,
 * halfway between the point qos_judge sustains and the next one above it
 * in offered load, when that one does not meet the target; 0 when there is
 * no such pair or they are within QOS_BISECT_TOL of each other.  pts sorted
 * by offered_iops. */
#define QOS_BISECT_STEPS 3
#define QOS_BISECT_TOL 0.02
double qos_bisect_next(const struct qos_point *pts, size_t n,
		       const struct qos_target *t);

/* Sort points by offered load (insertion sort: a sweep has few). */
void qos_points_sort(struct qos_point *pts, size_t n);

#endif
