#!/bin/sh
# When the final window (the rounds the results average) is not the window
# that first met the steady-state rule, both are shown, each with its own
# range, slope and verdict: RR is steady in rounds 1-5 and not in 6-10, FLAT
# is steady in both.  When they are the same window (SW, steady only at the
# last round) or there is no steady window (RW), the track has one row.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
cp -r "$SRC" "$T/s" && rm -f "$T/s/SHA256SUMS" || fail "copy"
python3 "$ROOT/tests/report/gen_steady.py" "$T/s" disk --max 10 \
	--track RR=1000,1010,990,1005,995,1000,2000,600,2500,900 \
	--track FLAT=700,700,700,700,700,700,700,700,700,700 \
	--track SW=500,900,300,800,400,505,500,495,500,500 \
	--track RW=100,300,50,400,60,100,250,40,90,300 || fail "gen_steady"
expect_exit 0 "$IOMATRIX" report "$T/s" -o "$T/rep" --charts none --format md
M="$T/rep/report.md"
row() { grep "^| $1 |" "$M"; }
[ "$(row RR | wc -l)" = 2 ] &&
	row RR | grep -q '^| RR | 1-5 | 1,000 | 2.0 % | 0.6 % | steady (rule first met at round 5) |$' &&
	row RR | grep -q '^| RR | 6-10 (final) | 1,400 | 135.7 % | 8.6 % | not steady (range) |$' &&
	ok "RR: the steady window and the final window, each with its own numbers" ||
	not_ok "RR rows: $(row RR)"
[ "$(row FLAT | wc -l)" = 2 ] &&
	row FLAT | grep -q '^| FLAT | 1-5 | 700 | 0.0 % | 0.0 % | steady (rule first met at round 5) |$' &&
	row FLAT | grep -q '^| FLAT | 6-10 (final) | 700 | 0.0 % | 0.0 % | steady |$' &&
	ok "FLAT: a steady final window is shown as its own row" ||
	not_ok "FLAT rows: $(row FLAT)"
[ "$(row SW | wc -l)" = 1 ] && row SW | grep -q '^| SW | 6-10 | .* | steady (rule first met at round 10) |$' &&
	ok "SW: steady only in the final window, one row" || not_ok "SW rows: $(row SW)"
[ "$(row RW | wc -l)" = 1 ] && row RW | grep -q '^| RW | 6-10 | .* | not steady (range and slope) |$' &&
	ok "RW: never steady, one row" || not_ok "RW rows: $(row RW)"
tap_end
