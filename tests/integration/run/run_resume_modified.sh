#!/bin/sh
# --resume refuses a suite that is not the one the set was made from
# (sha256 differs): exit 2, and the set is left untouched.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-resume
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 10}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
cp "$T/set/manifest.json" "$T/before.json"
sed 's/requests: 10/requests: 11/' "$T/s.yaml" >"$T/s2.yaml"
expect_exit 2 "$IOMATRIX" run "$T/s2.yaml" --resume "$T/set" --quiet
grep -q "differs" "$T/err" && grep -q "sha256" "$T/err" && ok "message names the sha256 mismatch" \
	|| not_ok "message: $(cat "$T/err")"
cmp -s "$T/before.json" "$T/set/manifest.json" && ok "set untouched" || not_ok "manifest changed"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --resume "$T/nope" --quiet
ok "resume of a missing set exits 2"
tap_end
