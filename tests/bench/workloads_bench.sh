#!/bin/sh
# workloads_bench.sh - cost in the number of workloads: a
# SYNTHETIC set of 1,000, 4,000 and 16,000 cells on one device, each its
# own workload (tests/report/gen_synthetic.py --offsets), through report
# (md, html, csv, json; no charts), compare (the set against a copy) and
# history; wall and CPU seconds of each, and the ratio of 16,000 to 1,000
# (a linear cost is 16x, n log n about 22x; all pairs 256x).  Goal: report
# of 16,000 workloads in 10 s or less.  Printed, not asserted.  Called by
# make bench (part "workloads" of BENCH_ONLY).
#
#   sh tests/bench/workloads_bench.sh BUILD/iomatrix
#   env: BENCH_WORKLOADS  where the generated sets are kept between runs
#                         (default /tmp/iomatrix-bench-workloads; made once)
set -u
BIN=${1:?usage: workloads_bench.sh IOMATRIX_BINARY}
case " ${BENCH_ONLY:-workloads} " in *" workloads "*) ;; *) exit 0 ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
A=${BENCH_WORKLOADS:-/tmp/iomatrix-bench-workloads}
command -v python3 >/dev/null 2>&1 || { echo "workloads bench: python3 needed" >&2; exit 1; }
T=$(mktemp -d /tmp/iomatrix-workloads-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
SIZES="1000 4000 16000"

for n in $SIZES; do
	[ -f "$A/$n/.complete" ] && continue
	echo "workloads bench: writing a set of $n workloads to $A/$n (once)..."
	rm -rf "$A/$n"
	mkdir -p "$A/$n"
	python3 "$ROOT/tests/report/gen_synthetic.py" "$A/$n/set" --devices d:ssd --cells "$n" \
		--offsets 5 >/dev/null && cp -r "$A/$n/set" "$A/$n/copy" && touch "$A/$n/.complete" ||
		{ echo "workloads bench: generator failed" >&2; exit 1; }
done

# timed NAME CMD...: "wall cpu" seconds into $T/NAME
timed() {
	name=$1; shift
	/usr/bin/time -f "%e %U %S" -o "$T/$name.time" "$@" >"$T/$name.out" 2>"$T/$name.err" ||
		{ echo "workloads bench: $name failed:" >&2; tail -n 5 "$T/$name.err" >&2; exit 1; }
	awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$T/$name.time" >"$T/$name.t"
}
for n in $SIZES; do
	timed "report$n" "$BIN" report "$A/$n/set" -o "$T/r$n" --charts none --format md,html,csv,json
	timed "compare$n" "$BIN" compare "$A/$n/set" "$A/$n/copy" -o "$T/c$n"
	timed "history$n" "$BIN" history "$A/$n" --format json
done
echo
echo "workloads: report, compare and history of one device's distinct workloads ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
printf "| %-8s | %-22s | %-22s | %-22s |\n" workloads "report wall / cpu s" "compare wall / cpu s" "history wall / cpu s"
printf "|%s|%s|%s|%s|\n" ---------- ------------------------ ------------------------ ------------------------
for n in $SIZES; do
	printf "| %8s | %22s | %22s | %22s |\n" "$n" "$(sed 's| | / |' "$T/report$n.t")" \
		"$(sed 's| | / |' "$T/compare$n.t")" "$(sed 's| | / |' "$T/history$n.t")"
done
for c in report compare history; do
	read -r w1 c1 <"$T/${c}1000.t"
	read -r w16 c16 <"$T/${c}16000.t"
	awk -v c="$c" -v a="$c1" -v b="$c16" -v w="$w16" 'BEGIN {
		r = a > 0 ? b / a : 0
		printf "%s: 16,000 / 1,000 workloads = %.1fx the CPU (linear 16x, n log n ~22x, all pairs 256x)%s\n",
		       c, r, c == "report" ? sprintf("; 16,000 in %.2f s wall (goal <= 10 s: %s)", w, w <= 10 ? "met" : "MISSED") : "" }'
done
