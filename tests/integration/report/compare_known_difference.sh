#!/bin/sh
# `iomatrix compare` on two synthetic sets where the ssd got 20 % slower:
# its workloads are regressions, the hdd's are not, workloads on one side
# only are listed, --fail-on-regression exits 3, a small change stays below
# the threshold, and single runs get no verdict.  (Synthetic sets test the logic; real reference sets are
# compared in compare_reference_sets.sh.)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$@" >/dev/null || fail "generator failed"; }

gen "$T/old" --cells 4 --repeat 3 --seed 1
gen "$T/new" --cells 5 --repeat 3 --seed 2 --perf ssd=0.8 --started 2026-12-01T00:00:00Z

expect_exit 0 "$IOMATRIX" compare "$T/old" "$T/new" -o "$T/cmp"
grep -q 'regression  ssd: 4K random read.*IOPS -' "$T/out" \
	&& ok "ssd IOPS drop is a regression" || not_ok "no ssd regression: $(cat "$T/out")"
grep -q 'regression  hdd' "$T/out" && not_ok "hdd called a regression" || ok "hdd unchanged"
grep -q '0 workloads only in old.*2 only in new' "$T/out" && ok "one-side workloads counted" \
	|| not_ok "one-side count: $(cat "$T/out")"
for f in compare.md compare.html; do [ -s "$T/cmp/$f" ] && ok "$f written" || not_ok "$f"; done
grep -q '^## Only in the new set' "$T/cmp/compare.md" && ok "one-side cells listed" || not_ok "one-side list"
grep -q '| \*\*regression\*\* |' "$T/cmp/compare.md" && ok "markdown marks regressions" || not_ok "md verdict"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["counts"]["regression"] >= 1; assert all(r["verdict"] for r in j["rows"])' "$T/cmp/compare.json" \
	&& ok "compare.json parses with counts" || not_ok "compare.json"
# one verdict per workload: no workload appears twice in the table
d=$(grep '^| ssd |' "$T/cmp/compare.md" | cut -d'|' -f3 | sort | uniq -d)
[ -z "$d" ] && ok "one row per workload" || not_ok "repeated workload rows: $d"
grep -q 'disk@\|#1' "$T/cmp/compare.md" && not_ok "set-index labels in compare" || ok "old/new labels, no #1"
if command -v cmark-gfm >/dev/null 2>&1; then
	n=$(cmark-gfm -e table "$T/cmp/compare.md" | grep -c '<table>')
	[ "$n" = 2 ] && ok "compare tables render" || not_ok "compare tables: $n"
fi

expect_exit 3 "$IOMATRIX" compare "$T/old" "$T/new" -o "$T/cmp" --fail-on-regression
ok "--fail-on-regression exits 3"

# a 2 % change is below the default threshold: no regression, exit 0
gen "$T/new2" --cells 4 --repeat 3 --seed 3 --perf ssd=0.98
expect_exit 0 "$IOMATRIX" compare "$T/old" "$T/new2" -o "$T/cmp2" --fail-on-regression
grep -q ' 0 regressions' "$T/out" && ok "small change is not a regression" || not_ok "$(sed -n 2p "$T/out")"
# single runs cannot be judged, however large the change
gen "$T/o1" --cells 2 --seed 1 --noise 0
gen "$T/n1" --cells 2 --seed 1 --noise 0 --perf ssd=0.5
expect_exit 0 "$IOMATRIX" compare "$T/o1" "$T/n1" -o "$T/cmp3" --threshold 1 --fail-on-regression
grep -q ' 0 regressions' "$T/out" && ok "single runs: no regression" || not_ok "$(sed -n 2p "$T/out")"
grep -q 'not enough repetitions to judge' "$T/cmp3/compare.md" && ok "single runs: not enough repetitions" \
	|| not_ok "no 'not enough repetitions'"
# noisy repetitions: a 6 % drop inside the noise can be neither shown nor
# ruled out: "inconclusive", never "within noise"
gen "$T/o2" --cells 1 --repeat 3 --seed 5 --noise 0.2
gen "$T/n2" --cells 1 --repeat 3 --seed 6 --noise 0.2 --perf ssd=0.94 --perf hdd=0.94
expect_exit 0 "$IOMATRIX" compare "$T/o2" "$T/n2" -o "$T/cmp4" --fail-on-regression
grep -q 'inconclusive' "$T/cmp4/compare.md" && ! grep -q 'within noise' "$T/cmp4/compare.md" &&
	ok "noisy change is inconclusive" || not_ok "noise: $(sed -n 2p "$T/out")"

expect_exit 2 "$IOMATRIX" compare "$T/old"
expect_exit 2 "$IOMATRIX" compare "$T/old" "$T/missing"
ok "bad usage exits 2"
tap_end
