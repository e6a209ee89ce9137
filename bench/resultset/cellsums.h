/*
 * cellsums.h - a cell's numbers agree with each other (cellcheck.h checks
 * each number alone): a repetition that claims ios 1000000 while its
 * histogram holds 1,500 IOs is a forged or broken cell, not a measurement.
 * Called by cellcheck_cell, so every cell that crosses a trust boundary
 * (a set on disk, an agent's cell, an import before it is written) passes.
 *
 * Per repetition and direction:
 *   - the histogram's total is ios (every source that writes one: the
 *     runner, fio's json+ bins, which fio 3.33 counts per completion as it
 *     counts total_ios: tests/data/fio);
 *   - the series' ios and bytes add up to ios and bytes (every IO is in
 *     the coarse series, stats.h);
 *   - in a cell iomatrix measured or a CSV import (no "source" in the
 *     cell): bytes is ios x bs, and bandwidth / IOPS is bytes / ios (both
 *     rates are over one window).  Imports of fio and sysbench keep their
 *     tool's own numbers, which disagree in known ways (fio 2.x prints
 *     bandwidth in KiB/s, sysbench rounds MiB/s), so these two are left out.
 * And the summary of a cell whose status is ok and whose repetitions were
 * read (rset_load_summaries leaves them out: an empty list): its n repetitions are the last n
 * (every one; a steady_state cell's window), each has the direction, and
 * each rate's mean is theirs.
 *
 * An aggregate's "all" cell (host "all") is the ranks' sum over their
 * common window, with the ranks' whole histograms merged: it has no sums
 * of its own to agree with, and is left out.
 */
#ifndef IOMATRIX_RESULTSET_CELLSUMS_H
#define IOMATRIX_RESULTSET_CELLSUMS_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Relative slack of the rate checks: the rates are doubles printed with 17
 * digits (cJSON), so they agree to 1e-15; 1e-6 leaves room for a writer
 * that rounds and none for a changed number. */
#define CELLSUMS_REL 1e-6

/* 0 when cell's numbers agree, or -1 with the first disagreement in why
 * ("repetition 1: read: the histogram holds 1500 IOs, ios says 1000000").
 * cell has passed cellcheck's bounds (counts are integers below 2^64). */
int cellsums_check(const cJSON *cell, char *why, size_t whylen);

#endif
