#!/bin/sh
# A block device in use as swap is refused with the reason, for writes (even
# with destructive: true and --yes-destroy-data) and for reads, before any
# IO: exit 2, the device and "swap" named, no result set made.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd losetup
need_cmd mkswap
need_cmd swapon
# one test with a swap device at a time, machine-wide (tests run in
# parallel, and swapoff of a device the kernel paged onto takes a while)
test_lock swap
truncate -s 16M "$T/img" || skip "cannot create image"
loop=$(losetup -f --show "$T/img" 2>/dev/null) || skip "no loop device available"
cleanup() { swapoff "$loop" 2>/dev/null; losetup -d "$loop" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
mkswap "$loop" >/dev/null 2>&1 || skip "mkswap failed"
swapon "$loop" 2>/dev/null || skip "cannot swapon $loop (container?)"
grep -q "^$loop " /proc/swaps || skip "$loop not listed in /proc/swaps"
sum0=$(sha256sum "$T/img" | cut -d' ' -f1)
for pat in randwrite randread; do
	cat >"$T/s.yaml" <<Y
suite: t-swap
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: sw, path: $loop, destructive: true}
include:
  - {pattern: $pat, bs: 4k, requests: 10}
Y
	"$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set-$pat" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && ok "$pat on swap device: exit 2" || not_ok "$pat: exit $rc: $(cat "$T/err")"
	grep -q "swap" "$T/err" && grep -q "$loop" "$T/err" && ok "$pat: reason given: $(head -n 1 "$T/err")" \
		|| not_ok "$pat: message: $(cat "$T/err")"
	[ ! -e "$T/set-$pat" ] && ok "$pat: no result set made" || not_ok "$pat: set made"
done
swapoff "$loop"
[ "$(sha256sum "$T/img" | cut -d' ' -f1)" = "$sum0" ] && ok "swap area untouched" || not_ok "swap area written"
tap_end
