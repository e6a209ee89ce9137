/*
 * steady.h - the SNIA SSS PTS steady-state rule: over the last `window`
 * rounds (or repetitions), the range of a tracked value and the excursion of
 * its least-squares line must both stay within a share of the window average.
 *
 * Pure code, no IO: unit-tested on synthetic round series.
 */
#ifndef IOMATRIX_STEADY_H
#define IOMATRIX_STEADY_H

#include <stdbool.h>
#include <stddef.h>

/* PTS 2.0 defaults: 5-round window, range 20 %, slope 10 %, 25 rounds. */
#define STEADY_WINDOW_DEFAULT 5
#define STEADY_RANGE_DEFAULT 0.20
#define STEADY_SLOPE_DEFAULT 0.10
#define STEADY_MAX_DEFAULT 25

struct steady_rule {
	unsigned window;   /* rounds in the measurement window, >= 2 */
	double range_frac; /* max - min <= range_frac * window average */
	double slope_frac; /* |fit(last) - fit(first)| <= slope_frac * average */
	unsigned max;      /* stop after this many rounds, >= window */
};

/* Fill r with the PTS defaults above. */
void steady_rule_init(struct steady_rule *r);

struct steady_verdict {
	bool judged;       /* at least `window` values were given */
	bool steady;       /* judged, both limits hold and the average is > 0 */
	bool range_ok, slope_ok;
	double avg;        /* window average: the reported result */
	double range;      /* max - min over the window */
	double range_frac; /* range / avg (0 when avg is 0) */
	double slope;      /* least-squares slope, per round */
	double excursion;  /* slope * (window - 1): fit(last) - fit(first) */
	double slope_frac; /* |excursion| / avg (0 when avg is 0) */
};

/*
 * Judge the last r->window values of x[0..n) (one per round, oldest first).
 * With fewer values the verdict is not judged and avg covers what there is.
 * A window average of 0 (no IO in any tracked round) is never steady: the
 * limits are shares of the average and would be met by a dead device.
 */
void steady_judge(const double *x, size_t n, const struct steady_rule *r,
		  struct steady_verdict *v);

/*
 * The first round (1-based) at which the series x[0..n) is steady under r,
 * judging after every round as the runner does; 0 when it never is.
 */
size_t steady_first_round(const double *x, size_t n,
			  const struct steady_rule *r);

#endif
