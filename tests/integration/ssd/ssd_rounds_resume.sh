#!/bin/sh
# SIGINT in the middle of rounds: exit 130, the set interrupted with the
# rounds done so far; --resume continues at the next round (the cut round
# is run again, not kept twice), does not precondition again, and every
# cell ends with exactly one repetition per round.  Files, no root.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-rounds-resume
defaults:
  engine: psync
  direct: false
  size: 4MiB
  runtime: 250ms
devices:
  - name: d
    path: /nonexistent/
    precondition: {pattern: write, bs: 1m, amount: 2x, iodepth: 1}
matrix:
  pattern: [randread, randwrite]
rounds:
  max: 5
  window: 3
  track: ["RND4K Q1T1"]
Y
# one label names both cells: refused, with the position of the entry
expect_exit 2 "$IOMATRIX" validate "$T/s.yaml"
grep -q "s.yaml:16:11: 'track' 'RND4K Q1T1' names 2 cells" "$T/err" && ok "ambiguous track refused" ||
	not_ok "ambiguous track: $(cat "$T/err")"
sed -i 's/^  pattern: \[randread, randwrite\]/  pattern: [randrw]\n  rwmixread: [100, 0]/; s/"RND4K Q1T1"/"RND4K Q1T1 R0"/' "$T/s.yaml"
expect_exit 0 "$IOMATRIX" validate "$T/s.yaml"

# SIGINT into round 2: the test hook (bench/util/testhook.h) sends it
# once the third cell file is written, round 2's first of two cells
IOMATRIX_TEST_HOOK=cell:3:int "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch/" --out "$T/set" \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 130 ] && ok "exit 130" || not_ok "exit $rc: $(tail -3 "$T/err")"
[ "$(jq -r .status "$T/set/manifest.json")" = interrupted ] && ok "set interrupted" || not_ok "status"
done1=$(jq .rounds_done "$T/set/steady/d.json")
[ "$done1" = 1 ] && ok "$done1 round recorded" || not_ok "rounds_done $done1, expected 1"
# the cut round left one cell with two rounds in it, which resume must cut
[ "$(jq -s -c '[.[] | [.repetitions[].round]]' "$T"/set/cells/*.json)" = '[[1,2],[1]]' ] &&
	ok "interrupted in round 2 after its first cell" ||
	not_ok "rounds in the cells: $(jq -s -c '[.[] | [.repetitions[].round]]' "$T"/set/cells/*.json)"
pre=$(sha256sum <"$T/set/precondition/d.json")

expect_exit 0 "$IOMATRIX" run --resume "$T/set"
grep -q "d: resuming at round $((done1 + 1))" "$T/err" && ok "resumed at round $((done1 + 1))" ||
	not_ok "resume message: $(grep -i round "$T/err" | head -3)"
grep -q "preconditioning" "$T/err" && not_ok "preconditioned again" || ok "not preconditioned again"
[ "$(sha256sum <"$T/set/precondition/d.json")" = "$pre" ] && ok "precondition record kept" || not_ok "precondition record changed"
[ "$(jq -r .status "$T/set/manifest.json")" = complete ] && ok "set complete" || not_ok "not complete"
n=$(jq .rounds_done "$T/set/steady/d.json")
[ "$n" -ge 3 ] && [ "$(jq '.tracks[0].values | length' "$T/set/steady/d.json")" = "$n" ] &&
	ok "$n rounds, one tracked value each" || not_ok "rounds_done $n, values $(jq -c '.tracks[0].values' "$T/set/steady/d.json")"
for f in "$T/set"/cells/*.json; do
	[ "$(jq "[.repetitions[].round] == [range(1; $n + 1)]" "$f")" = true ] ||
		not_ok "$(basename "$f"): rounds $(jq -c '[.repetitions[].round]' "$f")"
done
ok "each cell holds rounds 1..$n once"
[ -z "$(ls "$T/scratch")" ] && ok "no scratch files left" || not_ok "left: $(ls "$T/scratch")"
tap_end
