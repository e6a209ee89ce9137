#!/bin/sh
# A loop device over a file on tmpfs is RAM, not "virtual (loop): numbers
# include the host's caching": the fingerprint follows a loop device to its
# backing file's filesystem (loop_backing_fs) and a directory to its mount
# (here ext4 on such a loop device), and names the RAM kind; run warns and
# the report says "the device is RAM".  Silent side: a loop device over a
# file on a disk filesystem stays "virtual (loop)", never RAM.  And a
# non-rotational device written with no purge or preconditioning
# is of unknown state, never called fresh-out-of-box; a purged one, and RAM,
# get no such sentence.  Root, losetup; skips without a tmpfs /dev/shm.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd losetup
need_cmd jq
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs"
[ "$(stat -f -c %T "$T")" = tmpfs ] && skip "$T is on tmpfs: no disk-backed file to compare with"
RAMIMG=$(mktemp /dev/shm/iomatrix-loopram.XXXXXX) || fail "mktemp in /dev/shm"
L1=""; L2=""; MNT=""
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	[ -n "$L1" ] && losetup -d "$L1" 2>/dev/null
	[ -n "$L2" ] && losetup -d "$L2" 2>/dev/null
	rm -f "$RAMIMG"; rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
truncate -s 32M "$RAMIMG" "$T/disk.img" || fail "truncate"
L1=$(losetup -f --show "$RAMIMG" 2>/dev/null) || skip "no free loop device"
L2=$(losetup -f --show "$T/disk.img" 2>/dev/null) || skip "no second free loop device"
suite() { # NAME PURGE
	cat >"$T/$1.yaml" <<Y
suite: t-$1
defaults: {engine: psync, direct: true, size: 16MiB}
devices:
  - name: ssd
    path: /dev/null
    destructive: true$2
include:
  - {pattern: randwrite, bs: 4k, requests: 200}
Y
}
suite plain ""
suite purged "
    purge: discard"
fp() { jq -r ".devices[0].fingerprint.$2 // \"null\"" "$T/$1/manifest.json"; }

# loop over tmpfs: RAM
expect_exit 0 "$IOMATRIX" run "$T/plain.yaml" --device "ssd=$L1" --yes-destroy-data --out "$T/ram"
[ "$(fp ram virtual_kind)" = tmpfs ] && [ "$(fp ram loop_backing_fs)" = tmpfs ] &&
	ok "fingerprint: loop over tmpfs is tmpfs" || not_ok "fingerprint: $(jq -c .devices[0].fingerprint "$T/ram/manifest.json")"
grep -q "WARNING: device ssd ($L1) is RAM (tmpfs)" "$T/err" && ok "run warns: RAM" || not_ok "run: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" report "$T/ram" --charts none -o "$T/ram-rep"
grep -q "ssd: the device is RAM (tmpfs, a loop device over $RAMIMG), not storage" "$T/ram-rep/report.md" &&
	ok "report: RAM, through the loop device" || not_ok "report: $(grep -i 'ram\|virtual' "$T/ram-rep/report.md")"
grep -q "virtual (loop)" "$T/ram-rep/report.md" && not_ok "still called virtual (loop)" || ok "not called virtual (loop)"
grep -q "state is unknown\|fresh-out-of-box" "$T/ram-rep/report.md" && not_ok "a flash state claimed for RAM" ||
	ok "RAM: no flash state sentence"

# loop over a file on a disk filesystem: virtual, not RAM; state unknown.
# A loop device takes its backing disk's rotational flag (this VM's virtio
# disk says 1): ours is said non-rotational, as an SSD's file would be
echo 0 >"/sys/class/block/$(basename "$L2")/queue/rotational" 2>/dev/null
expect_exit 0 "$IOMATRIX" run "$T/plain.yaml" --device "ssd=$L2" --yes-destroy-data --out "$T/disk"
[ "$(fp disk virtual_kind)" = loop ] && ok "fingerprint: loop over a disk file stays loop" ||
	not_ok "disk fingerprint: $(jq -c .devices[0].fingerprint "$T/disk/manifest.json")"
grep -q "is RAM" "$T/err" && not_ok "run calls a disk file RAM" || ok "run: no RAM warning"
expect_exit 0 "$IOMATRIX" report "$T/disk" --charts none -o "$T/disk-rep"
grep -q "the device is RAM" "$T/disk-rep/report.md" && not_ok "report calls a disk file RAM" || ok "report: not RAM"
grep -q "ssd: the device is virtual (loop): numbers include the host's caching" "$T/disk-rep/report.md" &&
	ok "report: virtual (loop)" || not_ok "report: $(grep -i virtual "$T/disk-rep/report.md")"
if [ "$(cat "/sys/class/block/$(basename "$L2")/queue/rotational")" = 0 ]; then
	grep -q "ssd: writes were measured on a non-rotational device with no purge or preconditioning: its state is unknown" "$T/disk-rep/report.md" &&
		ok "no purge: state unknown" || not_ok "state: $(grep -i 'precondition' "$T/disk-rep/report.md")"
	grep -q "fresh-out-of-box" "$T/disk-rep/report.md" && not_ok "fresh-out-of-box claimed without a purge" ||
		ok "no purge: never called fresh-out-of-box"
	# purged: its state is known, nothing to say
	expect_exit 0 "$IOMATRIX" run "$T/purged.yaml" --device "ssd=$L2" --yes-destroy-data --out "$T/purged"
	expect_exit 0 "$IOMATRIX" report "$T/purged" --charts none -o "$T/purged-rep"
	grep -q "state is unknown\|fresh-out-of-box" "$T/purged-rep/report.md" && not_ok "a purged device's state questioned" ||
		ok "purged: no state sentence"
fi

# a directory on ext4 on the tmpfs-backed loop device: its mount's device is RAM
if command -v mkfs.ext4 >/dev/null 2>&1 && mkfs.ext4 -q -F "$L1" >/dev/null 2>&1 &&
   mkdir -p "$T/mnt" && mount "$L1" "$T/mnt" 2>/dev/null; then
	MNT=$T/mnt
	expect_exit 0 "$IOMATRIX" run "$T/plain.yaml" --device "ssd=$MNT" --out "$T/dir"
	[ "$(fp dir virtual_kind)" = tmpfs ] && [ "$(fp dir fs_type)" = ext4 ] &&
		ok "a directory on ext4 on the loop device is RAM (tmpfs)" || not_ok "dir: $(jq -c .devices[0].fingerprint "$T/dir/manifest.json")"
fi
tap_end
