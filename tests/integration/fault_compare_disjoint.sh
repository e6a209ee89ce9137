#!/bin/sh
# compare of two sets that share no cell (different workloads): says so and
# exits 0, no crash (the empty comparison once passed NULL to qsort, which
# the sanitizer pass catches).
. "$(dirname "$0")/../lib.sh"
mkdir -p "$T/scratch"
mk() { # name pattern
	cat >"$T/$1.yaml" <<Y
suite: t-$1
defaults: {engine: "null", size: 1MiB, requests: 50}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: $2, bs: 4k}
Y
	"$IOMATRIX" run "$T/$1.yaml" --device d="$T/scratch" --out "$T/$1" --quiet >/dev/null 2>"$T/err" \
		|| fail "run $1: $(cat "$T/err")"
}
mk old randread
mk new write
expect_exit 0 "$IOMATRIX" compare "$T/old" "$T/new" -o "$T/cmp"
grep -q "^0 comparisons" "$T/out" && ok "says 0 comparisons" || not_ok "stdout: $(cat "$T/out")"
grep -q "only in OLD" "$T/out" && ok "names the unmatched cells" || not_ok "stdout: $(cat "$T/out")"
[ -s "$T/cmp/compare.md" ] && ok "compare.md written" || not_ok "no compare.md"
tap_end
