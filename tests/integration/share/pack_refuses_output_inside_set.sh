#!/bin/sh
# 'pack SET -o SET/self.tar.gz' put the pack inside the
# set, which then failed verify (an extra file).  Any output inside the
# set, however spelled (a subdirectory, '..', a link to it), is refused
# with exit 2 and nothing written; the set still verifies.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-self
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/SELF"
ln -s "$T/SELF/cells" "$T/link"
for out in "$T/SELF/self.tar.gz" "$T/SELF/cells/../cells/x.tar.gz" "$T/link/y.tar.gz"; do
	expect_exit 2 "$IOMATRIX" pack "$T/SELF" -o "$out"
	grep -q "is inside the set" "$T/err" && ok "refused: $out" || not_ok "$out: $(cat "$T/err")"
done
expect_exit 0 "$IOMATRIX" verify "$T/SELF"
grep -q intact "$T/out" && ok "the set still verifies" || not_ok "$(cat "$T/out")"
expect_exit 0 "$IOMATRIX" pack "$T/SELF" -o "$T/SELF.tar.gz"
ok "beside the set: packed"
tap_end
