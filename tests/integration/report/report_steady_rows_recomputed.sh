#!/bin/sh
# A steady-state row is checked against the stored rounds: range, slope and
# average are recomputed (tests/report/check_steady_rows.py, the math of
# bench/stats/steady.c) for the window the row names, and "steady" stands
# only beside a window that meets the rule.  Each side: a track steady at
# round 5 whose final window is not (the word must stay with rounds 1-5), one
# steady only at the last round, one never steady (no "steady" at all), and
# a stricter rule under which the first must stay silent too.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
RR=1000,1010,990,1005,995,1000,2000,600,2500,900
SW=500,900,300,800,400,505,500,495,500,500
RW=100,300,50,400,60,100,250,40,90,300
mkset() { # name gen_steady-options...
	n=$1; shift
	cp -r "$SRC" "$T/$n" && rm -f "$T/$n/SHA256SUMS" || fail "copy"
	python3 "$ROOT/tests/report/gen_steady.py" "$T/$n" disk --max 10 \
		--track RR=$RR --track SW=$SW --track RW=$RW "$@" || fail "gen_steady"
	expect_exit 0 "$IOMATRIX" report "$T/$n" -o "$T/rep-$n" --charts none --format md
}
check() { # name what
	if python3 "$ROOT/tests/report/check_steady_rows.py" "$T/rep-$1/report.md" \
		"$T/$1/steady/disk.json" >"$T/why" 2>&1; then ok "$2"
	else not_ok "$2: $(cat "$T/why")"; fi
}
mkset pts
check pts "default rule: every row's range, slope and verdict are its window's"
grep -q '| RR | 1-5 | .* | steady (rule first met at round 5) |' "$T/rep-pts/report.md" &&
	ok "RR: steady beside rounds 1-5" || not_ok "RR row: $(grep '| RR |' "$T/rep-pts/report.md")"
grep '| RW |' "$T/rep-pts/report.md" | grep -v -q '| not steady' &&
	not_ok "RW, never steady, got: $(grep '| RW |' "$T/rep-pts/report.md")" ||
	ok "RW, never steady: no row says steady"
# 1 % range: RR's rounds 1-5 (2 % range) no longer meet it
mkset strict --range 1
check strict "1 % range: every row recomputed"
grep '| RR |' "$T/rep-strict/report.md" | grep -q '| steady' &&
	not_ok "RR said steady under a 1 % range: $(grep '| RR |' "$T/rep-strict/report.md")" ||
	ok "RR under a 1 % range: silent"
tap_end
