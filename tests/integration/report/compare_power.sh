#!/bin/sh
# compare judges a change by the confidence interval of the ratio new/old
# (logs of the repetitions, Bonferroni over the comparison) against the
# threshold.  The case a user reported: 16 workloads at 3 repetitions, one
# going from [8383, 7132, 11788] to [473, 492, 463] IOPS, was "within noise"
# (Welch on raw values, p 0.401) and --fail-on-regression exited 0; it is a
# regression, exit 3.  Two identical steady sets give "no change" everywhere;
# identical noisy sets give no regression and no improvement; a change the
# data cannot rule out is "inconclusive", and --fail-on-inconclusive exits 4.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd jq
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$@" >/dev/null || fail "generator failed"; }
reps() { # set cell v1 v2 v3: the read IOPS of the cell's three repetitions
	f="$1/cells/$2.json"
	jq --argjson a "$3" --argjson b "$4" --argjson c "$5" "$JQ_AGREE"'
		.repetitions[0].read |= iops_to($a) | .repetitions[1].read |= iops_to($b) |
		.repetitions[2].read |= iops_to($c) | resummary' "$f" >"$f.new" && mv "$f.new" "$f" || fail "jq"
	rm -f "$1/SHA256SUMS"
}
# 2 devices x 8 cells: 16 workloads; cell 0001 is 4K random read
gen "$T/old" --cells 8 --repeat 3 --seed 1 --noise 0.005
cp -r "$T/old" "$T/same"

expect_exit 0 "$IOMATRIX" compare "$T/old" "$T/same" -o "$T/c0" --fail-on-regression --fail-on-inconclusive
grep -q '16 workloads compared: 0 regressions, 0 improvements, 16 with no change' "$T/out" &&
	ok "identical steady sets: no change on all 16" || not_ok "steady: $(sed -n 2p "$T/out")"

cp -r "$T/old" "$T/new"
reps "$T/old" 0001 8383 7132 11788
reps "$T/new" 0001 473 492 463
expect_exit 3 "$IOMATRIX" compare "$T/old" "$T/new" -o "$T/c1" --fail-on-regression
grep -q 'regression .*4K random read.*IOPS -94' "$T/out" &&
	ok "-94 % at 3 repetitions is a regression, exit 3" || not_ok "$(cat "$T/out")"
jq -e '[.rows[] | select(.verdict == "regression")][0] | .ratio_ci_high < 0.95' "$T/c1/compare.json" >/dev/null &&
	ok "its whole ratio interval lies below 1 - threshold" || not_ok "ratio interval: $(jq -c '.rows[0]' "$T/c1/compare.json")"

# a -20 % change inside wide noise: neither shown nor ruled out
cp -r "$T/same" "$T/old2"
cp -r "$T/same" "$T/new2"
reps "$T/old2" 0001 1000 1500 700
reps "$T/new2" 0001 800 1200 560
expect_exit 0 "$IOMATRIX" compare "$T/old2" "$T/new2" -o "$T/c2" --fail-on-regression
grep -q '1 inconclusive' "$T/out" && grep -q 'inconclusive (−20.0 %, 3 reps)' "$T/c2/compare.md" &&
	ok "a wide -20 % is inconclusive, with its size and repetitions" || not_ok "$(sed -n 2p "$T/out")"
grep -q 'within noise' "$T/c2/compare.md" && not_ok "said 'within noise'" || ok "never 'within noise'"
expect_exit 4 "$IOMATRIX" compare "$T/old2" "$T/new2" -o "$T/c2" --fail-on-inconclusive
ok "--fail-on-inconclusive exits 4"

# identical noisy sets: whatever is inconclusive, nothing changed
gen "$T/noisy" --cells 8 --repeat 3 --seed 2 --noise 0.2
cp -r "$T/noisy" "$T/noisy2"
expect_exit 0 "$IOMATRIX" compare "$T/noisy" "$T/noisy2" -o "$T/c3" --fail-on-regression
grep -q '0 regressions, 0 improvements' "$T/out" &&
	ok "identical noisy sets: no regression, no improvement" || not_ok "$(sed -n 2p "$T/out")"
tap_end
