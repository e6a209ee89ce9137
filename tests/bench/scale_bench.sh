#!/bin/sh
# scale_bench.sh - the bookkeeping of a run at scale, printed, not
# asserted (make bench; alone: BENCH_ONLY=scale make bench):
#   1) peak RSS of `plan` of a 100,000-cell suite, text and --format json
#      (goal <= 64 MiB each; tests/integration/suite/suite_plan_100k_cells_rss
#      fails above it), and what one cell adds: (RSS of 100,000 cells - RSS
#      of one) / 99,999, a plan holding every cell (struct cell);
#   2) `run` of 20,000 null-engine cells (requests: 10): cells per second,
#      and the time per cell of the last tenth over the first tenth (goal
#      <= 1.5: flat per-cell cost);
#   3) `report` of that 20,000-cell set (md, html, csv, json; no charts:
#      20,000 cells of one device are one chart group too many to draw).
#
#   sh tests/bench/scale_bench.sh BUILD/iomatrix
#   env: BENCH_SCALE_CELLS  cells of the run (default 20000)
#        BENCH_DIR          where the result set goes (default /tmp)
set -u
BIN=${1:?usage: scale_bench.sh IOMATRIX_BINARY}
case " ${BENCH_ONLY:-scale} " in *" scale "*) ;; *) exit 0 ;; esac
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
N=${BENCH_SCALE_CELLS:-20000}
command -v python3 >/dev/null 2>&1 || { echo "scale bench: python3 needed" >&2; exit 1; }
T=$(mktemp -d "${BENCH_DIR:-/tmp}/iomatrix-scale-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

# A suite of n null-engine cells that differ only by seed: what each cell
# costs the runner's bookkeeping, not what its IO costs.
suite() {
	python3 - "$1" "$T/dev/" <<'PY'
import sys
n, dev = int(sys.argv[1]), sys.argv[2]
print("suite: scale%d" % n)
print("defaults: {engine: null, requests: 10, direct: false, size: 1m, bs: 4k}")
print("devices: [{name: d, path: %s}]" % dev)
print("matrix:")
print("  pattern: [randread]")
print("  seed: [%s]" % ", ".join(str(i) for i in range(1, n + 1)))
PY
}
mkdir -p "$T/dev"
suite 100000 >"$T/plan.yaml"
suite 1 >"$T/plan1.yaml"
suite "$N" >"$T/run.yaml"

# peak RSS (KiB) of a command, its output to /dev/null
rss() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -1)
PY
}

row() { printf "| %-44s | %16s | %-14s | %-6s |\n" "$1" "$2" "$3" "$4"; }
met() { awk -v v="$1" -v g="$2" 'BEGIN { print (v >= 0 && v <= g) ? "met" : "MISSED" }'; }

echo
echo "scale: the run's bookkeeping at 100,000 / $N cells ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
row "what" "measured" "goal" "met"
echo "|----------------------------------------------|------------------|----------------|--------|"
for fmt in text json; do
	k=$(rss "$BIN" plan "$T/plan.yaml" --format $fmt)
	mib=$(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }')
	row "plan, 100,000 cells, --format $fmt: peak RSS" "$mib MiB" "<= 64 MiB" "$(met "$mib" 64)"
	[ "$fmt" = text ] && k100k=$k
done
k1=$(rss "$BIN" plan "$T/plan1.yaml")
if [ "$k100k" -ge 0 ] && [ "$k1" -ge 0 ]; then
	row "plan: RSS a cell adds (100,000 cells vs 1)" \
		"$(awk -v a="$k100k" -v b="$k1" 'BEGIN { printf "%.0f bytes", (a - b) * 1024 / 99999 }')" "" ""
fi

# run: one progress line per finished cell on stderr (not a terminal);
# the time each line arrives gives the time per cell
python3 - "$BIN" "$T/run.yaml" "$T/set" "$N" >"$T/run.out" <<'PY'
import subprocess, sys, time
binary, suite, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
t0 = time.monotonic()
p = subprocess.Popen([binary, "run", suite, "--out", out], stdout=subprocess.DEVNULL,
                     stderr=subprocess.PIPE, text=True)
stamps = [time.monotonic() for line in p.stderr if line.startswith("cell ")]
rc = p.wait()
total = time.monotonic() - t0
if rc != 0 or len(stamps) != n:
    print("-1 -1 -1"); sys.exit(0)
tenth = n // 10
# from the first cell's line on: the set-up before it (suite, fingerprint,
# set directory) is not a per-cell cost
first = (stamps[tenth] - stamps[0]) / tenth
last = (stamps[-1] - stamps[-tenth - 1]) / tenth
print("%.1f %.3f %.2f" % (total, n / total, last / first))
PY
read -r secs rate ratio <"$T/run.out"
if [ "$secs" = -1 ]; then
	row "run, $N null cells" "failed" "" "-"
else
	row "run, $N null cells: total" "$secs s" "" ""
	row "run, $N null cells: cells per second" "$(printf %.0f "$rate")" "" ""
	row "run: time per cell, last tenth / first tenth" "$ratio" "<= 1.5" "$(met "$ratio" 1.5)"
	start=$(date +%s.%N)
	if "$BIN" report "$T/set" --format md,html,csv,json --charts none >/dev/null 2>"$T/report.err"; then
		end=$(date +%s.%N)
		row "report of the $N-cell set (no charts)" "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f s", e - s }')" "" ""
	else
		row "report of the $N-cell set" "failed" "" "-"
		tail -n 3 "$T/report.err" >&2
	fi
fi
