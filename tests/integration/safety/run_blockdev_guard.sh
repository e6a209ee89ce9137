#!/bin/sh
# The block-device guard (root, a loop device): a mounted device is refused
# even with destructive: true and --yes-destroy-data; an unmounted one needs
# both (and is written only then); reads need neither; a device used as swap
# or held by another (dm, when dmsetup exists) is refused.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
# one test with a swap device at a time, machine-wide (tests run in
# parallel, and swapoff of a device the kernel paged onto takes a while)
test_lock swap
truncate -s 16M "$T/img" || skip "cannot create image"
mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
loop=$(losetup -f --show "$T/img" 2>/dev/null) || skip "no loop device available"
mkdir -p "$T/mnt"
cleanup() { swapoff "$loop" 2>/dev/null; umount "$T/mnt" 2>/dev/null; losetup -d "$loop" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
mount "$loop" "$T/mnt" 2>/dev/null || skip "cannot mount $loop"
mk() { # destructive
	cat >"$T/s.yaml" <<Y
suite: t-guard
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: disk, path: $loop, destructive: $1}
include:
  - {pattern: randwrite, bs: 4k, requests: 10}
Y
}
mk true
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set1"
grep -q "mounted" "$T/err" && grep -q "$loop" "$T/err" && ok "mounted device refused: $(cat "$T/err")" \
	|| not_ok "message: $(cat "$T/err")"
[ ! -e "$T/set1" ] && ok "no result set created" || not_ok "set created"
umount "$T/mnt"
sum0=$(sha256sum "$T/img" | cut -d' ' -f1)
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set2"
grep -q -- "--yes-destroy-data" "$T/err" && ok "unmounted device needs --yes-destroy-data" \
	|| not_ok "message: $(cat "$T/err")"
mk false
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set3"
grep -q "destructive: true" "$T/err" && ok "device needs destructive: true" || not_ok "message: $(cat "$T/err")"
# reading an unmounted device needs neither
cat >"$T/r.yaml" <<Y
suite: t-guard-read
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: disk, path: $loop}
include:
  - {pattern: randread, bs: 4k, requests: 10}
Y
expect_exit 0 "$IOMATRIX" run "$T/r.yaml" --out "$T/set4" --quiet
ok "reading an unmounted block device is allowed"
[ "$(sha256sum "$T/img" | cut -d' ' -f1)" = "$sum0" ] && ok "device data untouched" || not_ok "device was written"
# with both confirmations, an unmounted device is written
mk true
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set6" --quiet
[ "$(sha256sum "$T/img" | cut -d' ' -f1)" != "$sum0" ] && ok "destructive + --yes-destroy-data writes the device" \
	|| not_ok "device not written"
# a device used as swap is refused
if command -v mkswap >/dev/null 2>&1 && mkswap "$loop" >/dev/null 2>&1 && swapon "$loop" 2>/dev/null; then
	expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set7"
	swapoff "$loop"
	grep -q "swap" "$T/err" && ok "swap device refused: $(cat "$T/err")" || not_ok "message: $(cat "$T/err")"
fi
if command -v dmsetup >/dev/null 2>&1 && \
   dmsetup create iomatrix-t$$ --table "0 $(blockdev --getsz "$loop") linear $loop 0" 2>/dev/null; then
	mk true
	expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set5"
	dmsetup remove iomatrix-t$$
	grep -q "held by" "$T/err" && ok "held device refused" || not_ok "message: $(cat "$T/err")"
fi
tap_end
