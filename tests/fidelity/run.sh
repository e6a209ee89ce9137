#!/bin/sh
# make fidelity: is iomatrix's workload the one its exported fio job runs?
# Ten cells (4K randread QD1 and QD32, 4K randwrite QD32, 128K and 1M
# sequential read and write QD8, 4K randrw 70/30 QD32, 4K randread QD8 x 4
# jobs, 4K randwrite QD1 with fsync every 32), each on a zram device and on
# a loop device over a file, each run by iomatrix and by the fio job that
# `iomatrix export fio` writes for it, alternately, FIDELITY_ROUNDS rounds.
# Per cell: medians and ranges of the IOPS ratio (iomatrix / fio), of the
# mean, p50 and p99 latency ratios (total latency, fio's lat with
# lat_percentiles=1), the syscalls-per-IO ratio (strace -f -c, one extra
# round) and the block coverage of one pass (IOMATRIX_TRACE against fio's
# write_iolog, random single-job cells).  The table goes to stdout and to
# FIDELITY_OUT.  Not a test: exit 0 unless a tool failed to run; 77 (with
# the reason) when it cannot run here.
#
#   sh tests/fidelity/run.sh BUILD/iomatrix
#   env: FIDELITY_ROUNDS   timed rounds per tool and cell (default 5)
#        FIDELITY_RUNTIME  runtime of each timed run (default 2s)
#        FIDELITY_SIZE     bytes addressed on each device (default 256MiB)
#        FIDELITY_DEVICES  "zram loop" (default both)
#        FIDELITY_CELLS    cell names to run (default all; see fidelity.py)
#        FIDELITY_ENGINE   libaio (default) or io_uring
#        FIDELITY_DIR      where the scratch directory goes (default /tmp)
#        FIDELITY_OUT      the Markdown table (default docs/fidelity.md)
#        FIDELITY_NOTES    appended under the table (default
#                          tests/fidelity/notes.md: why a cell misses)
set -u
BIN=${1:?usage: run.sh IOMATRIX_BINARY}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEVICES=${FIDELITY_DEVICES:-zram loop}
SIZE=${FIDELITY_SIZE:-256MiB}

skip() { echo "fidelity: skipped: $*" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (zram, losetup, O_DIRECT on block devices)"
for c in fio strace python3 losetup dd; do
	command -v $c >/dev/null 2>&1 || skip "'$c' is not installed (make deps)"
done
case " $DEVICES " in *" zram "*)
	[ -e /sys/class/zram-control/hot_add ] || modprobe zram 2>/dev/null
	[ -e /sys/class/zram-control/hot_add ] || skip "no zram (modprobe zram failed); or set FIDELITY_DEVICES=loop" ;;
esac
bytes=$(python3 -c '
import re, sys
m = re.fullmatch(r"(\d+)\s*([kmgt]?)(i?b)?", sys.argv[1].lower())
print(int(m.group(1)) * 1024 ** " kmgt".index(m.group(2) or " ") if m else 0)' "$SIZE")
[ "$bytes" -gt 0 ] || { echo "fidelity: FIDELITY_SIZE '$SIZE' is not a size" >&2; exit 2; }

W=$(mktemp -d "${FIDELITY_DIR:-/tmp}/iomatrix-fidelity.XXXXXX") || exit 1
ZRAM="" LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	if [ -n "$ZRAM" ]; then
		echo 1 >/sys/block/zram$ZRAM/reset 2>/dev/null
		echo "$ZRAM" >/sys/class/zram-control/hot_remove 2>/dev/null
	fi
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# devices: our own zram (never another's) and a loop over a scratch file,
# each filled with random data first, so reads read what was written
devs=""
for d in $DEVICES; do
	case $d in
	zram)
		ZRAM=$(cat /sys/class/zram-control/hot_add) || skip "cannot add a zram device"
		echo $((bytes + 64 * 1048576)) >/sys/block/zram$ZRAM/disksize \
			|| { echo "fidelity: cannot size /dev/zram$ZRAM" >&2; exit 1; }
		devs="$devs zram=/dev/zram$ZRAM" ;;
	loop)
		dd if=/dev/zero of="$W/loop.img" bs=1M count=0 seek=$((bytes / 1048576 + 64)) 2>/dev/null
		LOOP=$(losetup -f --show --direct-io=on "$W/loop.img" 2>/dev/null ||
		       losetup -f --show "$W/loop.img") || skip "losetup failed (no free loop device?)"
		devs="$devs loop=$LOOP" ;;
	*) echo "fidelity: unknown device kind '$d' (zram or loop)" >&2; exit 2 ;;
	esac
done
for nd in $devs; do
	dd if=/dev/urandom of="${nd#*=}" bs=1M count=$((bytes / 1048576)) oflag=direct 2>/dev/null \
		|| { echo "fidelity: cannot fill ${nd#*=}" >&2; exit 1; }
done
# in $W: the exported jobs write their histogram logs where fio runs (the
# paths given relative to here first made absolute)
OUT=${FIDELITY_OUT:-$ROOT/docs/fidelity.md}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
case ${FIDELITY_NOTES:-} in ""|/*) ;; *) FIDELITY_NOTES=$PWD/$FIDELITY_NOTES; export FIDELITY_NOTES ;; esac
cd "$W" || exit 1
python3 "$ROOT/tests/fidelity/fidelity.py" "$BIN" "$W" "$SIZE" "$OUT" $devs
