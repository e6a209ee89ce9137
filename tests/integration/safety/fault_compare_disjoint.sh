#!/bin/sh
# compare of two sets that share no workload: nothing was compared, which is
# not "no regression" — exit 2 with a message naming --map, nothing written,
# and --fail-on-regression exits 2 too (never 0).  No crash (the empty
# comparison once passed NULL to qsort, which the sanitizer pass catches).
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
mk() { # name pattern device
	cat >"$T/$1.yaml" <<Y
suite: t-$1
defaults: {engine: "null", size: 1MiB, requests: 50}
devices:
  - {name: $3, path: /nonexistent}
include:
  - {pattern: $2, bs: 4k}
Y
	"$IOMATRIX" run "$T/$1.yaml" --device $3="$T/scratch" --out "$T/$1" --quiet >/dev/null 2>"$T/err" \
		|| fail "run $1: $(cat "$T/err")"
}
mk old randread d
mk new write d
expect_exit 2 "$IOMATRIX" compare "$T/old" "$T/new" -o "$T/cmp"
grep -q "no workload of .* matches one of" "$T/err" && ok "says nothing matched" || not_ok "stderr: $(cat "$T/err")"
grep -q -- "--map OLD=NEW" "$T/err" && ok "names --map" || not_ok "no --map hint"
[ -e "$T/cmp/compare.md" ] && not_ok "compare.md written for an empty comparison" || ok "nothing written"
expect_exit 2 "$IOMATRIX" compare "$T/old" "$T/new" -o "$T/cmp" --fail-on-regression
ok "--fail-on-regression with nothing matched exits 2"

# the same workload under another device name matches only with --map
mk renamed randread sata
expect_exit 2 "$IOMATRIX" compare "$T/old" "$T/renamed" -o "$T/cmp2"
ok "different device names do not match by themselves"
expect_exit 0 "$IOMATRIX" compare "$T/old" "$T/renamed" -o "$T/cmp2" --map d=sata
grep -q '^1 workload compared' "$T/out" && ok "--map pairs d with sata" || not_ok "map: $(cat "$T/out")"
grep -q 'd → sata' "$T/cmp2/compare.md" && ok "the table shows the pairing" || not_ok "pairing not shown"
expect_exit 2 "$IOMATRIX" compare "$T/old" "$T/renamed" -o "$T/cmp3" --map nope=sata
grep -q "no device 'nope'" "$T/err" && ok "unknown --map name exits 2" || not_ok "$(cat "$T/err")"
tap_end
