#!/bin/sh
# "ssd is faster on all N workloads" only when every difference is
# significant (the 95 % interval of the ratio, compare's statistic on the
# stored repetitions, lies beyond +-5 %); a difference the
# repetitions cannot tell from noise (543 +-59 % against 404 +-17 % MB/s) is
# a tie, named in the sentence, and its ratio is marked in the ratio table
# with a note saying what the mark means.  Both sides: set A (all clear)
# says "faster on all" and marks nothing; set B says neither; set C (the
# same as A, each cell run once) claims no winner and says why.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/a.json" <<'EOS'
[{"pattern":"randread","bs":4096,"hdd":[200,0.02],"ssd":[20000,0.02]},
 {"pattern":"read","bs":1048576,"hdd":[150,0.02],"ssd":[500,0.02]},
 {"pattern":"write","bs":131072,"qd":32,"hdd":[1000,0.02],"ssd":[1530,0.02]}]
EOS
sed 's/"hdd":\[150,0.02\],"ssd":\[500,0.02\]/"hdd":[404,0.17],"ssd":[543,0.59]/' "$T/a.json" >"$T/b.json"
# set C: set A's workloads, each run once (no interval)
python3 -c 'import json,sys; w=json.load(open(sys.argv[1])); [x.update(reps=1) for x in w]; json.dump(w, open(sys.argv[2], "w"))' \
	"$T/a.json" "$T/c.json" || fail "cannot write c.json"
for x in a b c; do
	python3 "$ROOT/tests/report/gen_pair.py" "$T/$x" "$T/$x.json" || fail "generator failed"
	expect_exit 0 "$IOMATRIX" report "$T/$x" --charts none --format md,html --baseline hdd
done
SA=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/a/report/report.md")
SB=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/b/report/report.md")
echo "$SA" | grep -q 'ssd is faster on all 3 workloads\.' && ok "all significant: faster on all 3" \
	|| not_ok "A: $SA"
echo "$SB" | grep -q 'faster on all' && not_ok "B claims all: $SB" || ok "a noisy difference: no 'faster on all'"
echo "$SB" | grep -q 'ssd is faster on 2 of 3 workloads; no significant difference on 1: 1M sequential reads at QD1' \
	&& ok "the tie is named" || not_ok "B: $SB"
echo "$SA" | grep -q 'no significant difference on' && not_ok "A names a tie" || ok "no tie when there is none"
SC=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/c/report/report.md")
echo "$SC" | grep -q 'faster on\|tie on\|difference on' && not_ok "single runs: a winner or a tie claimed: $SC" \
	|| ok "single runs: no winner, no tie"
echo "$SC" | grep -q 'No difference between ssd and hdd is shown to be significant: every workload ran once' \
	&& ok "single runs: says why no claim" || not_ok "C: $SC"
# the ratio table
RA=$(sed -n '/^## Ratios/,/^## Warnings/p' "$T/a/report/report.md")
RB=$(sed -n '/^## Ratios/,/^## Warnings/p' "$T/b/report/report.md")
echo "$RB" | grep -q '^| 1M sequential read, QD1 | ssd | 1.34x\\\* | 1.34x\\\* |' && ok "not significant ratio marked" \
	|| not_ok "B ratios: $RB"
echo "$RB" | grep -q '^| 4K random read, QD1 | ssd | 100x | 100x |' && ok "significant ratio unmarked" \
	|| not_ok "B ratios: $RB"
echo "$RB" | grep -q 'not significant: the 95 % confidence interval of the ratio includes 1' && ok "the mark is explained" \
	|| not_ok "no note: $RB"
echo "$RA" | grep -q '\*' && not_ok "A marks a ratio: $RA" || ok "nothing marked when all are significant"
grep -q 'not significant: the 95 %' "$T/b/report/report.html" && ok "html note" || not_ok "html note"
grep -q 'not significant' "$T/a/report/report.html" && not_ok "html note on A" || ok "no html note on A"
tap_end
