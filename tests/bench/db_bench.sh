#!/bin/sh
# db_bench.sh - the archive as a database at scale: a make
# bench row per goal, each with its wall and CPU time and the index's bytes
# per set.  Printed, not asserted.  Called by make bench (part "db" of
# BENCH_ONLY).
#   - index of 2,000 imported sets (a new file)            target <= 20 s
#   - history --format json over 10,000 sets, index current target <= 1 s
#   - one set added to that index (an import and its hook)  target <= 1 s
#   - site of 10,000 sets (the index current, no charts)    target <= 60 s
#
#   sh tests/bench/db_bench.sh BUILD/iomatrix
#   env: BENCH_DB_ARCHIVE  10,000 synthetic sets x 10 cells with SHA256SUMS
#                          (tests/report/gen_archive.py; default
#                          /tmp/iomatrix-bench-db-10000x10, made once: about
#                          6 minutes, 1.2 GB; its index once: about 10 minutes)
#        BENCH_DB_IMPORTS  2,000 imported sets: every fio JSON and sysbench
#                          log of tests/data imported once, each set copied
#                          under new names (default /tmp/iomatrix-bench-db-imports)
set -u
BIN=${1:?usage: db_bench.sh IOMATRIX_BINARY}
case " ${BENCH_ONLY:-db} " in *" db "*) ;; *) exit 0 ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
A=${BENCH_DB_ARCHIVE:-/tmp/iomatrix-bench-db-10000x10}
I=${BENCH_DB_IMPORTS:-/tmp/iomatrix-bench-db-imports}
command -v python3 >/dev/null 2>&1 || { echo "db bench: python3 needed to make the archive" >&2; exit 1; }
T=$(mktemp -d /tmp/iomatrix-db-bench.XXXXXX)
added=
trap 'rm -rf "$T"; [ -n "$added" ] && rm -rf "${A:?}/$added"' EXIT INT TERM

# the archive is made again when the generators changed since (a cell the
# reader refuses now, as sums that disagree, fails every row below)
gen=$(cat "$ROOT/tests/report/gen_archive.py" "$ROOT/tests/report/gen_synthetic.py" | cksum)
if [ "$(cat "$A/.complete" 2>/dev/null)" != "$gen" ]; then
	echo "db bench: writing 10,000 synthetic sets x 10 cells to $A (once, about 6 minutes)..."
	rm -rf "$A"
	python3 "$ROOT/tests/report/gen_archive.py" "$A" --sets 1000 --cells 10 \
		--hosts h01,h02,h03,h04,h05,h06,h07,h08,h09,h10 --step-at 600 --seed 1 --sums ||
		{ echo "db bench: generator failed" >&2; exit 1; }
	echo "$gen" >"$A/.complete"
fi
if [ ! -f "$I/.complete" ]; then
	echo "db bench: importing tests/data and copying the sets to 2,000 in $I (once)..."
	rm -rf "$I" && mkdir -p "$I/src"
	n=0
	for f in "$ROOT"/tests/data/fio/*.json "$ROOT"/tests/data/sysbench/*.log; do
		n=$((n + 1))
		case $f in *.json) k=fio ;; *) k=sysbench ;; esac
		"$BIN" import $k "$f" --date "2026-01-01T00:00:$(printf %02d $((n % 60)))Z" \
			-o "$I/src/s$n" >/dev/null 2>&1 || echo "db bench: import $f refused (skipped)"
	done
	set -- "$I"/src/*
	k=0
	while [ $k -lt 2000 ]; do
		for s in "$@"; do
			[ $k -lt 2000 ] || break
			k=$((k + 1))
			cp -a "$s" "$I/$(printf '2026-%02d-%02dT%02d%02d00Z_import_%04d' $((k % 12 + 1)) $((k % 28 + 1)) $((k % 24)) $((k % 60)) $k)"
		done
	done
	rm -rf "$I/src"
	touch "$I/.complete"
fi

timed() { # NAME CMD...: wall and CPU seconds into $T/NAME
	name=$1; shift
	/usr/bin/time -f "%e %M %U %S" -o "$T/$name.time" "$@" >"$T/$name.out" 2>"$T/$name.err" ||
		{ echo "db bench: $name failed:" >&2; tail -n 5 "$T/$name.err" >&2; exit 1; }
}
line() { # LABEL TARGET NAME NOTE
	read -r secs kb usr sys <"$T/$3.time"
	awk -v l="$1" -v t="$2" -v s="$secs" -v k="$kb" -v c="$usr" -v y="$sys" -v n="$4" 'BEGIN {
		printf "%-46s %7.2f s  (target <= %g s: %s)  cpu %.2f s user + %.2f s sys, peak RSS %d MiB%s\n",
		       l, s, t, s <= t ? "met" : "MISSED", c, y, k / 1024, n }'
}
per_set() { # DIR SETS: the index's bytes per set
	echo $(( $(cat "$1"/index.sqlite "$1"/index.sqlite-wal 2>/dev/null | wc -c) / $2 ))
}

rm -f "$I"/index.sqlite*
timed index_imports "$BIN" index "$I"
timed index_archive "$BIN" index "$A"    # current unless the archive or the format changed
timed history "$BIN" history "$A" --format json
timed add "$BIN" import sysbench "$ROOT/tests/data/sysbench/rndrd-bs4096-t16.log" \
	--date 2027-01-01T00:00:00Z -o "$A/zz-added-by-the-bench"
added=zz-added-by-the-bench
"$BIN" query "SELECT count(*) FROM sets WHERE path = '$added'" --archive "$A" --format csv 2>/dev/null |
	tail -n 1 | grep -qx 1 || echo "db bench: the added set is not in the index" >&2
rm -rf "${A:?}/$added" && added= && "$BIN" index "$A" >/dev/null
timed site "$BIN" site "$A" -o "$T/site" --charts none
echo "db: $(ls -d "$A"/*/ | wc -l) synthetic sets x 10 cells ($(sed -n 1p "$T/index_archive.out" | sed 's/.*: //')), $(per_set "$A" 10000) bytes per set; 2,000 imported sets: $(per_set "$I" 2000) bytes per set"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; wall times stretch with it, cpu times do not)"
line "index: 2,000 imported sets, a new file" 20 index_imports ""
line "history --format json, 10,000 sets, index" 1 history ""
line "one set added (import + its index hook)" 1 add ""
line "site: 10,000 sets, index, --charts none" 60 site "; $(sed -n 2p "$T/site.out" | sed 's/^ *//')"
