#!/bin/sh
# archive_bench.sh - time `iomatrix history` and `iomatrix site` on a
# SYNTHETIC archive of 1,000 sets x 50 cells (10 hosts x 100 dated sets;
# tests/report/gen_archive.py), then an incremental site after one new set.
# Targets: history <= 5 s, full site <= 60 s, incremental <= 5 s.
# Printed with peak memory, not asserted.  Called by make bench (part
# "archive" of BENCH_ONLY).
#
#   sh tests/bench/archive_bench.sh BUILD/iomatrix
#   env: BENCH_ARCHIVE  where the generated archive is kept between runs
#                       (default /tmp/iomatrix-bench-archive-1000x50; made
#                       once, about 3 minutes)
set -u
BIN=${1:?usage: archive_bench.sh IOMATRIX_BINARY}
case " ${BENCH_ONLY:-archive} " in *" archive "*) ;; *) exit 0 ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
A=${BENCH_ARCHIVE:-/tmp/iomatrix-bench-archive-1000x50}
command -v python3 >/dev/null 2>&1 || { echo "archive bench: python3 needed to make the archive" >&2; exit 1; }
T=$(mktemp -d /tmp/iomatrix-archive-bench.XXXXXX)
extra=
# the one new set is taken out again, so the archive stays as generated
trap 'rm -rf "$T"; [ -n "$extra" ] && rm -rf "${A:?}/$extra"' EXIT INT TERM

if [ ! -f "$A/.complete" ]; then
	echo "archive bench: writing 1,000 synthetic sets x 50 cells to $A (once)..."
	rm -rf "$A"
	python3 "$ROOT/tests/report/gen_archive.py" "$A" --sets 100 --cells 50 \
		--hosts h01,h02,h03,h04,h05,h06,h07,h08,h09,h10 --step-at 60 --seed 1 ||
		{ echo "archive bench: generator failed" >&2; exit 1; }
	touch "$A/.complete"
fi
nsets=$(ls "$A" | wc -l)

# timed NAME CMD...: wall seconds and peak RSS into $T/NAME
timed() {
	name=$1; shift
	/usr/bin/time -f "%e %M %U %S" -o "$T/$name.time" "$@" >"$T/$name.out" 2>"$T/$name.err" ||
		{ echo "archive bench: $name failed:" >&2; tail -n 5 "$T/$name.err" >&2; exit 1; }
}
line() { # label target name
	read -r secs kb usr sys <"$T/$3.time"
	awk -v l="$1" -v t="$2" -v s="$secs" -v k="$kb" -v c="$usr" -v y="$sys" 'BEGIN {
		printf "%-34s %7.2f s  (target <= %d s: %s)  cpu %.1f s user + %.1f s sys, peak RSS %d MiB\n",
		       l, s, t, s <= t ? "met" : "MISSED", c, y, k / 1024 }'
}

timed history "$BIN" history "$A" --format json
timed site "$BIN" site "$A" -o "$T/site"
python3 "$ROOT/tests/report/gen_archive.py" "$T/new" --sets 1 --first 400 --cells 50 --hosts h01 --seed 9 ||
	{ echo "archive bench: generator failed" >&2; exit 1; }
extra=$(ls "$T/new")
mv "$T/new/$extra" "$A/"
timed incremental "$BIN" site "$A" -o "$T/site"
echo "archive: $nsets sets x 50 cells, $(grep -o '"host"' "$T/history.out" | wc -l) series in history; incremental: $(sed -n 2p "$T/incremental.out" | sed 's/^ *//')"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; wall times stretch with it, cpu times do not)"
line "history (json)" 5 history
line "site (full)" 60 site
line "site (incremental, one new set)" 5 incremental
