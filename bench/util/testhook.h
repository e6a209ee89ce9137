/*
 * testhook.h - test hooks: named points in a run (a cell written, a round
 * recorded, an interval reached, an import cell written) where a test can
 * stop the process or pause it, instead of sleeping and hoping the run is
 * at the right place when the sleep ends.  Off (one getenv, then nothing)
 * unless the environment asks; not for users, not in --help.
 *
 * One variable holds every test-only setting, a list of items separated by
 * commas (no blanks; paths in it hold no comma):
 *
 *   IOMATRIX_TEST_HOOK=ITEM[,ITEM...]
 *
 *   EVENT:N[+][:ACTION]    at most one: act at the Nth EVENT
 *     EVENT   cell         the Nth cell file `run` wrote in this process
 *                          (SSD rounds: each round's rewrite counts)
 *             round        SSD rounds: round N recorded in steady/DEV.json
 *             interval     a repetition's job 0 completes its first IO at or
 *                          past N time-series intervals after the ramp (the
 *                          first repetition that gets there; with N+, every
 *                          repetition at N)
 *             import_cell  import: cell N written into the hidden temp set
 *             unpack_check unpack: member N checked (the first pass, which
 *                          writes nothing)
 *             unpack_file  unpack: file N written into the hidden temp set
 *             layout_chunk the layout of the file set wrote its Nth MiB
 *             wait         a repetition's job 0 is about to wait, the Nth
 *                          time, for a completion or a rated job's next
 *                          intended start (the run is in its IO: not in
 *                          a layout, a cooldown or its start)
 *             index_set    index: set N put into the index (in its
 *                          transaction, not committed)
 *             index_add    a command adding its set to the index holds the
 *                          write lock (report/archive/archdb.h)
 *             scratch_create  a scratch file was found missing, before
 *                          O_CREAT|O_EXCL makes it (the Nth time)
 *     ACTION  pause (default): write "EVENT N\n" into the FIFO named by
 *             fifo=PATH, then wait for one line back from it (the test
 *             acts in between: sends a signal, changes a limit)
 *             int | term | stop | kill: send that signal to this process
 *
 *   NAME=VALUE             a setting (testhook_value), read where it is used:
 *     fifo=PATH            the FIFO of a pause (tests/lib.sh: hook_wait,
 *                          hook_go)
 *     proc=DIR             read loadavg and stat from DIR instead of /proc
 *                          (bench/util/sysload.h): a test writes fake
 *                          readings, changing them while the run is paused;
 *                          drop_caches appends its "3" to DIR/sys/vm/
 *                          drop_caches (the runner) instead of dropping
 *                          the machine's page cache
 *     fleet_silence_ms=MS  a fleet host fails as lost after MS without a
 *                          word from its agent (FLEET_SILENCE_S, proto.h)
 *     fleet_line_ms=MS     a line from an agent must end within MS of its
 *                          first byte (FLEET_LINE_S, fleet_int.h)
 *     fleet_cell_ms=MS     a fleet cell must end within MS (else 3x its
 *                          estimate + 30 min)
 *     parse_only=1         a command prints what its option table parsed
 *                          and exits 0 before it does anything
 *                          (util/optspec.h): the tests of every option
 *     stop_log=PATH        `run` (and reproduce) appends "stopped_ms MS"
 *                          to PATH when it ends after SIGINT or SIGTERM:
 *                          the milliseconds from the signal to the end of
 *                          the command, on its own clock (a test of "a
 *                          stop within 1 s" that the test's own wake-ups
 *                          under load do not lengthen)
 *
 * e.g. IOMATRIX_TEST_HOOK=interval:1,fifo=$T/hook (pause one interval in)
 *      IOMATRIX_TEST_HOOK=cell:4:kill              (SIGKILL after cell 4)
 *      IOMATRIX_TEST_HOOK=fleet_line_ms=2500,fleet_cell_ms=2500
 *
 * A fleet's agents get the hook of their own environment: a test passes
 * --remote-iomatrix a wrapper script that sets it (per host if need be,
 * by $SSH_CONNECTION's port; tests/integration/fleet/fleet_fault_*.sh).
 *
 * The hook fires once per process; with N+ it fires at N and at every later
 * count (a pause each time, e.g. to change a limit after every round).
 * A malformed item is ignored with one line on stderr (a test that set it
 * then fails on what did not happen); so is an unknown setting's name.
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

/* The value of setting NAME (a name listed above), or NULL when the hook
 * does not set it.  The string lives as long as the process. */
const char *testhook_value(const char *name);

/* Setting NAME as milliseconds in [1, 1e9]; dflt when unset or not such a
 * number (one line on stderr then). */
long long testhook_ms(const char *name, long long dflt);

/* Append the formatted line to the file named by setting NAME (created
 * 0644, never through a link); nothing when the hook does not set it. */
void testhook_log(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
