/*
 * testhook.h - test hooks: named points in a run (a cell written, a round
 * recorded, an interval reached, an import cell written) where a test can
 * stop the process or pause it, instead of sleeping and hoping the run is
 * at the right place when the sleep ends.  Off (one getenv, then nothing)
 * unless the environment asks; not for users, not in --help.
 *
 *   IOMATRIX_TEST_HOOK=EVENT:N[+][:ACTION]
 *     EVENT   cell         the Nth cell file `run` wrote in this process
 *                          (SSD rounds: each round's rewrite counts)
 *             round        SSD rounds: round N recorded in steady/DEV.json
 *             interval     a repetition's job 0 completes its first IO at or
 *                          past N time-series intervals after the ramp (the
 *                          first repetition that gets there; with N+, every
 *                          repetition at N)
 *             import_cell  import: cell N written into the hidden temp set
 *             unpack_file  unpack: file N written into the hidden temp set
 *             layout_chunk the layout of the file set wrote its Nth MiB
 *     ACTION  pause (default): write "EVENT N\n" into the FIFO named by
 *             IOMATRIX_TEST_FIFO, then wait for one line back from it (the
 *             test acts in between: sends a signal, changes a limit)
 *             int | term | stop | kill: send that signal to this process
 *
 *   IOMATRIX_TEST_PROC=DIR  read loadavg and stat from DIR instead of /proc
 *                          (bench/util/sysload.h): a test writes fake
 *                          readings, changing them while the run is paused
 *
 * The hook fires once per process; with N+ it fires at N and at every later
 * count (a pause each time, e.g. to change a limit after every round).
 * A malformed value is ignored with one line on stderr (a test that set it
 * then fails on what did not happen).
 */
#ifndef IOMATRIX_TESTHOOK_H
#define IOMATRIX_TESTHOOK_H

/* Count one EVENT; act when the count reaches the armed N.  Thread-safe. */
void testhook_point(const char *event);

/* N when the hook is armed for EVENT (and has not fired), else 0: for
 * points the caller finds itself, such as an interval's time. */
unsigned long testhook_armed(const char *event);

/* Act now for EVENT at count n (the caller found the point itself); once,
 * unless armed with N+. */
void testhook_fire(const char *event, unsigned long n);

#endif
