#!/bin/sh
# The SNIA PTS verdict of a device's rounds is in the Summary
# ("Not steady after 8 rounds" was only in a banner and the SSD section):
# never steady in 8 rounds says so with the rule and the rounds averaged;
# steady at round 5 says that instead, never "not steady"; a set without
# rounds says neither.  Synthetic rounds (tests/report/gen_steady.py).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
summary() { sed -n '/^## Summary/,/^## /p' "$1"; }
cp -r "$SRC" "$T/no" && rm -f "$T/no/SHA256SUMS" || fail "copy"
python3 "$ROOT/tests/report/gen_steady.py" "$T/no" disk --max 8 \
	--track RW=100,300,50,400,60,100,250,40 || fail "gen_steady"
expect_exit 0 "$IOMATRIX" report "$T/no" -o "$T/no-rep" --charts none --format md
S=$(summary "$T/no-rep/report.md")
echo "$S" | grep -q '^- disk: not steady after 8 rounds (SNIA PTS rule: range 20 %, slope 10 %); its results are the averages of rounds 4 to 8, not steady-state numbers\.$' &&
	ok "not steady: in the summary, with the rule and the window" || not_ok "summary: $S"
echo "$S" | grep -q "reached steady state" && not_ok "a steady claim for a device that never was" || ok "not steady: no steady claim"
cp -r "$SRC" "$T/yes" && rm -f "$T/yes/SHA256SUMS" || fail "copy"
python3 "$ROOT/tests/report/gen_steady.py" "$T/yes" disk --max 8 \
	--track FLAT=700,700,700,700,700 || fail "gen_steady"
expect_exit 0 "$IOMATRIX" report "$T/yes" -o "$T/yes-rep" --charts none --format md
S=$(summary "$T/yes-rep/report.md")
echo "$S" | grep -q '^- disk reached steady state at round 5 (SNIA PTS rule); its results are the averages of rounds 1 to 5\.$' &&
	ok "steady: the round and the window" || not_ok "summary: $S"
echo "$S" | grep -qi "not steady" && not_ok "not steady said of a steady device" || ok "steady: no 'not steady'"
cp -r "$SRC" "$T/none" && rm -f "$T/none/SHA256SUMS" || fail "copy"
expect_exit 0 "$IOMATRIX" report "$T/none" -o "$T/none-rep" --charts none --format md
summary "$T/none-rep/report.md" | grep -qi "steady" && not_ok "a steady-state sentence without rounds" ||
	ok "no rounds: no steady-state sentence"
tap_end
