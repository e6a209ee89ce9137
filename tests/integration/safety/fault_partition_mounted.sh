#!/bin/sh
# A disk one of whose partitions is mounted is refused as a whole, before
# any IO, with the partition named: a partitioned loop device (MBR written
# here, losetup -P), ext4 on partition 1, mounted; then the whole disk as a
# device, for writes and for reads.  (A device "held by" another, dm/md, is
# tested in run_blockdev_guard.sh when dmsetup is present.)
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd python3
truncate -s 24M "$T/img" || skip "cannot create image"
# one Linux partition from sector 2048 to the end
python3 - "$T/img" <<'PY' || skip "cannot write a partition table"
import struct, sys
f = open(sys.argv[1], "r+b")
total = 24 * 1024 * 1024 // 512
entry = struct.pack("<B3sB3sII", 0, b"\xff\xff\xff", 0x83, b"\xff\xff\xff", 2048, total - 2048)
f.seek(446); f.write(entry + b"\0" * 48 + b"\x55\xaa")
PY
loop=$(losetup -f --show -P "$T/img" 2>/dev/null) || skip "no loop device available"
mkdir -p "$T/mnt"
cleanup() { umount "$T/mnt" 2>/dev/null; losetup -d "$loop" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
part=${loop}p1
sys=/sys/block/$(basename "$loop")/$(basename "$part")
[ -d "$sys" ] || partx -a "$loop" 2>/dev/null || blockdev --rereadpt "$loop" 2>/dev/null
if [ ! -b "$part" ] && [ -f "$sys/dev" ]; then
	# the kernel knows the partition (sysfs) but /dev has no node yet (no
	# udev here, or not yet): make it from the kernel's numbers rather
	# than wait for it
	mknod "$part" b "$(cut -d: -f1 "$sys/dev")" "$(cut -d: -f2 "$sys/dev")" 2>/dev/null
fi
[ -b "$part" ] || skip "no partition device $part (partition scan unavailable)"
mkfs.ext4 -q -F "$part" >/dev/null 2>&1 || skip "mkfs.ext4 on $part failed"
mount "$part" "$T/mnt" 2>/dev/null || skip "cannot mount $part"
for pat in randwrite randread; do
	cat >"$T/s.yaml" <<Y
suite: t-part
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: disk, path: $loop, destructive: true}
include:
  - {pattern: $pat, bs: 4k, requests: 10}
Y
	"$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set-$pat" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && ok "$pat on a disk with a mounted partition: exit 2" || not_ok "$pat: exit $rc: $(cat "$T/err")"
	grep -q "mounted" "$T/err" && grep -q "$(basename "$part")" "$T/err" && ok "$pat: names the partition: $(head -n 1 "$T/err")" \
		|| not_ok "$pat: message: $(cat "$T/err")"
	[ ! -e "$T/set-$pat" ] && ok "$pat: no result set made" || not_ok "$pat: set made"
done
[ -f "$T/mnt/lost+found" ] || [ -d "$T/mnt/lost+found" ] && ok "filesystem on the partition intact" \
	|| not_ok "filesystem damaged"
tap_end
