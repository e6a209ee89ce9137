#!/bin/sh
# Seed 003's published table (tests/data/seed-003-published.csv), imported
# and reported, gives the seed's own conclusions: SSD ~219x SATA and ~32x
# SAS RAID10 on 16K random-read IOPS, ~222x / ~67x on random writes (those
# two match the seed's 4K table), ~110x / ~30x random r/w, ~4x / ~6x
# sequential reads, ~26x / ~25x SAS on sequential writes / rewrites.
. "$(dirname "$0")/../../lib.sh"

expect_exit 0 "$IOMATRIX" import csv "$ROOT/tests/data/seed-003-published.csv" -o "$T/set"
[ -f "$T/set/manifest.json" ] && ok "import csv wrote a set" || not_ok "no manifest"

"$IOMATRIX" report "$T/set" --baseline "640G SATA (Local)" -o "$T/r1" --charts none \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] || fail "report exit $rc: $(head -n 5 "$T/err")"
"$IOMATRIX" report "$T/set" --baseline "300GB SAS*4(RAID10)" -o "$T/r2" --charts none \
	>"$T/out" 2>"$T/err" || fail "report (SAS baseline): $(head -n 5 "$T/err")"

# ratio MD WORKLOAD DEVICE -> the IOPS ratio of the row, without the "x"
ratio() {
	awk -F'|' -v w="$2" -v d="$3" '
		function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); gsub(/\\/, "", s); return s }
		/^## Ratios/ { in_r = 1 }
		in_r && (index(trim($2), w " (") == 1 || index(trim($2), w ",") == 1) && trim($3) == d { v = trim($4); sub(/x$/, "", v); gsub(/,/, "", v); print v; exit }
	' "$1"
}
# check MD WORKLOAD DEVICE WANT TOLERANCE_PCT TEXT
check() {
	got=$(ratio "$1" "$2" "$3")
	if [ -z "$got" ]; then
		not_ok "$6: no ratio row for '$2' / '$3' in $1"
		return
	fi
	if awk -v g="$got" -v w="$4" -v t="$5" 'BEGIN { exit !(g >= w * (1 - t / 100) && g <= w * (1 + t / 100)) }'; then
		ok "$6: ${got}x (seed: ~$4x)"
	else
		not_ok "$6: ${got}x, the seed says ~$4x"
	fi
}
SSD="480GB SSD (Local)"
M1="$T/r1/report.md"; M2="$T/r2/report.md"
check "$M1" "16K random read" "$SSD" 219 5 "16K random read SSD vs SATA"
check "$M2" "16K random read" "$SSD" 32 5 "16K random read SSD vs SAS RAID10"
check "$M1" "4K random write" "$SSD" 222 5 "4K random write SSD vs SATA"
check "$M2" "4K random write" "$SSD" 67 5 "4K random write SSD vs SAS RAID10"
check "$M1" "16K random read/write" "$SSD" 110 5 "16K random r/w SSD vs SATA"
check "$M2" "16K random read/write" "$SSD" 30 5 "16K random r/w SSD vs SAS RAID10"
check "$M1" "16K sequential read" "$SSD" 4 10 "16K sequential read SSD vs SATA"
check "$M2" "16K sequential read" "$SSD" 6.5 5 "16K sequential read SSD vs SAS RAID10"
check "$M1" "16K sequential write" "$SSD" 1.1 10 "16K sequential write SSD vs SATA (about equal)"
check "$M2" "16K sequential write" "$SSD" 26 5 "16K sequential write SSD vs SAS RAID10"
check "$M2" "16K sequential rewrite" "$SSD" 25 5 "16K sequential rewrite SSD vs SAS RAID10"
got=$(ratio "$M1" "16K sequential rewrite" "$SSD")
awk -v g="$got" 'BEGIN { exit !(g > 0 && g < 1) }' && ok "16K sequential rewrite: SATA beats the SSD (${got}x)" \
	|| not_ok "16K sequential rewrite SSD vs SATA: '${got}', the seed says SATA is better"
# the report says where the numbers come from
grep -qi "csv\|published" "$M1" && ok "report names the imported source" || not_ok "report does not say the numbers are imported"
tap_end
