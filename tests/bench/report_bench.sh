#!/bin/sh
# report_bench.sh - time `iomatrix report` on a SYNTHETIC set of 1,000 cells
# x 2 devices with every format and chart (target: 10 s or less; printed,
# not asserted).  Called by make bench.
#
#   sh tests/bench/report_bench.sh BUILD/iomatrix [CELLS_PER_DEVICE]
set -u
BIN=${1:?usage: report_bench.sh IOMATRIX_BINARY [CELLS]}
CELLS=${2:-1000}
case " ${BENCH_ONLY:-report} " in *" report "*) ;; *) exit 0 ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "report bench: python3 needed to make the synthetic set" >&2; exit 1; }
T=$(mktemp -d /tmp/iomatrix-report-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --devices hdd:hdd,ssd:ssd \
	--cells "$CELLS" --repeat 3 >/dev/null || { echo "report bench: generator failed" >&2; exit 1; }
charts=svg,png
command -v gnuplot >/dev/null 2>&1 || { charts=none; echo "report bench: gnuplot missing, charts skipped"; }
start=$(date +%s.%N)
"$BIN" report "$T/set" --format md,html,csv,json --charts "$charts" >"$T/out" 2>"$T/err"
rc=$?
end=$(date +%s.%N)
if [ $rc != 0 ]; then
	echo "report bench: iomatrix report failed (exit $rc):" >&2
	tail -n 5 "$T/err" >&2
	exit 1
fi
nch=$(ls "$T/set/report/charts" 2>/dev/null | grep -c '\.svg$')
size=$(du -sk "$T/set/report" | cut -f1)
awk -v s="$start" -v e="$end" -v c="$CELLS" -v n="$nch" -v k="$size" 'BEGIN {
	t = e - s
	printf "report: %d cells x 2 devices, md+html+csv+json, %d charts (svg+png), %d KiB: %.2f s (target <= 10 s: %s)\n",
	       c, n, k, t, t <= 10 ? "met" : "MISSED"
}'

# A one-hour cell at 1 s intervals (it loads in 1 s or less):
# 3,600 intervals of ~500 buckets each (tests/bench/gen_hour_cell.py),
# read and reported without charts
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/hour" --devices ssd:ssd --cells 1 >/dev/null &&
	hs=$(python3 "$ROOT/tests/bench/gen_hour_cell.py" "$T/hour" 3600) ||
	{ echo "report bench: the one-hour cell's generator failed" >&2; exit 1; }
# CPU time (user + sys) beside the wall time: the report's fsyncs wait for
# the disk, which on a shared machine is most of the wall time
/usr/bin/time -f "%e %U %S" -o "$T/hour.time" "$BIN" report "$T/hour" --format json --charts none \
	-o "$T/hour.rep" >"$T/out" 2>"$T/err" ||
	{ echo "report bench: iomatrix report failed on the one-hour cell:" >&2; tail -n 5 "$T/err" >&2; exit 1; }
awk -v k="$(du -k "$T/hour/cells/0001.json" | cut -f1)" -v h="$hs" '{
	cpu = $2 + $3
	printf "one-hour cell at 1 s intervals (%s; the cell file %d KiB): report --charts none %.2f s of CPU, %.2f s wall (target <= 1 s of CPU: %s)\n",
	       h, k, cpu, $1, cpu <= 1 ? "met" : "MISSED"
}' "$T/hour.time"
