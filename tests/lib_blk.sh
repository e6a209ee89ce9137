# Sourced after tests/lib.sh by tests that need a real block device and a
# bandwidth limit they can change mid-run: a loop device over a file in $T,
# and a cgroup-v1 blkio group (name carries the branch, i12) whose
# blkio.throttle.write_bps_device the test writes while iomatrix runs.
# Everything is undone on exit.  Needs root; skips (77) with the reason.
BLK_LOOP=""; BLK_CG=""; BLK_MM=""; BLK_MNT=""
blk_cleanup() {
	if [ -n "$BLK_CG" ] && [ -d "$BLK_CG" ]; then
		# move anything left back to the root group, then remove ours
		for p in $(cat "$BLK_CG/cgroup.procs" 2>/dev/null); do
			echo "$p" >/sys/fs/cgroup/blkio/cgroup.procs 2>/dev/null
		done
		rmdir "$BLK_CG" 2>/dev/null
	fi
	[ -n "$BLK_MNT" ] && umount "$BLK_MNT" 2>/dev/null
	[ -n "$BLK_LOOP" ] && losetup -d "$BLK_LOOP" 2>/dev/null
	[ -n "$BLK_IMG" ] && rm -f "$BLK_IMG"
	rm -rf "$T"
}
trap blk_cleanup EXIT
trap 'exit 130' INT TERM

# blk_loop SIZE_MB: a loop device over a fresh file; sets BLK_LOOP, BLK_MM.
# The file lives in /dev/shm when it is a tmpfs: a disk-backed loop device
# adds the host disk's writeback noise to the limit the test sets.  Such a
# device is RAM, and the report says so (and calls no slower stretch of RAM
# a write cliff): a test that needs storage sets BLK_ON_DISK=1 first, for a
# file in $T (on a disk filesystem) read and written with direct IO, which
# keeps the host's page cache and its writeback out of the limit.
BLK_IMG=""
blk_loop() {
	need_root
	need_cmd losetup
	BLK_IMG=$T/loop.img
	dio=""
	if [ "${BLK_ON_DISK:-0}" = 1 ]; then
		[ "$(stat -f -c %T "$T")" = tmpfs ] && skip "$T is on tmpfs: no disk file for the loop device"
		dio=--direct-io=on
	elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		BLK_IMG=$(mktemp /dev/shm/iomatrix-i12-loop.XXXXXX) || BLK_IMG=$T/loop.img
	fi
	truncate -s "${1}M" "$BLK_IMG" || fail "cannot make $BLK_IMG"
	# shellcheck disable=SC2086
	BLK_LOOP=$(losetup -f --show $dio "$BLK_IMG" 2>/dev/null) ||
		skip "no free loop device (losetup -f failed)"
	BLK_MM=$(cat "/sys/class/block/$(basename "$BLK_LOOP")/dev")
}

# blk_ext4 SIZE_MB: an ext4 filesystem on a fresh loop device (blk_loop),
# mounted at $T/mnt and unmounted by blk_cleanup; sets BLK_MNT.  Skips
# when mkfs.ext4 or the mount fails.
blk_ext4() {
	need_cmd mkfs.ext4
	blk_loop "$1"
	mkfs.ext4 -q -F "$BLK_LOOP" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
	mkdir -p "$T/mnt"
	mount "$BLK_LOOP" "$T/mnt" 2>/dev/null || skip "cannot mount $BLK_LOOP"
	BLK_MNT=$T/mnt
}

# blk_cgroup: a blkio cgroup for this test (needs blk_loop first)
blk_cgroup() {
	[ -w /sys/fs/cgroup/blkio/cgroup.procs ] ||
		skip "no cgroup-v1 blkio hierarchy at /sys/fs/cgroup/blkio"
	BLK_CG=/sys/fs/cgroup/blkio/iomatrix-i12-$(basename "$0" .sh)-$$
	mkdir "$BLK_CG" || skip "cannot create blkio cgroup $BLK_CG"
	[ -w "$BLK_CG/blkio.throttle.write_bps_device" ] ||
		skip "blkio cgroup has no throttle files (CONFIG_BLK_DEV_THROTTLING)"
}

# blk_limit BYTES_PER_S: write limit on the loop device, 0 lifts it
blk_limit() {
	echo "$BLK_MM $1" >"$BLK_CG/blkio.throttle.write_bps_device" ||
		fail "cannot set the write limit in $BLK_CG"
}

# blk_read_iops N: read IOPS limit on the loop device (skips where the
# kernel has no such throttle file)
blk_read_iops() {
	[ -w "$BLK_CG/blkio.throttle.read_iops_device" ] || skip "no blkio.throttle.read_iops_device"
	echo "$BLK_MM $1" >"$BLK_CG/blkio.throttle.read_iops_device" || fail "cannot set the IOPS limit"
}

# blk_run CMD...: run CMD inside the cgroup (in the foreground)
blk_run() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$BLK_CG" "$@"
}
