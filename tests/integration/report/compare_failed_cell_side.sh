#!/bin/sh
# compare lists a workload whose cell failed on the side that still has
# it: failed in the new set, it is "only in the old set (or failed in the
# new one)" with why "failed in the new set", in stdout's count,
# compare.md and compare.json; failed in the old set, the other way
# round.  Where no cell failed, neither list names a failure.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd jq
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$@" >/dev/null || fail "generator failed"; }

gen "$T/ok" --devices ssd:ssd --cells 3 --repeat 3 --seed 1
gen "$T/bad" --devices ssd:ssd --cells 3 --repeat 3 --seed 1 --failed 1

expect_exit 0 "$IOMATRIX" compare "$T/ok" "$T/bad" -o "$T/c1"
grep -q '^1 workload only in old (or failed in new), 0 only in new (or failed in old)$' "$T/out" &&
	ok "failed in new: counted as only in old" || not_ok "count: $(cat "$T/out")"
sed -n '/^## Only in the old set (or failed in the new one)/,/^## /p' "$T/c1/compare.md" |
	grep -q '^| ssd | .* (failed in the new set) |$' && ! grep -q '^## Only in the new set' "$T/c1/compare.md" &&
	ok "compare.md lists it under the old set" || not_ok "md: $(grep -n -A5 '^## Only' "$T/c1/compare.md")"
[ "$(jq -c '[.only_old[].why, (.only_new | length)]' "$T/c1/compare.json")" = '["failed in the new set",0]' ] &&
	ok "compare.json: only_old holds it, with why" || not_ok "json: $(jq -c '.only_old, .only_new' "$T/c1/compare.json")"

expect_exit 0 "$IOMATRIX" compare "$T/bad" "$T/ok" -o "$T/c2"
grep -q '^0 workloads only in old (or failed in new), 1 only in new (or failed in old)$' "$T/out" &&
	[ "$(jq -c '[(.only_old | length), .only_new[].why]' "$T/c2/compare.json")" = '[0,"failed in the old set"]' ] &&
	ok "failed in old: only in new, with why" || not_ok "reverse: $(cat "$T/out"; jq -c '.only_old, .only_new' "$T/c2/compare.json")"

expect_exit 0 "$IOMATRIX" compare "$T/ok" "$T/ok" -o "$T/c3"
grep -q 'only in old' "$T/out" || grep -q 'failed in the' "$T/c3/compare.md" ||
	[ "$(jq -c '[.only_old, .only_new]' "$T/c3/compare.json")" != '[[],[]]' ] &&
	not_ok "a failure named where none is: $(cat "$T/out")" || ok "no failure, no one-side list"
tap_end
