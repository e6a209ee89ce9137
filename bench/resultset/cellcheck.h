/*
 * cellcheck.h - the one validator of a cell object (results/README.md,
 * "Cell file"), for every cell that crosses a trust boundary: read from
 * a set on disk (rset.c, resume), sent by a fleet agent in survey mode,
 * and each host's part before an aggregate merge.  Bounds on every
 * number: counts are integers below 2^64, rates and latencies finite and
 * not negative, a histogram is loglin64 with counts whose total does not
 * overflow, a summary's mean lies between its min and max and its IOPS
 * and bandwidth within what the repetitions measured.
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
/* Repetitions in one cell (suite repeat <= 1000, times PTS rounds). */
#define CELLCHECK_MAX_REPS 100000

/*
 * Is cell (borrowed, unchanged) a cell this program could have written?
 * 0, or -1 with the first problem in why ("repetition 3: read: iops is
 * -5, not in [0, 1e12]").
 */
int cellcheck_cell(const cJSON *cell, char *why, size_t whylen);

#endif
