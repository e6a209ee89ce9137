#!/bin/sh
# compare on two REAL committed sets with a known difference
# (results/reference/*_ref-fsync_vm, made from tests/report/ref-fsync.yaml):
# the second run put the "disk" device on tmpfs, where fsync is free, so its
# fsync'd writes are an improvement; compared the other way round they are
# a regression and --fail-on-regression exits 3.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
A=results/reference/2026-11-30T034243Z_ref-fsync_vm
B=results/reference/2026-11-30T034258Z_ref-fsync_vm
[ -d "$A" ] && [ -d "$B" ] || fail "reference sets missing"

expect_exit 0 "$IOMATRIX" compare "$A" "$B" -o "$T/c1" --fail-on-regression
grep -q 'improvement disk: 4K random write.*IOPS +' "$T/out" && ok "disk fsync writes improved" \
	|| not_ok "no improvement: $(cat "$T/out")"
grep -q 'regression  disk' "$T/out" && not_ok "disk regression the wrong way" || ok "no disk regression"
grep -q ' 0 regressions' "$T/out" && ok "no regression at all" || not_ok "$(sed -n 2p "$T/out")"

expect_exit 3 "$IOMATRIX" compare "$B" "$A" -o "$T/c2" --fail-on-regression
grep -q 'regression  disk: 4K random write.*IOPS -' "$T/out" && ok "reversed: regression, exit 3" \
	|| not_ok "reversed: $(cat "$T/out")"
grep -q '| \*\*regression\*\* |' "$T/c2/compare.md" && ok "compare.md marks it" || not_ok "compare.md"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --html --noout "$T/c2/compare.html" 2>&1 | grep -E 'error' \
		| grep -v -E 'Tag [A-Za-z]+ invalid' >"$T/xl"
	[ -s "$T/xl" ] && not_ok "compare.html errors" || ok "compare.html parses"
fi
tap_end
