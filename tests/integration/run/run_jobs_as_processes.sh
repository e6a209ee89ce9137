#!/bin/sh
# thread: false runs each job as a process of its own
# session, as fio's job processes are (with sched_autogroup each session
# is a scheduling group, so N job processes get N shares of a busy CPU
# where N threads of one process get one).  The cell is the same cell:
# exactly `requests` IOs over 3 jobs, every byte read is the file's
# (IOMATRIX_TRACE hashes), the time series (a write's fine samples too)
# and the CPU usage come back from the processes; strace sees one setsid per job; a job process that
# dies fails the cell with the signal instead of hanging the run; the
# report's Method and the exported fio job say how the jobs ran.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd python3
N=600
suite() { # NAME EXTRA
	cat >"$T/$1.yaml" <<Y
suite: t-jobs-processes
defaults: {engine: psync, direct: false, size: 4MiB, bs: 4k, keep_files: true $2}
devices:
  - {name: d, path: $T/f}
matrix: {pattern: [randread], jobs: [3]}
Y
}
suite p ", requests: $N, thread: false"
IOMATRIX_TRACE="$T/p.trace" expect_exit 0 "$IOMATRIX" run "$T/p.yaml" --out "$T/p" --quiet
c="$T/p/cells/0001.json"
[ "$(jq '.params.thread' "$c")" = false ] && ok "the cell records thread: false" \
	|| not_ok "params.thread: $(jq '.params.thread' "$c")"
[ "$(jq '.repetitions[0].read.ios' "$c")" = "$N" ] && ok "3 job processes moved exactly $N reads" \
	|| not_ok "reads: $(jq '.repetitions[0].read.ios' "$c")"
[ "$(jq '[.repetitions[0].read.series.ios[]?] | add' "$c")" = "$N" ] \
	&& ok "the time series came back from the processes" \
	|| not_ok "series: $(jq -c '.repetitions[0].read.series' "$c" | head -c 300)"
jq -e '.repetitions[0].cpu | .usr_pct + .sys_pct > 0 and .ns_per_io > 0' "$c" >/dev/null \
	&& ok "CPU usage of the job processes counted" \
	|| not_ok "cpu: $(jq -c '.repetitions[0].cpu' "$c")"
out=$(python3 - "$T/p.trace" "$T/f" "$N" <<'PY'
import sys
import functools
# a block read again (256 of them in 1 MiB) is hashed once: the byte loop
# is this check's cost
@functools.lru_cache(maxsize=None)
def fnv(b):
    h = 0xcbf29ce484222325
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
    return "%016x" % h
data = open(sys.argv[2], "rb").read()
n = bad = 0
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 7 and f[1] == "data":
        o, l = int(f[3]), int(f[4])
        n += 1
        bad += fnv(data[o:o + l]) != f[6]
print("%d of %d" % (bad, n))
sys.exit(1 if bad or n != int(sys.argv[3]) else 0)
PY
) && ok "every read returned the file's bytes (mismatches: $out)" || not_ok "trace: mismatches $out"
# a write's fine samples of its first seconds come back too
cat >"$T/w.yaml" <<Y
suite: t-jobs-processes
defaults: {engine: psync, direct: false, size: 4MiB, bs: 4k, keep_files: true,
           requests: $N, thread: false}
devices:
  - {name: d, path: $T/f}
matrix: {pattern: [randwrite], jobs: [3]}
Y
expect_exit 0 "$IOMATRIX" run "$T/w.yaml" --out "$T/w" --quiet
[ "$(jq '[.repetitions[0].write.series.fine.ios[]?] | add' "$T/w/cells/0001.json")" = "$N" ] \
	&& ok "a write's fine samples came back from the processes" \
	|| not_ok "fine: $(jq -c '.repetitions[0].write.series.fine' "$T/w/cells/0001.json" | head -c 300)"
# the default (threads) is unchanged and says so
suite t ", requests: $N"
expect_exit 0 "$IOMATRIX" run "$T/t.yaml" --out "$T/t" --quiet
jq -e '.params | has("thread") | not' "$T/t/cells/0001.json" >/dev/null \
	&& ok "a default cell does not write thread (sets stay as they were)" \
	|| not_ok "params: $(jq -c .params "$T/t/cells/0001.json")"
expect_exit 0 "$IOMATRIX" report "$T/p" "$T/t" -o "$T/r" --charts none --format md
grep -q '^| job model |' "$T/r/report.md" || grep -q 'what differs: .*job model' "$T/r/report.md" \
	&& ok "the report's Method tells the job models apart" \
	|| not_ok "method: $(grep -i 'job model\|what differs' "$T/r/report.md")"
expect_exit 0 "$IOMATRIX" export fio "$T/p.yaml" -o "$T/x"
grep -rq '^thread=0' "$T/x" && ok "the exported job asks fio for processes (thread=0)" \
	|| not_ok "export: $(cat "$T"/x/* | head -20)"
expect_exit 0 "$IOMATRIX" export fio "$T/t.yaml" -o "$T/xt"
grep -rq '^thread=1' "$T/xt" && ok "a default cell's exported job asks fio for threads (thread=1)" \
	|| not_ok "export of a default cell: $(cat "$T"/xt/* | head -20)"
# one session per job process
if command -v strace >/dev/null 2>&1; then
	# LeakSanitizer cannot run under ptrace (sanitizer builds)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o "$T/st" -e trace=setsid "$IOMATRIX" run "$T/p.yaml" --out "$T/p2" --quiet \
		>"$T/st.out" 2>&1
	n=$(grep -c 'setsid(' "$T/st")
	[ "$n" = 3 ] && ok "one setsid per job process (3)" \
		|| not_ok "setsid calls: $n: $(head -c 600 "$T/st") $(head -c 300 "$T/st.out")"
else
	ok "setsid per job # SKIP strace not installed"
fi
# a job process killed mid-run: the cell fails naming it, the run ends
suite k ", thread: false, runtime: 20s"
IOMATRIX_TEST_HOOK=interval:1:kill timeout 15 "$IOMATRIX" run "$T/k.yaml" --out "$T/k" --quiet \
	>/dev/null 2>"$T/k.err"
rc=$?
[ "$rc" != 124 ] && ok "the run ended (exit $rc)" || not_ok "the run hung until timeout"
grep -q "process was killed by signal 9" "$T/k.err" "$T"/k/cells/*.json 2>/dev/null \
	&& ok "the cell says the job process was killed" \
	|| not_ok "no word of the killed job: $(cat "$T/k.err" | head -5)"
tap_end
