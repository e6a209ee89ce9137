#!/bin/sh
# A mistyped device path under /dev must not benchmark RAM: /dev is
# devtmpfs, and `path: /dev/<no such disk>` used to validate and then run
# on a scratch file made in /dev.  validate and run exit 2 with
# file:line:col and "no block device ...; did you mean /dev/<nearest>?",
# --device gets the same check, a character device is refused too, nothing
# is created in /dev and no result set is left; /dev/shm (its own mount)
# stays usable.
. "$(dirname "$0")/../../lib.sh"
# an existing block device to misspell
real=""
for d in /sys/class/block/*; do
	n=$(basename "$d")
	[ -b "/dev/$n" ] && { real=$n; break; }
done
typo=${real:-nosuchdisk}zz
[ -e "/dev/$typo" ] && skip "/dev/$typo exists"
cleanup() { [ -f "/dev/$typo" ] && rm -f "/dev/$typo"; rm -rf "$T"; }
trap cleanup EXIT INT TERM
cat >"$T/s.yaml" <<Y
suite: t-devpath
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - name: ssd
    path: /dev/$typo
    destructive: true
include:
  - {pattern: randwrite, bs: 4k, requests: 10}
Y
expect_exit 2 "$IOMATRIX" validate "$T/s.yaml"
grep -qF "$T/s.yaml:5:11: device 'ssd': no block device /dev/$typo" "$T/err" &&
	ok "validate: position and cause" || not_ok "validate: $(cat "$T/err")"
[ -s "$T/out" ] && not_ok "validate printed ok: $(cat "$T/out")" || ok "validate does not say ok"
if [ -n "$real" ]; then
	sug=$(sed -n 's/.*did you mean \([^?]*\)?.*/\1/p' "$T/err")
	[ -n "$sug" ] && [ -b "$sug" ] && ok "suggests a block device ($sug)" ||
		not_ok "suggestion: $(cat "$T/err")"
fi
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set"
grep -q "no block device /dev/$typo" "$T/err" && ok "run refuses" || not_ok "run: $(cat "$T/err")"
[ -e "/dev/$typo" ] && not_ok "a file was created in /dev" || ok "nothing created in /dev"
[ -e "$T/set" ] && not_ok "a result set was left" || ok "no result set"
# the same through --device, and for a character device
expect_exit 2 "$IOMATRIX" validate "$T/s.yaml" --device "ssd=/dev/$typo"
grep -qF -- "--device ssd=/dev/$typo: no block device" "$T/err" && ok "--device checked" ||
	not_ok "--device: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" validate "$T/s.yaml" --device ssd=/dev/null
grep -qF "no block device /dev/null (it is a character device)" "$T/err" &&
	ok "character device refused" || not_ok "/dev/null: $(cat "$T/err")"
# /dev/shm is its own filesystem, not /dev's: allowed (and warned about as RAM at run)
if [ "$(stat -c %d /dev/shm 2>/dev/null)" != "$(stat -c %d /dev 2>/dev/null)" ] && [ -d /dev/shm ]; then
	expect_exit 0 "$IOMATRIX" validate "$T/s.yaml" --device ssd=/dev/shm/iomatrix-devpath-$$
	ok "/dev/shm stays usable"
fi
tap_end
