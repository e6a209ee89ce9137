#!/bin/sh
# A SHA256SUMS with CRLF line ends (made on Windows, or
# mailed) is what 'sha256sum -c' accepts: it drops the CR.  verify said
# FAILED with "missing NAME\r" for every file; now it makes the same check
# (intact), and a changed file is still named.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-crlf
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/CR"
sed 's/$/\r/' "$T/CR/SHA256SUMS" >"$T/sums" && mv "$T/sums" "$T/CR/SHA256SUMS"
grep -q "$(printf '\r')" "$T/CR/SHA256SUMS" || fail "no CR written"
if command -v sha256sum >/dev/null; then
	(cd "$T/CR" && sha256sum -c --quiet SHA256SUMS) >/dev/null 2>&1 &&
		ok "sha256sum -c accepts the CRLF list" || not_ok "sha256sum -c refuses it here"
fi
expect_exit 0 "$IOMATRIX" verify "$T/CR"
grep -q ": intact (" "$T/out" && ok "verify: intact, as sha256sum -c" || not_ok "verify: $(cat -A "$T/out")"
echo "# changed" >>"$T/CR/plan.json"
expect_exit 1 "$IOMATRIX" verify "$T/CR"
grep -qx "  changed plan.json" "$T/out" && ok "a changed file is still named" || not_ok "$(cat -A "$T/out")"
tap_end
