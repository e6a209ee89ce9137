#!/bin/sh
# A block device mounted in another mount namespace (a container) does not
# show in this namespace's mountinfo, and no holder names it; the kernel
# still knows the claim.  run refuses it even with destructive: true and
# --yes-destroy-data (exit 2, "in use"), and the filesystem stays intact.
# Root, losetup, mkfs.ext4, unshare; the other namespace is held open by a
# FIFO handshake, not by a sleep.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd unshare
need_cmd mkfifo
need_cmd e2fsck
truncate -s 16M "$T/img" || skip "cannot create image"
mkfs.ext4 -q -F -L elsewhere "$T/img" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
loop=$(losetup -f --show "$T/img" 2>/dev/null) || skip "no loop device available"
mkdir -p "$T/mnt"
mkfifo "$T/ready" "$T/go" || skip "mkfifo failed"
pid=""
cleanup() {
	[ -n "$pid" ] && { echo go >"$T/go"; wait "$pid"; }
	losetup -d "$loop" 2>/dev/null; rm -rf "$T"
}
trap cleanup EXIT INT TERM
unshare -m --propagation private sh -c '
	if mount "$1" "$2/mnt" 2>/dev/null; then echo mounted >"$2/ready"; else echo failed >"$2/ready"; exit 0; fi
	read x <"$2/go"; umount "$2/mnt"' sh "$loop" "$T" &
pid=$!
read state <"$T/ready"
if [ "$state" != mounted ]; then
	wait "$pid"; pid=""
	skip "cannot mount in a new mount namespace"
fi
awk '{print $3}' /proc/self/mountinfo | grep -qx "$(cat "/sys/class/block/$(basename "$loop")/dev")" &&
	skip "the mount is visible here"
cat >"$T/s.yaml" <<Y
suite: t-elsewhere
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: disk, path: $loop, destructive: true}
include:
  - {pattern: randwrite, bs: 4k, requests: 10}
Y
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set"
grep -q "is in use" "$T/err" && grep -q "does not override" "$T/err" &&
	ok "refused: $(cat "$T/err")" || not_ok "message: $(cat "$T/err")"
[ ! -e "$T/set" ] && ok "no result set" || not_ok "set created"
echo go >"$T/go"; wait "$pid"; pid=""
# the mount itself updates the superblock, so compare meaning, not bytes
e2fsck -fn "$T/img" >"$T/fsck" 2>&1 && ok "filesystem intact (e2fsck -fn)" ||
	not_ok "filesystem damaged: $(tail -n 3 "$T/fsck")"
tap_end
