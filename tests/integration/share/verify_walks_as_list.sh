#!/bin/sh
# `verify DIR` checks exactly the sets `list DIR` shows, by the one set
# test and walker (resultset/setwalk.h): a set whose manifest is gone but
# whose cells/ is there (list shows it, "corrupt manifest"), a set in a
# subfolder, and not the repository's own examples/.  Such a set named
# directly is verified too ("no checksums"), not called "neither a result
# set nor a directory of sets" as verify's own walker did.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d" "$T/arch/sub" "$T/arch/examples"
cat >"$T/s.yaml" <<EOS
suite: walk
defaults: {engine: "null", size: 1MiB, requests: 16}
devices:
  - {name: d, path: $T/d}
matrix: {pattern: [randread]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/arch/2026-12-01T000000Z_walk_h" --quiet
A=$T/arch/2026-12-01T000000Z_walk_h
cp -r "$A" "$T/arch/sub/2026-12-02T000000Z_walk_h"
cp -r "$A" "$T/arch/examples/2026-12-03T000000Z_walk_h"
K=$T/arch/2026-12-04T000000Z_walk_h
cp -r "$A" "$K"
rm "$K/manifest.json" "$K/SHA256SUMS"

expect_exit 0 "$IOMATRIX" list "$T/arch"
awk 'NR > 1 && $NF ~ /^\// { print $NF }' "$T/out" | sort >"$T/listed"
grep -qx "$K" "$T/listed" && ok "list shows the set without a manifest" \
	|| not_ok "list: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" verify "$T/arch"
sed -n 's/^\(\/[^:]*\): .*/\1/p' "$T/out" | sort >"$T/verified"
if cmp -s "$T/listed" "$T/verified"; then
	ok "verify checks the $(wc -l <"$T/verified") sets list shows"
else
	not_ok "list and verify differ: $(diff "$T/listed" "$T/verified" | tr '\n' ' ')"
fi
[ "$(wc -l <"$T/verified")" = 3 ] && ok "the top set, the subfolder's, the manifest-less one" \
	|| not_ok "verified: $(cat "$T/out")"
grep -q "^$K: no checksums" "$T/out" && ok "the set without a manifest: no checksums" \
	|| not_ok "verify: $(cat "$T/out")"
grep -q examples "$T/out" && not_ok "verify checked the repository's own examples/" \
	|| ok "examples/ left out, as list leaves it out"
expect_exit 0 "$IOMATRIX" verify "$K"
grep -q "^$K: no checksums" "$T/out" && ok "named directly, it is verified" \
	|| not_ok "verify $K: $(cat "$T/out" "$T/err")"
tap_end
