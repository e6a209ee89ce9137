#!/bin/sh
# mem: mmaphuge (an opt-in, the default is fio's 4K pages,
# run_large_io_like_fio.sh): a large IO reaches the device as the one
# request it claims to be: 1 MiB O_DIRECT reads at QD8 on a loop device
# (128 segments of at most 64 KiB per request, max_sectors 1280 KiB) make
# one device read per IO.  The buffers (8 MiB) are reserved hugetlb pages
# where the machine has them, else 2 MiB aligned transparent huge pages;
# in 4K pages from a fragmented allocator a 1 MiB read can need more than
# 128 segments and is split in two (172 device reads per 100 IOs on this
# VM's virtio disk in 4K pages, 100 in huge pages).  Root, losetup, THP
# not "never" or hugetlb pages reserved.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
need_cmd jq
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
hugetlb=$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)
case $thp in *"[always]"*|*"[madvise]"*) ;; *)
	[ "${hugetlb:-0}" -ge 4 ] || skip "transparent huge pages off here ($thp) and no hugetlb pages" ;;
esac
blk_loop 64
st=/sys/class/block/$(basename "$BLK_LOOP")/stat
cat >"$T/s.yaml" <<EOF2
suite: large-io
defaults: {engine: libaio, direct: true, runtime: 400ms, size: 64MiB, mem: mmaphuge}
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
# the report's fio command: fio's iomem=mmaphuge where this machine has
# the reserved huge pages for it, else NOT THE SAME, and then the Method
# section does not call it equivalent
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none --format md
if [ "${hugetlb:-0}" -ge 4 ]; then
	grep -q -- "--iomem=mmaphuge" "$T/rep/report.md" &&
		grep -q "^Equivalent fio command of each cell" "$T/rep/report.md" &&
		ok "fio's iomem=mmaphuge, equivalent" || not_ok "no iomem=mmaphuge in the fio command"
else
	grep -q "(NOT THE SAME: mem: mmaphuge: " "$T/rep/report.md" &&
		! grep -q -- "--iomem=" "$T/rep/report.md" &&
		! grep -q "^Equivalent fio command" "$T/rep/report.md" &&
		grep -q "^The fio command, equivalent unless its comment says NOT THE SAME, of each cell" "$T/rep/report.md" &&
		ok "no reserved huge pages: the fio command is NOT THE SAME, not called equivalent" ||
		not_ok "fio command: $(grep -n -i -A3 'fio command' "$T/rep/report.md")"
fi
tap_end
