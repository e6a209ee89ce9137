/*
 * plateau.h - the plateaus of a per-interval bandwidth series (an SSD's SLC
 * cache, its direct-to-TLC speed, its folding speed) and the one rule that
 * may call the last of them a write cliff.
 *
 * Pure code, no IO: unit-tested on synthetic series (tests/unit/
 * test_plateau.c), 10,000 trials per property.
 *
 * Method, in the log domain (performance noise is multiplicative, so a
 * 1,700 MB/s plateau and a 150 MB/s one get the same relative yardstick):
 *  0. the window: where the series stalls (an interval below PLATEAU_STALL
 *     of the median) only for runs of at most PLATEAU_WINDOW_MAX - 1
 *     intervals, the fit judges the means of windows of 1 + the longest
 *     such run, the last window taking the intervals left over.  A device
 *     that dispatches in slices (blk-throttle: 100 ms, the bytes of an
 *     empty interval arriving in the next) makes 100 ms samples of 0, 16
 *     and 32 MiB/s around a level of 16; in the log domain those read as
 *     noise wide enough to hold both levels of a 40 -> 16 MiB/s cliff
 *     ("one level throughout"), while pairs of intervals show 40 and 16.
 *     A longer stall is a stall, and the window stays one interval.  The
 *     plateaus' first, end and durations are in intervals whatever the
 *     window;
 *  1. binary segmentation of y = log(max(x, PLATEAU_FLOOR * median)) with a
 *     penalised least-squares cost: a split is kept when it lowers the
 *     squared error by more than PLATEAU_PENALTY * sigma^2 * log(n), sigma
 *     the robust noise of y (MAD of first differences / sqrt 2): BIC-like,
 *     O(n log n) through prefix sums;
 *  2. neighbours whose levels do not differ by PLATEAU_MIN_STEP, or whose
 *     difference is not PLATEAU_MERGE_T standard errors of their own
 *     noise (with the lag-1 autocorrelation of the residuals shrinking the
 *     sample to its effective size), are merged, least distinct first;
 *     segments shorter than PLATEAU_MIN_SAMPLES are absorbed by the closer
 *     neighbour (a stall is a stall, not a plateau);
 *  3. each plateau's level is the median of its intervals, leaving out the
 *     interval on either side of a change (it straddles both levels).
 *
 * A cliff is claimed only when every one of these holds (plateau_fit sets
 * why_not to the first that fails).  "Held" means lasted at least
 * max(PLATEAU_CLIFF_MIN_LAST_S, PLATEAU_CLIFF_MIN_LAST_FRAC of the run):
 *  - the device is not RAM-backed;
 *  - the run lasted at least PLATEAU_CLIFF_MIN_RUN_S and has at least
 *    2 * PLATEAU_MIN_SAMPLES intervals;
 *  - the lower level is the last plateau, with the plateaus just before it
 *    within PLATEAU_SAME_LEVEL of its level (a slower tail after a low
 *    level that holds, shorter than the rule asks and at most half the
 *    plateau before it, is left out: it neither makes a cliff nor hides
 *    one);
 *  - the reference is the first plateau, or the highest plateau before the
 *    lower level that held, when that one is higher: a short first
 *    plateau is not the only yardstick (0.3 s at 3.1 GB/s before a page
 *    cache stall, then 1.8 s at 4.9 GB/s, then 21 MB/s to the end: the
 *    cliff is from 4.9 GB/s at 2.5 s);
 *  - some plateau after the reference is at least PLATEAU_CLIFF_MIN_DROP
 *    below it; the speed recovered (no cliff) only when, after a low
 *    stretch that held, a plateau comes back to within
 *    PLATEAU_CLIFF_RECOVERY of the reference: a dip too short to hold is
 *    not the low level;
 *  - the lower level is PLATEAU_CLIFF_MIN_DROP below the reference, the
 *    first plateau and every plateau before the cliff that held (a run
 *    that ends at the level it began at had a burst in between, not a
 *    cliff), and it held: a writeback stall in the last second is never a
 *    cliff;
 *  - the drop from the reference to the lower level is at least
 *    PLATEAU_CLIFF_T standard errors, each plateau with its own noise
 *    (Welch: a steady cache before a noisy lower level) and its effective
 *    sample size, a stricter bar than the merge's because the split points
 *    were chosen to make it large.  The cliff is where the low stretch
 *    that ends in the lower level begins.
 *
 * Measured on 10,000 synthetic series each (test_plateau.c): false cliffs
 * on stationary noise of CV 30 % at most 0.1 % (10 to 600 intervals), and
 * at most 0.6 % on AR(1) noise (phi 0.5; phi 0.8 from 60 intervals on:
 * 0.53 %); 20 intervals of phi-0.8 noise, about 2 independent samples,
 * still give 2.6 %.  A 50 % step of 6 + 6 intervals at CV 10 % is found in 98.5 %,
 * and 1.1 s of a steady level, then 3 s at 39 % of it with log-normal
 * noise of sigma 0.4, in 97.4 %.
 */
#ifndef IOMATRIX_PLATEAU_H
#define IOMATRIX_PLATEAU_H

#include <stdbool.h>
#include <stddef.h>

#define PLATEAU_MAX 8              /* plateaus reported; more are merged */
#define PLATEAU_MIN_SAMPLES 3      /* intervals a plateau holds at least */
#define PLATEAU_FLOOR 0.01         /* log floor: 1 % of the median (stalls) */
#define PLATEAU_PENALTY 3.0        /* BIC-like split penalty, x sigma^2 log n */
#define PLATEAU_MIN_STEP 0.15      /* neighbours differ by >= 15 % */
#define PLATEAU_MERGE_T 4.0        /* ... and by >= 4 standard errors */
#define PLATEAU_CLIFF_MIN_DROP 0.30   /* the last level >= 30 % below the first */
#define PLATEAU_CLIFF_RECOVERY 0.15   /* back within 15 % of the first: recovered */
#define PLATEAU_CLIFF_MIN_LAST_S 1.0  /* the lower level lasts >= 1 s ... */
#define PLATEAU_CLIFF_MIN_LAST_FRAC 0.20 /* ... and >= 20 % of the run */
#define PLATEAU_SAME_LEVEL 0.10       /* plateaus this close to the last are its level */
#define PLATEAU_CLIFF_MIN_RUN_S 2.0   /* shorter runs never show a cliff */
#define PLATEAU_CLIFF_T 7.0        /* drop >= 7 standard errors */
#define PLATEAU_HEAD_MIN_S 0.10    /* a head plateau lasts >= 100 ms */
#define PLATEAU_STALL 0.10         /* a stall: an interval below 10 % of the median */
#define PLATEAU_WINDOW_MAX 3       /* intervals a window of the fit holds at most */

struct plateau {
	size_t first, end;  /* intervals [first, end); a head plateau (below)
			     * holds no whole coarse interval: 0, 0 */
	double level;       /* median of its intervals, transitions left out */
	double start_s;     /* first * interval */
	double dur_s;       /* (end - first) * interval */
	double bytes;       /* sum of x * interval over [first, end) */
};

struct plateaus {
	size_t n;                       /* plateaus found (0 when too few samples) */
	struct plateau p[PLATEAU_MAX];
	double sigma;                   /* noise within plateaus, log domain */
	double rho;                     /* lag-1 autocorrelation of the residuals */
	bool cliff;                     /* the rule above holds */
	size_t cliff_at;                /* with cliff: first plateau of the drop */
	size_t low;                     /* with cliff: the lower level's plateau
					 * (the last, or the one before a
					 * slower tail: plateau_levels_rule) */
	size_t ref;                     /* with cliff: the reference plateau
					 * (the first, or a higher one that
					 * held) */
	double drop;                    /* 1 - lower level / reference (>= 0) */
	double t;                       /* the drop in standard errors */
	const char *why_not;            /* without cliff: the rule that failed */
	bool head;                      /* p[0] was found in the fine samples
					 * (plateau_fit_head) */
	size_t window;                  /* intervals a window of the fit held
					 * (plateau_window); first, end and the
					 * durations are in intervals all the
					 * same */
};

/*
 * Find the plateaus of x[0..n), one sample per interval_s seconds (x in
 * bytes/s, >= 0), and decide whether the series shows a write cliff.  ram:
 * the device is RAM-backed (never a cliff).  Returns 0, or -1 on OOM (out
 * is then empty).  No allocation survives the call.
 */
int plateau_fit(const double *x, size_t n, double interval_s, bool ram,
		struct plateaus *out);

/* The intervals the fit judges as one (step 0 of the method above): 1, or
 * 1 + the longest run of stalls when that is at most PLATEAU_WINDOW_MAX - 1
 * and 2 * PLATEAU_MIN_SAMPLES windows remain. */
size_t plateau_window(const double *x, size_t n);

/* plateau_fit of a head's fine samples (plateau_fit_head): the lower level
 * is the last plateau alone, as short as the head window makes it (merging
 * a level the fit cut in two there would let a throttle's 60 ms burst at
 * the start pass for a cache). */
int plateau_fit_fine(const double *x, size_t n, double interval_s,
		     struct plateaus *out);

/* The level part of the cliff rule above, on plateaus p (at least one)
 * of a run of run_s seconds; without merge_low the lower level is the last
 * plateau alone, and no slower tail is left out.  NULL when met
 * (*cliff_at: the first plateau of the low stretch; *low_at and *ref_at,
 * each if not NULL: the lower level's plateau and the reference's), else
 * the reason.  The noise test and the run-length and RAM rules are the
 * caller's (plateau_fit, plateau_fit_head). */
const char *plateau_levels_rule(const struct plateaus *p, double run_s,
				bool merge_low, size_t *cliff_at, size_t *low_at,
				size_t *ref_at);

/*
 * As plateau_fit(), and then the fine samples of the start (fine[0..nf),
 * fine_s seconds each, e.g. 20 ms over the first 2 s: SERIES_FINE_NS) are
 * searched for a cache that ran out before the coarse fit can see it (a
 * plateau needs PLATEAU_MIN_SAMPLES coarse intervals: 0.3 s at 100 ms).
 * A head shorter than PLATEAU_HEAD_MIN_S is no cache: blk-throttle lets
 * up to a slice (100 ms) through at the device's own speed before its
 * limit holds (a CI run: 60 ms at 125 MiB/s before 40), and that start
 * burst made a cliff at 0.06 s where the limit fell at 1 s.
 * The fine samples are fitted on their own; when they show a cliff by the
 * rule above (a first plateau, then a level at least 30 % lower that
 * lasts at least 1 s to the end of the fine window, PLATEAU_CLIFF_T
 * standard errors apart), that first plateau is shorter than
 * PLATEAU_MIN_SAMPLES coarse intervals, and the coarse fit's first level
 * lies PLATEAU_MIN_STEP below it (the coarse fit folded it into the next
 * level), it becomes the head plateau p[0] (head true, start 0, its
 * length and bytes from the fine samples), the coarse first plateau
 * starts where it ends, and the cliff rule is judged again from the head:
 * the last level 30 % below the head's, no recovery to within 15 % of it,
 * lasting max(1 s, 20 % of the run), a run of at least 2 s, not RAM; the
 * drop's t is the fine fit's.  Otherwise the coarse result stands.
 * Measured (test_plateau_head.c, 2,000 trials each): a 0.3 s cache in 1 s
 * intervals and a 0.16 s one in 100 ms are found in 100 % (the coarse fit
 * alone: 0 %), the head's level within 5 % and its length within one fine
 * interval in >= 96 %; false cliffs 0 on stationary noise of CV 30 %, and
 * at most 0.4 % on AR(1) noise of phi 0.8 (5,000 trials, fine CV 50 %).
 * 0, or -1 on OOM.
 */
int plateau_fit_head(const double *x, size_t n, double interval_s,
		     const double *fine, size_t nf, double fine_s, bool ram,
		     struct plateaus *out);

#endif
