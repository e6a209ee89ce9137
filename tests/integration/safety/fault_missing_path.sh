#!/bin/sh
# A device path whose parent does not exist, and a file path inside a
# regular file, are bad input found before any IO: exit 2, a message that
# names the device, the path and the fix, no result set made.
. "$(dirname "$0")/../../lib.sh"
echo data >"$T/afile"
for p in "$T/missing/deeper/dir" "$T/afile/sub"; do
	cat >"$T/s.yaml" <<Y
suite: t-missing
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: d, path: $p}
include:
  - {pattern: randread, bs: 4k, requests: 10}
Y
	rm -rf "$T/set"
	"$IOMATRIX" run "$T/s.yaml" --out "$T/set" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && ok "'$p': exit 2" || not_ok "'$p': exit $rc: $(cat "$T/err")"
	grep -q "'d'" "$T/err" && grep -qF "$p" "$T/err" && grep -q -- "--device" "$T/err" \
		&& ok "'$p': message names device, path and fix" || not_ok "'$p': message: $(cat "$T/err")"
	[ ! -e "$T/set" ] && ok "'$p': no result set made" || not_ok "'$p': set made"
	[ ! -e "$T/missing" ] && ok "'$p': nothing created on the way" || not_ok "'$p': created $T/missing"
done
tap_end
