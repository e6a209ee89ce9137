#!/bin/sh
# io_uring's ring set-up: the CQ ring is sized to iodepth
# (IORING_SETUP_CQSIZE, as fio), the set-up flags are fio's
# (SINGLE_ISSUER|DEFER_TASKRUN|COOP_TASKRUN) and io-wq keeps the kernel's
# worker count.  A CQ ring exactly iodepth deep must still hold every
# completion: at iodepths 1, 3 (rings round up to 4) and 100 (128),
# with 2 jobs, batched and not, reads and writes on a loop device
# each move exactly `requests` IOs, and every byte read or written is the
# file's (the FNV-1a hashes IOMATRIX_TRACE records per completion).  A
# guard, not a regression test: the old ring (CQ twice iodepth) passes too.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd jq
need_cmd python3
. "$(dirname "$0")/../../lib_blk.sh"
blk_ext4 32

N=200
# run PATTERN EXTRA_CELL: 3 matrix cells + 1 include, traced, into $T/PATTERN
run() {
	cat >"$T/$1.yaml" <<Y
suite: t-uring-depths
defaults: {engine: io_uring, direct: true, size: 2MiB, bs: 4k, requests: $N,
           keep_files: true}
devices:
  - {name: d, path: $T/mnt/}
matrix:
  pattern: [$1]
  iodepth: [1, 3, 100]
  jobs: [2]
include:
  - {pattern: $1, $2}
Y
	IOMATRIX_TRACE="$T/$1.trace" "$IOMATRIX" run "$T/$1.yaml" --out "$T/$1" --quiet >/dev/null 2>"$T/err" || {
		grep -q "not built in\|disabled" "$T/err" && skip "io_uring unavailable: $(cat "$T/err")"
		cat "$T/err" >&2; fail "$1 run failed"; }
	cells=0
	for f in "$T/$1"/cells/*.json; do
		what=$(jq -r '.params | "\(.pattern) iodepth \(.iodepth) jobs \(.jobs)\(if .iodepth_batch then " batch \(.iodepth_batch)" else "" end)\(if .fixedbufs then " fixedbufs" else "" end)"' "$f")
		n=$(jq '.repetitions[0] | .read.ios + .write.ios' "$f")
		[ "$n" = "$N" ] && ok "$what: $n IOs" || not_ok "$what: $n IOs, expected $N ($(jq -r .error "$f"))"
		cells=$((cells + 1))
	done
	[ "$cells" = 4 ] && ok "$1: 4 cells" || not_ok "$1: $cells cells, expected 4"
	traced=$(grep -c " data " "$T/$1.trace")
	[ "$traced" -ge $((N * 4)) ] && ok "$1: every completion traced ($traced)" \
		|| not_ok "$1: $traced completions traced, expected >= $((N * 4))"
}
# verify TRACE FILE: each read's hash is the file's bytes there; each block
# written once holds that write's bytes (two writes to one block may land
# in either order)
verify() {
	python3 - "$1" "$2" <<'PY'
import sys
import functools
# a block read again (256 of them in 1 MiB) is hashed once: the byte loop
# is this check's cost
@functools.lru_cache(maxsize=None)
def fnv(b):
    h = 0xcbf29ce484222325
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
    return "%016x" % h
data = open(sys.argv[2], "rb").read()
reads, writes = [], {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 7 and f[1] == "data":
        if f[2] == "read":
            reads.append((int(f[3]), int(f[4]), f[6]))
        else:
            writes.setdefault(int(f[3]), []).append((int(f[4]), f[6]))
bad = [o for o, l, h in reads if fnv(data[o:o + l]) != h]
once = {o: v[0] for o, v in writes.items() if len(v) == 1}
bad += [o for o, (l, h) in once.items() if fnv(data[o:o + l]) != h]
if bad:
    print("mismatch at offsets %s" % bad[:5])
    sys.exit(1)
print("checked %d" % (len(reads) + len(once)))
PY
}
run randread "iodepth: 100, jobs: 4, iodepth_batch: 100, iodepth_batch_complete_max: 100"
out=$(verify "$T/randread.trace" "$T/mnt/iomatrix.d.0") && ok "reads return the data laid out ($out)" \
	|| not_ok "reads: $out"
run randwrite "iodepth: 3, jobs: 4, registerfiles: true, fixedbufs: true"
out=$(verify "$T/randwrite.trace" "$T/mnt/iomatrix.d.0") && ok "the file holds what was written ($out)" \
	|| not_ok "writes: $out"
tap_end
