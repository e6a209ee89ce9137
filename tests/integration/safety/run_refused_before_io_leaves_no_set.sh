#!/bin/sh
# A run refused before any IO because the device directory cannot be
# written (EACCES, EROFS, EPERM: the user's input) exits 2 with the reason
# and leaves no failed result set behind, with --out or under
# IOMATRIX_RESULTS.  Root ignores mode bits, so as root the directory is a
# read-only bind mount (or chattr +i); skip when neither is possible.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/dev" "$T/results"
dev="$T/dev"
if [ "$(id -u)" = 0 ]; then
	mkdir "$T/ro"
	if mount --bind "$T/dev" "$T/ro" 2>/dev/null && mount -o remount,bind,ro "$T/ro" 2>/dev/null; then
		dev="$T/ro"
		trap 'umount "$T/ro" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
	elif chattr +i "$T/dev" 2>/dev/null; then
		umount "$T/ro" 2>/dev/null
		trap 'chattr -i "$T/dev" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
	else
		umount "$T/ro" 2>/dev/null
		skip "neither a read-only bind mount nor chattr +i is possible here"
	fi
else
	chmod 555 "$T/dev"
	trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT INT TERM
fi
cat >"$T/s.yaml" <<Y
suite: t-refused
defaults: {engine: psync, direct: false, size: 64KiB}
devices:
  - {name: d, path: $dev}
include:
  - {pattern: randread, bs: 4k, requests: 8}
  - {pattern: read, bs: 4k, requests: 8}
Y
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set"
grep -q "did any IO" "$T/err" && grep -qF "$dev" "$T/err" && ok "--out: exit 2, says why: $(grep -F "$dev" "$T/err" | head -n 1)" ||
	not_ok "--out: message: $(cat "$T/err")"
[ ! -e "$T/set" ] && ok "--out: no failed set left behind" || not_ok "--out: left: $(ls -R "$T/set")"
IOMATRIX_RESULTS="$T/results" expect_exit 2 "$IOMATRIX" run "$T/s.yaml"
[ -z "$(ls -A "$T/results")" ] && ok "IOMATRIX_RESULTS: no failed set left behind" ||
	not_ok "IOMATRIX_RESULTS: left: $(ls -A "$T/results")"
[ -z "$(ls -A "$T/dev")" ] && ok "nothing written in the device directory" || not_ok "written: $(ls -A "$T/dev")"
tap_end
