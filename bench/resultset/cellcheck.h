/*
 * cellcheck.h - the one validator of a cell object (results/README.md,
 * "Cell file"), for every cell that crosses a trust boundary: read from
 * a set on disk (rset_load.c, resume), sent by a fleet agent in survey mode,
 * each host's part before an aggregate merge, and an imported cell
 * before it is written (import_cell_check).  Bounds on every
 * number: counts are integers below 2^64, rates and latencies finite and
 * not negative, a histogram is loglin64 with counts whose total does not
 * overflow, percentiles rise with the percentile and lie within the
 * latency's min and max, a summary's mean lies between its min and max and its IOPS
 * and bandwidth within what the repetitions measured; then the sums that
 * must agree do (cellsums.h: a histogram's total is its IO count, ...).
 */
#ifndef IOMATRIX_RESULTSET_CELLCHECK_H
#define IOMATRIX_RESULTSET_CELLCHECK_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Largest IOPS / bandwidth a cell may claim: 1e12 IO/s and 1e18 B/s are
 * far past any fleet of devices, and well inside a double's exact range
 * for the sums the report makes. */
#define CELLCHECK_MAX_IOPS 1e12
#define CELLCHECK_MAX_BW 1e18
/* Percentiles of one latency: the writers print at most REP_MAX_PCT. */
#define CELLCHECK_MAX_PCT 64
/* How far past [min, max] a percentile may lie: a histogram's value is its
 * bucket's midpoint (fio's and ours: 1/128 of the value at most), and
 * sysbench's buckets are 1.8 % wide and printed to 10 us; 1/32 and 10 us
 * hold all three, and a p1 of 1000 s beside a max of 3.4 ms stays out. */
#define CELLCHECK_PCT_SLACK (1.0 / 32)
#define CELLCHECK_PCT_SLACK_NS 10000.0
/* Repetitions in one cell (suite repeat <= 1000, times PTS rounds). */
#define CELLCHECK_MAX_REPS 100000

/*
 * Is cell (borrowed, unchanged) a cell this program could have written?
 * 0, or -1 with the first problem in why ("repetition 3: read: iops is
 * -5, not in [0, 1e12]").
 */
int cellcheck_cell(const cJSON *cell, char *why, size_t whylen);

/* One number outside a cell object, by the bounds above: what a derived
 * file (the archive's index, report/archive/archdb.h) says of a set's
 * numbers passes the rules the set's own passed. */
enum cellcheck_kind {
	CELLCHECK_COUNT,        /* a whole number in [0, 2^64) */
	CELLCHECK_IOPS,         /* [0, CELLCHECK_MAX_IOPS] */
	CELLCHECK_BW,           /* bytes/s, [0, CELLCHECK_MAX_BW] */
	CELLCHECK_LAT,          /* ns, [0, 2^64) */
	CELLCHECK_NONNEG,       /* [0, 2^64) */
	CELLCHECK_FINITE,       /* (-2^64, 2^64) */
};
/* 0, or -1 with why ("what is -inf, not in [0, 1e12]"). */
int cellcheck_value(enum cellcheck_kind kind, const char *what, double v, char *why,
		    size_t whylen);

#endif
