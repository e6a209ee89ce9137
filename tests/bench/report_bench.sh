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
