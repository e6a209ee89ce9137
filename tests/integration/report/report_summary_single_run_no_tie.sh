#!/bin/sh
# A workload one device ran once has no confidence interval: the summary
# gives it no verdict and names it so ("no verdict on 1: ... (it ran once,
# ...)"), instead of counting a 3.3x gap as a tie (the example report's
# sustained write); a noisy difference measured three times on each side
# is still named as not significant, and a set where every workload ran
# three times says nothing of single runs.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/a.json" <<'EOS'
[{"pattern":"randread","bs":4096,"hdd":[200,0.02],"ssd":[20000,0.02]},
 {"pattern":"read","bs":1048576,"hdd":[404,0.17],"ssd":[543,0.59]},
 {"pattern":"write","bs":1048576,"qd":32,"hdd":[2630,0.02],"ssd":[802,0.02],"reps":1},
 {"pattern":"write","bs":131072,"qd":32,"hdd":[1000,0.02],"ssd":[400,0.02]}]
EOS
# b: the same, every workload three times
sed 's/,"reps":1//' "$T/a.json" >"$T/b.json"
for x in a b; do
	python3 "$ROOT/tests/report/gen_pair.py" "$T/$x" "$T/$x.json" || fail "generator failed"
	expect_exit 0 "$IOMATRIX" report "$T/$x" --charts none --format md --baseline hdd
done
SA=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/a/report/report.md")
SB=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/b/report/report.md")
echo "$SA" | grep -q 'no verdict on 1: 1M sequential writes at QD32 (it ran once, so no confidence interval decides it)' \
	&& ok "the single run: no verdict, and why" || not_ok "A: $SA"
echo "$SA" | grep -q 'no significant difference on 1: 1M sequential reads at QD1 (' \
	&& ok "the noisy difference: named as not significant" || not_ok "A: $SA"
echo "$SA" | grep -q 'no significant difference on 2' \
	&& not_ok "the single run counted as a tie: $SA" || ok "the single run is not a tie"
echo "$SA" | grep -q 'ssd wins 1 of 4 workloads' && ok "the single run is counted in the total" \
	|| not_ok "A: $SA"
echo "$SB" | grep -q 'no verdict\|ran once' && not_ok "B speaks of single runs: $SB" \
	|| ok "repeated everywhere: nothing about single runs"
echo "$SB" | grep -q 'hdd wins 1M sequential writes at QD32 and 128K sequential writes at QD32' \
	&& ok "repeated: the gap is a win" || not_ok "B: $SB"
tap_end
