#!/bin/sh
# A cell with steady_state repeats until the IOPS of its last `window`
# repetitions are steady (or `max` were run): every repetition is kept, the
# summary covers the window only, and a cell that never settles is
# reported as not steady.  Files, no root.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-steady-cell
defaults:
  engine: psync
  direct: false
  size: 2MiB
  runtime: 100ms
devices:
  - name: d
    path: /nonexistent/
include:
  - {pattern: randread, steady_state: {window: 3, range: 50%, slope: 50%, max: 6}}
  - {pattern: randread, bs: 8k, steady_state: {window: 3, range: 0.01%, slope: 0.01%, max: 4}}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch/" --out "$T/set" --quiet
# 1: loose limits: stops as soon as the last 3 are steady (3..6 of them),
#    and the verdict agrees with the stored repetitions
c="$T/set/cells/0001.json"
n=$(jq '.repetitions | length' "$c")
rng=$(jq '[.repetitions[-3:][] | .read.iops] | ((max - min) / (add / 3) * 100)' "$c")
if [ "$(jq .steady_state.steady "$c")" = true ]; then
	[ "$n" -ge 3 ] && [ "$n" -le 6 ] && [ "$(jq .steady_state.steady_rep "$c")" = "$n" ] &&
		awk "BEGIN { exit !($rng <= 50) }" &&
		ok "steady after $n repetitions (range of the last 3: $rng %)" ||
		not_ok "cell 1: $n reps, range $rng, $(jq -c .steady_state "$c")"
else
	[ "$n" = 6 ] && ok "not steady within 6 repetitions on this busy host (range $rng %)" ||
		not_ok "cell 1 not steady after only $n repetitions"
fi
[ "$(jq .summary.read.iops.n "$c")" = 3 ] && ok "summary over the window" || not_ok "summary n $(jq .summary.read.iops.n "$c")"
# 2: limits no real measurement meets: runs to max, summary over the last 3
c="$T/set/cells/0002.json"
[ "$(jq .steady_state.steady "$c")" = false ] && [ "$(jq '.repetitions | length' "$c")" = 4 ] &&
	ok "tight limits: not steady, ran max 4 repetitions, all kept" || not_ok "cell 2: $(jq -c '{s: .steady_state, n: (.repetitions|length)}' "$c")"
want=$(jq '[.repetitions[1:][] | .read.iops] | add / 3' "$c")
got=$(jq .summary.read.iops.mean "$c")
awk "BEGIN { d = $got - $want; exit !(d < 1e-6 * $want && d > -1e-6 * $want) }" &&
	ok "result is the average of the last 3 ($got)" || not_ok "summary mean $got, last-3 average $want"
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none
grep -q "not steady after 4 repetitions" "$T/rep/report.md" && ok "report warns" || not_ok "no warning in the report"
# the plan shows the range of durations
expect_exit 0 "$IOMATRIX" plan "$T/s.yaml" --device d="$T/scratch/"
grep -q "with steady_state cells: estimated duration 0s (steady at the first chance) .. 1s (never steady)" "$T/out" && ok "plan gives a duration range" ||
	not_ok "plan: $(tail -2 "$T/out")"
tap_end
