#!/bin/sh
# A mistyped device path under /dev must not benchmark RAM: /dev is
# devtmpfs, and `path: /dev/<no such disk>` used to validate and then run
# on a scratch file made in /dev.  A device missing on this machine is the
# machine's, not the suite's (a shipped suite names /dev/nvme0n1): validate
# warns with file:line:col and "no block device ... on this machine; did you
# mean /dev/<nearest>?" and exits 0, run refuses it (exit 2, nothing created
# in /dev, no result set).  A path there that exists and is not a block
# device (a character device) is an error for both; --device gets the same
# checks; /dev/shm (its own mount) stays usable.  The shipped suites that
# name /dev/nvme0n1 validate on a machine without one.
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
expect_exit 0 "$IOMATRIX" validate "$T/s.yaml"
grep -qF "$T/s.yaml:5:11: warning: device 'ssd': no block device /dev/$typo on this machine" "$T/err" &&
	ok "validate warns: position and cause" || not_ok "validate: $(cat "$T/err")"
grep -q "run refuses it here" "$T/err" && ok "the warning says run refuses it" ||
	not_ok "warning: $(cat "$T/err")"
grep -qF "$T/s.yaml: ok, 1 cell" "$T/out" && ok "validate says ok" || not_ok "validate out: $(cat "$T/out")"
if [ -n "$real" ]; then
	sug=$(sed -n 's/.*did you mean \([^?]*\)?.*/\1/p' "$T/err")
	[ -n "$sug" ] && [ -b "$sug" ] && ok "suggests a block device ($sug)" ||
		not_ok "suggestion: $(cat "$T/err")"
fi
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set"
grep -qF "$T/s.yaml:5:11: device 'ssd': no block device /dev/$typo" "$T/err" &&
	ok "run refuses: position and cause" || not_ok "run: $(cat "$T/err")"
if [ -n "$real" ]; then
	sug=$(sed -n 's/.*did you mean \([^?]*\)?.*/\1/p' "$T/err")
	[ -n "$sug" ] && [ -b "$sug" ] && ok "run suggests a block device ($sug)" ||
		not_ok "run's suggestion: $(cat "$T/err")"
fi
[ -e "/dev/$typo" ] && not_ok "a file was created in /dev" || ok "nothing created in /dev"
[ -e "$T/set" ] && not_ok "a result set was left" || ok "no result set"
# the same through --device, and for a character device
expect_exit 0 "$IOMATRIX" validate "$T/s.yaml" --device "ssd=/dev/$typo"
grep -qF -- "warning: --device ssd=/dev/$typo: no block device" "$T/err" && ok "--device checked" ||
	not_ok "--device: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device "ssd=/dev/$typo" --yes-destroy-data --out "$T/set"
grep -qF -- "--device ssd=/dev/$typo: no block device" "$T/err" && ok "run refuses --device" ||
	not_ok "run --device: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" validate "$T/s.yaml" --device ssd=/dev/null
grep -qF "no block device /dev/null (it is a character device)" "$T/err" &&
	ok "character device refused by validate" || not_ok "/dev/null: $(cat "$T/err")"
grep -q "warning" "$T/err" && not_ok "a character device is only a warning" || ok "character device is an error"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device ssd=/dev/null --yes-destroy-data --out "$T/set"
grep -qF "no block device /dev/null (it is a character device)" "$T/err" &&
	ok "character device refused by run" || not_ok "run /dev/null: $(cat "$T/err")"
[ -e "$T/set" ] && not_ok "a result set was left" || ok "still no result set"
# the shipped suites name /dev/nvme0n1: they validate on a machine without one
if [ ! -e /dev/nvme0n1 ]; then
	for f in snia-iops ssd-write-cliff; do
		expect_exit 0 "$IOMATRIX" validate "$ROOT/suites/$f.yaml"
		grep -q "warning: device 'ssd': no block device /dev/nvme0n1 on this machine" "$T/err" &&
			ok "suites/$f.yaml validates with a warning" || not_ok "suites/$f.yaml: $(cat "$T/err")"
	done
fi
# /dev/shm is its own filesystem, not /dev's: allowed (and warned about as RAM at run)
if [ "$(stat -c %d /dev/shm 2>/dev/null)" != "$(stat -c %d /dev 2>/dev/null)" ] && [ -d /dev/shm ]; then
	expect_exit 0 "$IOMATRIX" validate "$T/s.yaml" --device ssd=/dev/shm/iomatrix-devpath-$$
	ok "/dev/shm stays usable"
fi
tap_end
