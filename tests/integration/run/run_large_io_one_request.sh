#!/bin/sh
# A large IO reaches the device as the one request it claims to be: 1 MiB
# O_DIRECT reads at QD8 on a loop device (128 segments of at most 64 KiB
# per request, max_sectors 1280 KiB) make one device read per IO.  The
# buffers (8 MiB) are 2 MiB aligned transparent huge pages; in 4K pages
# from a fragmented allocator a 1 MiB read can need more than 128
# segments and is split in two (172 device reads per 100 IOs on this VM's
# virtio disk before, 100 after).  Root, losetup, THP not "never".
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
need_cmd jq
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case $thp in *"[always]"*|*"[madvise]"*) ;; *) skip "transparent huge pages off here ($thp)" ;; esac
blk_loop 64
st=/sys/class/block/$(basename "$BLK_LOOP")/stat
cat >"$T/s.yaml" <<EOF2
suite: large-io
defaults: {engine: libaio, direct: true, runtime: 400ms, size: 64MiB}
devices:
  - {name: d, path: $BLK_LOOP}
matrix: {pattern: [read], bs: [1m], iodepth: [8]}
EOF2
fb0=$(awk '/^thp_fault_fallback /{ print $2 }' /proc/vmstat)
r0=$(awk '{ print $1 }' "$st")
"$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet >"$T/out" 2>"$T/err" || fail "run: $(cat "$T/err")"
r1=$(awk '{ print $1 }' "$st")
fb1=$(awk '/^thp_fault_fallback /{ print $2 }' /proc/vmstat)
ios=$(jq '.repetitions[0].read.ios' "$T/set/cells/0001.json")
[ "$ios" -gt 50 ] && ok "$ios reads of 1 MiB" || not_ok "only $ios reads of 1 MiB"
reads=$((r1 - r0))
# a few small reads besides: the device check's probe of the first sectors
if [ "$reads" -le $((ios + 16)) ]; then
	ok "device reads $reads for $ios IOs: one request each"
elif [ "${fb1:-0}" -gt "${fb0:-0}" ]; then
	skip "no huge page to be had (thp_fault_fallback $fb0 -> $fb1): $reads device reads for $ios IOs"
else
	not_ok "device reads $reads for $ios IOs: large IOs were split"
fi
tap_end
