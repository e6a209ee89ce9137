#!/bin/sh
# Before destroying a block device, iomatrix says what is on it, as libblkid
# reads it (root, a loop device): the refusal without --yes-destroy-data and
# the line printed before the first write both name the filesystem, its
# label and UUID ("/dev/loopN holds ext4 'precious' (UUID ...)"); a
# partition table and an LVM signature are named too; a device that is a
# member of an active stack (held by a device-mapper device) is refused
# even with --yes-destroy-data, and nothing is written.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd blkid
truncate -s 16M "$T/img" || skip "cannot create image"
mkfs.ext4 -q -F -L precious "$T/img" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
loop=$(losetup -f --show "$T/img" 2>/dev/null) || skip "no loop device available"
dm=""
cleanup() { [ -n "$dm" ] && dmsetup remove "$dm" 2>/dev/null; losetup -d "$loop" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
uuid=$(blkid -p -o value -s UUID "$loop")
[ -n "$uuid" ] || skip "blkid reads no UUID from the test filesystem"
cat >"$T/s.yaml" <<Y
suite: t-signatures
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: disk, path: $loop, destructive: true}
include:
  - {pattern: randwrite, bs: 4k, requests: 10}
Y
sum0=$(sha256sum "$T/img" | cut -d' ' -f1)

# 1. the refusal names what would be destroyed
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set1"
grep -qF "$loop holds ext4 'precious' (UUID $uuid)" "$T/err" &&
	ok "refusal names the filesystem: $(cat "$T/err")" || not_ok "refusal: $(cat "$T/err")"
grep -q -- "--yes-destroy-data" "$T/err" && ok "refusal says the fix" || not_ok "no fix: $(cat "$T/err")"
[ "$(sha256sum "$T/img" | cut -d' ' -f1)" = "$sum0" ] && ok "refused: device untouched" || not_ok "written"

# 1b. so does the refusal of a purge
cat >"$T/p.yaml" <<Y
suite: t-signatures-purge
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: disk, path: $loop, destructive: true, purge: discard}
include:
  - {pattern: randread, bs: 4k, requests: 10}
Y
expect_exit 2 "$IOMATRIX" run "$T/p.yaml" --out "$T/setp"
grep -qF "$loop holds ext4 'precious' (UUID $uuid)" "$T/err" &&
	ok "purge refusal names the filesystem" || not_ok "purge refusal: $(cat "$T/err")"

# 2. an active stack on top of it: refused even with the flag
if command -v dmsetup >/dev/null 2>&1 &&
   dmsetup create "iomatrix-sig$$" --table "0 $(blockdev --getsz "$loop") linear $loop 0" 2>/dev/null; then
	dm="iomatrix-sig$$"
	expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set2"
	grep -q "member of an active stack" "$T/err" && grep -q "does not override" "$T/err" &&
		ok "held device refused with the flag: $(cat "$T/err")" || not_ok "held: $(cat "$T/err")"
	dmsetup remove "$dm" && dm=""
	[ "$(sha256sum "$T/img" | cut -d' ' -f1)" = "$sum0" ] && ok "held: device untouched" || not_ok "written"
fi

# 3. with both opt-ins: the line before the first write names it
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --quiet --out "$T/set3"
grep -qF "$loop holds ext4 'precious' (UUID $uuid): all of it will be overwritten" "$T/err" &&
	ok "notice before the first write" || not_ok "notice: $(cat "$T/err")"

# 4. a partition table (an MBR written by hand: no sfdisk needed)
dd if=/dev/zero of="$loop" bs=1M count=2 conv=fsync status=none
printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\020\000\000' |
	dd of="$loop" bs=1 seek=446 conv=notrunc,fsync status=none
printf '\125\252' | dd of="$loop" bs=1 seek=510 conv=notrunc,fsync status=none
blockdev --flushbufs "$loop" 2>/dev/null
pt=$(blkid -p -o value -s PTTYPE "$loop" 2>/dev/null)
if [ -n "$pt" ]; then
	expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set4"
	grep -qF "$loop holds a $pt partition table" "$T/err" &&
		ok "partition table named ($pt)" || not_ok "partition table: $(cat "$T/err")"
fi

# 5. an empty device says so rather than nothing
dd if=/dev/zero of="$loop" bs=1M count=4 conv=fsync status=none
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set5"
grep -qF "$loop holds no filesystem, partition table, RAID, LVM or crypt signature" "$T/err" &&
	ok "empty device: says nothing was found" || not_ok "empty: $(cat "$T/err")"
tap_end
