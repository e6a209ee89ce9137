#!/bin/sh
# A SHA256SUMS is read as `sha256sum -c` reads it: a list a user made with
# `find . -type f | xargs sha256sum` names './cells/0001.json', which
# sha256sum -c accepts, and iomatrix said "malformed line" on every line.
# Now every form sha256sum -c takes (./, //, blanks, '*', the tagged
# "SHA256 (NAME) = HEX" of --tag, comments) verifies the same; a name
# outside the set ('..') is said so, in one line, and the set fails.
. "$(dirname "$0")/../../lib.sh"
need_cmd sha256sum
mkdir -p "$T/d"
cat >"$T/s.yaml" <<Y
suite: t-sums
defaults: {engine: null, size: 1MiB, requests: 64}
devices:
  - {name: d, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/set"
cd "$T/set" || fail "cd"
find . -type f ! -name SHA256SUMS | LC_ALL=C sort | xargs sha256sum >SHA256SUMS
sha256sum -c --strict --quiet SHA256SUMS || fail "sha256sum -c refuses its own list"
expect_exit 0 "$IOMATRIX" verify "$T/set"
grep -q "^$T/set: intact (4 files)" "$T/out" && ok "./cells/... as find | xargs sha256sum writes it: intact" ||
	not_ok "./ names: $(cat "$T/out")"
find . -type f ! -name SHA256SUMS | LC_ALL=C sort | xargs sha256sum --tag >SHA256SUMS
sed -i '1i # made with sha256sum --tag' SHA256SUMS
sha256sum -c --strict --quiet SHA256SUMS || fail "sha256sum -c refuses its --tag list"
expect_exit 0 "$IOMATRIX" verify "$T/set"
grep -q "^$T/set: intact (4 files)" "$T/out" && ok "--tag and a comment: intact" || not_ok "tag: $(cat "$T/out")"
sed -i 's|(\./plan.json)|(./cells/../plan.json)|' SHA256SUMS
sha256sum -c --strict --quiet SHA256SUMS || fail "sha256sum -c refuses the .. name"
expect_exit 1 "$IOMATRIX" verify "$T/set"
grep -q "a name outside the set ('/' first, '..') or a directory ('/' last) at SHA256SUMS:[0-9]*:" "$T/out" &&
	grep -q "extra plan.json" "$T/out" && ok "a '..' name: said why, the set fails" || not_ok "..: $(cat "$T/out")"
tap_end
