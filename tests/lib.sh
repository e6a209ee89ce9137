# Sourced by integration tests.  Each test is one script about one behaviour:
# exit 0 pass, 1 fail, 77 skip (say why).  It may print TAP lines
# ("ok - name" / "not ok - name") when it checks several cases.
set -u
: "${IOMATRIX:=$PWD/iomatrix}"
# ROOT: the checkout, the first directory above the script that holds the
# Makefile and tests/lib.sh (so a script may sit at any depth under
# tests/integration/; today tests/integration/AREA/NAME.sh)
ROOT=$(d=$(cd "$(dirname "$0")" 2>/dev/null && pwd) || d=$PWD
	while [ "$d" != / ] && ! { [ -f "$d/Makefile" ] && [ -f "$d/tests/lib.sh" ]; }; do
		d=$(dirname "$d")
	done
	[ "$d" != / ] && echo "$d")
[ -n "$ROOT" ] || { echo "lib.sh: no checkout (Makefile and tests/lib.sh) above $0" >&2; exit 1; }
# tests/run.sh gives each test its own TMPDIR (short: device names made
# from $T must stay under the name cap); alone, /tmp
if [ -n "${TMPDIR:-}" ]; then T=$(mktemp -d "$TMPDIR/it.XXXXXX")
else T=$(mktemp -d /tmp/iomatrix-it.XXXXXX); fi
trap 'rm -rf "$T"' EXIT INT TERM
# tmpfs_T: $T moves to a tmpfs (/dev/shm, when it is one), for a test that
# makes and removes thousands of files and is about none of a filesystem's
# behaviour: on this VM's ext4 /tmp that is kernel CPU (inode allocation),
# ten times less on tmpfs.  Call it before anything is made in $T; the
# trap above removes the new $T.
tmpfs_T() {
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || return 0
	_t=$(mktemp -d /dev/shm/iomatrix-it.XXXXXX) || return 0
	if rmdir "$T" 2>/dev/null; then T=$_t; else rmdir "$_t"; fi
}

# fio runs in $T: an exported job writes its latency histogram log
# (write_hist_log, bench/export) in the directory fio runs in, and the
# tests run in the checkout
fio() { (cd "$T" && command fio "$@"); }

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "'$1' not installed"; }

# expect_exit CODE CMD... : run, keep stdout in $T/out and stderr in $T/err
expect_exit() {
	want=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "command: $*" >&2
		echo "--- stdout" >&2; tail -n 20 "$T/out" >&2
		echo "--- stderr" >&2; tail -n 20 "$T/err" >&2
		fail "exit $got, expected $want"
	fi
}
# TAP helpers for scripts with several cases
tap_n=0; tap_failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=1; echo "not ok $tap_n - $*"; }
tap_end() { [ "$tap_failed" = 0 ]; exit $?; }
# competed SET...: prints how many repetitions of the sets' cells other
# work competed with for the CPUs (host_load.competed, bench/util/sysload.h)
competed() {
	for s in "$@"; do cat "$s"/cells/*.json; done |
		jq -s '[.[].repetitions[]? | select(.host_load.competed)] | length'
}
# tap_lines FILE: count FILE's "ok ..." and "not ok ..." lines (a python
# judge's verdicts) as this script's own TAP cases; other lines are left.
tap_lines() {
	while read -r l; do
		case $l in
		"ok "*) ok "${l#ok }" ;;
		"not ok "*) not_ok "${l#not ok }" ;;
		esac
	done <"$1"
}

# The pause of the test hooks (bench/util/testhook.h): hook_wait FIFO
# prints the line of a run paused at IOMATRIX_TEST_HOOK, hook_go FIFO lets
# it go on.  Each gives up after 30 s (a hang guard for a binary that never
# pauses, which the test then reports; not a timing).
hook_wait() { timeout 30 sh -c 'read -r l <"$1" && echo "$l"' _ "$1"; }
hook_go() { timeout 30 sh -c 'echo go >"$1"' _ "$1"; }

# A stop on time (DESIGN.md: Ctrl-C honoured within 1 s, whatever the
# keys).  sigint_in_io PID FIFO: the run PID, started with
# IOMATRIX_TEST_HOOK=wait:1,fifo=FIFO,stop_log=LOG, pauses as job 0 first
# waits for its IO; let it go on, send SIGINT 0.5 s later (so the signal
# lands in its IO whatever the machine's load), wait for it: its exit code
# in $rc.  Returns 1 (the run killed) when it never waited for IO.
# stop_ms LOG prints the milliseconds from its signal to its end by the
# run's own clock (the test's late wake-ups are not in them);
# stop_in_time MS: they are under the 1 s promised (the one wall-time
# bound the tests assert: it is the design's promise).
sigint_in_io() {
	line=$(hook_wait "$2")
	if [ "$line" != "wait 1" ]; then
		kill -KILL "$1" 2>/dev/null; wait "$1"; rc=$?
		return 1
	fi
	hook_go "$2"
	sleep 0.5
	kill -INT "$1"
	wait "$1"; rc=$?
}
stop_ms() { sed -n 's/^stopped_ms //p' "$1"; }
stop_in_time() { [ -n "$1" ] && awk -v m="$1" 'BEGIN { exit !(m < 1000) }'; }

# JQ_AGREE: jq definitions for a test that forges a cell's numbers, so
# that they still agree as a run's do (a reader refuses a cell whose sums
# disagree: bench/resultset/cellsums.h).  Put "$JQ_AGREE" before the
# filter that uses them:
#   stat             a list of numbers as a summary's metric (n, mean,
#                    stddev, min, max, cv, ci95 with Student's t, n <= 10)
#   rates($k)        a direction's iops and bw_bytes_s times k (bandwidth
#                    follows IOPS: the bytes of one IO stay bs)
#   iops_to($v)      a direction's iops set to v, bw_bytes_s with it
#   totals($rt)      a direction's ios, bytes, histogram (its first bucket
#                    holds them all), iops and bw_bytes_s from its series,
#                    over RT ns
#   resummary        the summary's iops and bw_bytes_s from the repetitions
JQ_AGREE='def stat: length as $n | (add / $n) as $m |
	(if $n > 1 then (map((. - $m) * (. - $m)) | add / ($n - 1) | sqrt) else 0 end) as $sd |
	{n: $n, mean: $m, stddev: $sd, min: min, max: max, cv: (if $m > 0 then $sd / $m else 0 end),
	 ci95: (if $n > 1 then [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262][$n - 2]
		* $sd / ($n | sqrt) else 0 end)};
def rates($k): .iops *= $k | .bw_bytes_s *= $k;
def iops_to($v): .bw_bytes_s = (if .ios > 0 then $v * .bytes / .ios else 0 end) | .iops = $v;
def totals($rt): .ios = (.series.ios | add) | .bytes = (.series.bytes | add) |
	.hist.buckets = [[.hist.buckets[0][0], .ios]] |
	.iops = .ios / ($rt / 1e9) | .bw_bytes_s = .bytes / ($rt / 1e9);
def resummary: reduce ("read", "write") as $d (.;
	if .summary[$d] then
		.summary[$d].iops = ([.repetitions[][$d].iops | numbers] | stat) |
		.summary[$d].bw_bytes_s = ([.repetitions[][$d].bw_bytes_s | numbers] | stat)
	else . end);'

# test_lock NAME: hold a machine-wide lock until the script exits, for a
# resource that a test on another run (or another worktree) could share:
# a fixed device (zram0), the swap list.  Tests run in parallel
# (tests/run.sh); this is how two never use one such resource at once.
test_lock() {
	exec 8>"/tmp/iomatrix-test-lock.$1" || fail "cannot open the lock for $1"
	flock 8 || fail "cannot take the lock for $1"
}

# model_device_stalled SET IOPS: the model engine (one IO at a time) is a
# device of IOPS = 1 / model_latency only while the job is woken within
# iodepth x latency (its queue); a machine that stalls the job longer
# (a sanitizer build at load 16-19 on 2 CPUs did: a 100 ms repetition made
# 850 of 1,000 IOPS) measures itself.  Prints why, for a skip, when a
# repetition of SET fell more than 10 % short of IOPS; prints nothing else.
# (Not 5 %: a 100 ms repetition loses a few ms to its start on a machine
# running the suite, 943 of 1,000, which the verdicts' 10 % absorb.)
model_device_stalled() {
	python3 - "$1" "$2" <<'EOP'
import glob, json, sys
want, worst = float(sys.argv[2]), None
for f in sorted(glob.glob(sys.argv[1] + "/cells/*.json")):
    for r in json.load(open(f)).get("repetitions", []):
        for d in ("read", "write"):
            v = (r.get(d) or {}).get("iops") or 0
            if v and (worst is None or v < worst):
                worst = v
if worst is not None and worst < 0.90 * want:
    print("a repetition of %s made %.0f IOPS on a stand-in device of %.0f: "
          "the machine stalled the job longer than its queue lasts"
          % (sys.argv[1].rstrip("/").rsplit("/", 1)[-1], worst, want))
EOP
}
