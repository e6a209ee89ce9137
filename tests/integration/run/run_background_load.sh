#!/bin/sh
# Background load: every repetition records the load
# average and the CPU time of all CPUs before and after (host_load), and
# the report warns, naming the cells, when other work competed (at least
# 0.5 CPUs busy outside iomatrix, or 10 % steal, over a repetition).
#  - a real CPU hog (a shell loop the test starts and kills) during a cell;
#  - fake /proc files (the test hook's proc=DIR), changed while the run is paused
#    at its first 100 ms interval: busy ticks give the warning, idle ticks
#    do not;
#  - a set from before host_load says nothing.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/d"
suite() { # name
	cat >"$T/$1.yaml" <<EOS
suite: $1
defaults: {engine: "null", size: 4MiB, runtime: 300ms}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
}
suite hog
sh -c 'while :; do :; done' &
HOG=$!
"$IOMATRIX" run "$T/hog.yaml" --out "$T/hog" --quiet >"$T/out" 2>"$T/err"
rc=$?
kill "$HOG"
[ $rc = 0 ] || fail "run with the hog: exit $rc: $(cat "$T/err")"
C="$T/hog/cells/0001.json"
jq -e '.repetitions[0].host_load | (.loadavg_before|length) == 3 and
	(.loadavg_after|length) == 3 and .cpus >= 1 and .cpu_busy_pct >= 0 and
	.cpu_iowait_pct >= 0 and .cpu_steal_pct >= 0 and .own_cpu_pct >= 0' "$C" >/dev/null \
	&& ok "the cell file records load average and CPU busy/iowait/steal" \
	|| not_ok "host_load: $(jq -c '.repetitions[0].host_load' "$C")"
jq -e '.repetitions[0].host_load | .other_busy_cpus >= 0.5 and .competed' "$C" >/dev/null \
	&& ok "a CPU hog counts as other work" \
	|| not_ok "hog not seen: $(jq -c '.repetitions[0].host_load' "$C")"
expect_exit 0 "$IOMATRIX" report "$T/hog" -o "$T/rh" --charts none --format md
grep -q "disk: other work competed for the CPU during 1 cell (RND4K Q1T1 randread)" "$T/rh/report.md" \
	&& ok "the report warns and names the cell" || not_ok "no warning: $(grep -i compet "$T/rh/report.md")"

# fake /proc: 2 CPUs; between the readings (the run paused at its first
# interval) 200 ticks pass, 150 of them busy or none of them
mkfifo "$T/fifo"
fake() { # name busy-ticks-added
	mkdir -p "$T/proc-$1"
	echo "0.50 0.40 0.30 1/100 999" >"$T/proc-$1/loadavg"
	printf 'cpu  1000 0 1000 8000 0 0 0 0 0 0\ncpu0 500 0 500 4000 0 0 0 0 0 0\ncpu1 500 0 500 4000 0 0 0 0 0 0\nintr 1\n' \
		>"$T/proc-$1/stat"
	suite "$1"
	IOMATRIX_TEST_HOOK="interval:1,proc=$T/proc-$1,fifo=$T/fifo" \
		"$IOMATRIX" run "$T/$1.yaml" --out "$T/$1" --quiet >"$T/out" 2>"$T/err" &
	pid=$!
	hook_wait "$T/fifo" >/dev/null || { kill "$pid"; fail "$1: no pause"; }
	printf 'cpu  %d 0 1000 %d 0 0 0 0 0 0\n' $((1000 + $2)) $((8000 + 200 - $2)) >"$T/proc-$1/stat.new"
	echo "cpu0 x" >>"$T/proc-$1/stat.new"; echo "cpu1 x" >>"$T/proc-$1/stat.new"
	mv "$T/proc-$1/stat.new" "$T/proc-$1/stat"
	echo "2.50 0.80 0.40 3/100 999" >"$T/proc-$1/loadavg"
	hook_go "$T/fifo"
	wait "$pid" || fail "$1: run failed: $(cat "$T/err")"
	expect_exit 0 "$IOMATRIX" report "$T/$1" -o "$T/r-$1" --charts none --format md
}
fake busy 150
L=$(jq -c '.repetitions[0].host_load' "$T/busy/cells/0001.json")
echo "$L" | jq -e '.loadavg_before == [0.5,0.4,0.3] and .loadavg_after == [2.5,0.8,0.4] and
	.cpus == 2 and .cpu_busy_pct == 75 and .cpu_steal_pct == 0 and .competed' >/dev/null \
	&& ok "fake /proc: the readings and the busy share are the files'" || not_ok "busy: $L"
grep -q "disk: other work competed for the CPU during 1 cell" "$T/r-busy/report.md" \
	&& ok "fake busy CPU: warned" || not_ok "fake busy: no warning"
fake quiet 0
L=$(jq -c '.repetitions[0].host_load' "$T/quiet/cells/0001.json")
echo "$L" | jq -e '.cpu_busy_pct == 0 and .other_busy_cpus == 0 and (.competed | not)' >/dev/null \
	&& ok "fake idle CPU: nothing else ran" || not_ok "quiet: $L"
grep -qi "competed" "$T/r-quiet/report.md" && not_ok "a quiet cell was warned about" \
	|| ok "a quiet cell: no warning"
# a set from before host_load: silent
expect_exit 0 "$IOMATRIX" report "$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm" \
	-o "$T/r-old" --charts none --format md
grep -qi "competed" "$T/r-old/report.md" && not_ok "warned without host_load" \
	|| ok "no host_load: no claim"
tap_end
