#!/bin/sh
# ENOSPC while the file set is laid out (after the free-space check passed):
# on ext4 without extents, a file needs indirect blocks beyond its data, so
# a file a few KiB smaller than the free space passes the check and then
# runs out of space.  The cell fails with a clear message, the earlier cell
# is intact, the later one runs, and no half-written file is left.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd jq
need_cmd mkfs.ext4
need_cmd losetup
truncate -s 32M "$T/img" || skip "cannot create image"
mkfs.ext4 -q -F -m 0 -b 4096 -O ^extents,^64bit,^has_journal "$T/img" >/dev/null 2>&1 \
	|| skip "mkfs.ext4 cannot make an ext4 without extents"
loop=$(losetup -f --show "$T/img" 2>/dev/null) || skip "no loop device available"
mkdir -p "$T/mnt"
cleanup() { umount "$T/mnt" 2>/dev/null; losetup -d "$loop" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT INT TERM
mount "$loop" "$T/mnt" 2>/dev/null || skip "cannot mount $loop"
avail=$(df -B1 --output=avail "$T/mnt" | tail -n 1 | tr -d ' ')
# 12 KiB below the free space: enough for the check, not for ~8 indirect blocks
kib=$(( (avail - 12288) / 4096 * 4 ))
cat >"$T/s.yaml" <<Y
suite: t-enospc-layout
defaults: {engine: psync, direct: false, bs: 4k, requests: 20}
devices:
  - {name: tiny, path: /nonexistent}
include:
  - {pattern: randread, size: 1MiB}
  - {pattern: randread, size: ${kib}KiB}
  - {pattern: read, size: 1MiB}
Y
"$IOMATRIX" run "$T/s.yaml" --device tiny="$T/mnt" --out "$T/set" >"$T/out" 2>"$T/err"
rc=$?
m="$T/set/manifest.json"
[ $rc = 1 ] && ok "exit 1" || not_ok "exit $rc: $(cat "$T/err")"
[ "$(jq -r '[.cells[].status] | join(",")' "$m")" = "ok,failed,ok" ] && ok "cell 2 failed, 1 and 3 ok" \
	|| not_ok "cells: $(jq -c '[.cells[].status]' "$m") $(cat "$T/err")"
err=$(jq -r .error "$T/set/cells/0002.json" 2>/dev/null)
case "$err" in
*"not enough free space"*) not_ok "the check refused it, layout never ran out of space: $err" ;;
*[Ss]pace*) ok "clear error: $err" ;;
*) not_ok "error text: '$err'" ;;
esac
grep -qi "space" "$T/err" && ok "said on stderr" || not_ok "stderr: $(cat "$T/err")"
jq -e '.status == "ok" and .repetitions[0].read.ios == 20' "$T/set/cells/0001.json" >/dev/null \
	&& ok "earlier cell intact" || not_ok "cell 1: $(head -c 200 "$T/set/cells/0001.json")"
jq -e '.repetitions[0].read.ios == 20' "$T/set/cells/0003.json" >/dev/null \
	&& ok "later cell measured" || not_ok "cell 3"
left=$(ls "$T/mnt" | grep -v lost+found)
[ -z "$left" ] && ok "no half-written file left" || not_ok "left: $left"
tap_end
