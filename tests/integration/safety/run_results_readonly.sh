#!/bin/sh
# A results directory that cannot be written is found before any IO:
# a clear message naming the directory and the fix, exit 2, no scratch file.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch" "$T/ro"
cat >"$T/s.yaml" <<'Y'
suite: t-ro
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randwrite, bs: 4k, requests: 10}
Y
if [ "$(id -u)" = 0 ]; then
	# root ignores permission bits: use a read-only mount
	mount -t tmpfs -o ro,size=1m none "$T/ro" 2>/dev/null || skip "cannot mount a read-only tmpfs"
	trap 'umount "$T/ro" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
else
	chmod 555 "$T/ro"
fi
IOMATRIX_RESULTS="$T/ro/results" expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch"
grep -q "$T/ro" "$T/err" && grep -qE "read-only|not writable" "$T/err" && ok "clear message: $(cat "$T/err")" \
	|| not_ok "message: $(cat "$T/err")"
grep -q "IOMATRIX_RESULTS\|--out" "$T/err" && ok "message names the fix" || not_ok "no fix named"
[ -z "$(ls "$T/scratch")" ] && ok "no IO done" || not_ok "scratch files: $(ls "$T/scratch")"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/ro/set"
grep -qE "read-only|not writable" "$T/err" && ok "--out on a read-only dir refused" || not_ok "message: $(cat "$T/err")"
[ "$(id -u)" = 0 ] || chmod 755 "$T/ro"
tap_end
