#!/bin/sh
# io_uring's fast paths each run on a loop device (ext4 on a file):
# registerfiles, fixedbufs, both, sqthread_poll, sqthread_poll_cpu,
# nonvectored 0 and 1, iodepth_batch.  Each moves exactly `requests` IOs,
# and every byte read is the byte laid out, every byte written is in the
# file afterwards (checked end to end through the FNV-1a hashes that
# IOMATRIX_TRACE records per completion).  A cell the kernel refuses is
# skipped with the kernel's reason; hipri on a device without poll queues,
# SQPOLL on a CPU that is not there and fixedbufs past RLIMIT_MEMLOCK are
# refused naming the option and the fix.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd jq
need_cmd python3
. "$(dirname "$0")/../../lib_blk.sh"
blk_ext4 32

N=200
suite() { # FILE PATTERN CELL... (each cell: flow-map keys without braces)
	f=$1; pat=$2; shift 2
	cat >"$f" <<Y
suite: t-uring-options
defaults: {engine: io_uring, direct: true, size: 1MiB, bs: 4k, iodepth: 8,
           requests: $N, keep_files: true}
devices:
  - {name: d, path: $T/mnt/}
include:
Y
	for c in "$@"; do echo "  - {pattern: $pat, $c}" >>"$f"; done
}
suite "$T/plain.yaml" randread "label: plain"
"$IOMATRIX" run "$T/plain.yaml" --out "$T/plain" --quiet >/dev/null 2>"$T/err" || {
	grep -q "not built in\|disabled" "$T/err" && skip "io_uring unavailable: $(cat "$T/err")"
	cat "$T/err" >&2; fail "plain io_uring run failed"; }

# verify TRACE FILE: every data line's hash equals the file's bytes there
# (reads: all; writes: offsets written once, as concurrent rewrites of one
# block may land in either order); prints "checked N"
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
reads, writes, seen = [], {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 7 and f[1] == "data":
        off, ln, h = int(f[3]), int(f[4]), f[6]
        if f[2] == "read":
            reads.append((off, ln, h))
        else:
            writes.setdefault(off, []).append((ln, h))
bad = [(o, h) for o, l, h in reads if fnv(data[o:o + l]) != h]
once = {o: v[0] for o, v in writes.items() if len(v) == 1}
bad += [(o, h) for o, (l, h) in once.items() if fnv(data[o:o + l]) != h]
if bad:
    print("mismatch at offsets %s" % [o for o, _ in bad[:5]])
    sys.exit(1)
print("checked %d" % (len(reads) + len(once)))
PY
}

# reads, one cell per option
suite "$T/r.yaml" randread "label: plain" "label: registerfiles, registerfiles: true" \
	"label: fixedbufs, fixedbufs: true" \
	"label: both, registerfiles: true, fixedbufs: true" \
	"label: sqpoll, sqthread_poll: true" \
	"label: sqpoll-cpu0, sqthread_poll: true, sqthread_poll_cpu: 0" \
	"label: vectored, nonvectored: 0" "label: nonvectored, nonvectored: 1" \
	"label: batch4, iodepth_batch: 4, iodepth_batch_complete_min: 2, iodepth_batch_complete_max: 4"
IOMATRIX_TRACE="$T/r.trace" "$IOMATRIX" run "$T/r.yaml" --out "$T/r" --quiet >/dev/null 2>"$T/err"
m="$T/r/manifest.json"
[ -f "$m" ] || { cat "$T/err" >&2; fail "no result set"; }
i=1
for c in $(jq -r '.cells[].status' "$m"); do
	f=$(printf '%s/r/cells/%04d.json' "$T" "$i")
	label=$(jq -r '.params.label' "$f")
	if [ "$c" = ok ]; then
		ios=$(jq '.repetitions[0].read.ios' "$f")
		[ "$ios" = "$N" ] && ok "$label: $ios reads" || not_ok "$label: $ios reads, expected $N"
	elif jq -r .error "$f" | grep -q "the kernel refused"; then
		ok "$label # SKIP $(jq -r .error "$f")"
	else
		not_ok "$label: $(jq -r .error "$f")"
	fi
	i=$((i + 1))
done
[ "$i" -gt 9 ] && ok "9 cells ran" || not_ok "only $((i - 1)) cells"
out=$(verify "$T/r.trace" "$T/mnt/iomatrix.d.0") && ok "reads return the data laid out ($out)" \
	|| not_ok "reads: $out"
[ "$(grep -c ' data read ' "$T/r.trace")" -ge $((N * 9)) ] && ok "every read traced" \
	|| not_ok "$(grep -c ' data read ' "$T/r.trace") reads traced"
# CPU per IO: the job threads' CPU over their IOs, never 0 where they submit;
# under SQPOLL the kernel's thread submits and the job thread may do no
# syscall at all, so the number is null with the reason (never a 0 that
# looks measured)
ran='[.[] | select(.status == "ok")]'
plain=$(jq -s "$ran | map(select(.params.sqthread_poll != true)) | length" "$T"/r/cells/*.json)
n=$(jq -s "$ran | map(select(.params.sqthread_poll != true) | .repetitions[0].cpu.ns_per_io | select(. > 0)) | length" \
	"$T"/r/cells/*.json)
[ "$n" = "$plain" ] && [ "$n" -ge 7 ] && ok "cpu.ns_per_io > 0 in every cell without SQPOLL ($n)" \
	|| not_ok "cpu.ns_per_io > 0 in $n of $plain cells without SQPOLL"
sq=$(jq -s "$ran | map(select(.params.sqthread_poll == true)) | length" "$T"/r/cells/*.json)
n=$(jq -s "$ran | map(select(.params.sqthread_poll == true) | .repetitions[0].cpu
	| select(has(\"ns_per_io\") and .ns_per_io == null and (.ns_per_io_why | test(\"sqthread_poll\")))) | length" \
	"$T"/r/cells/*.json)
[ "$n" = "$sq" ] && ok "cpu.ns_per_io null with the reason under SQPOLL ($n cells)" \
	|| not_ok "SQPOLL cells: $(jq -s -c "$ran | map(select(.params.sqthread_poll == true) | .repetitions[0].cpu)" "$T"/r/cells/*.json)"
# the report's method names the options and CPU per IO; titles tell cells apart
expect_exit 0 "$IOMATRIX" report "$T/r" --charts none --format md
md="$T/r/report/report.md"
grep -q 'what differs: .*io\\_uring options' "$md" && ok "method: the io_uring options vary" \
	|| not_ok "method: $(grep 'what differs' "$md")"
grep -q '^| batching | iodepth\\_batch' "$md" || grep -q "what differs: .*batching" "$md" \
	&& ok "method: batching" || not_ok "method lacks batching"
grep -q '^| CPU placement | cpus\\_allowed all, numa\\_node none |$' "$md" && ok "method: CPU placement" \
	|| not_ok "method lacks CPU placement"
grep -q "CPU per IO (\`cpu.ns_per_io\`.*s over $plain cells (not in the $sq with sqthread.*poll" "$md" \
	&& ok "method: CPU per IO over the $plain cells that have it, and why not the $sq others" \
	|| not_ok "method: $(grep 'CPU per IO' "$md")"
grep -q '^### .*registerfiles, fixedbufs' "$md" && grep -q '^### .*sqthread\\_poll on CPU 0' "$md" \
	&& ok "titles name the options" || not_ok "titles: $(grep '^###' "$md")"

# writes through registered buffers (WRITE_FIXED) and files, then the file
suite "$T/w.yaml" randwrite "label: write-fixed, registerfiles: true, fixedbufs: true"
IOMATRIX_TRACE="$T/w.trace" "$IOMATRIX" run "$T/w.yaml" --out "$T/w" --quiet >/dev/null 2>"$T/err" \
	|| { cat "$T/err" >&2; fail "write run failed"; }
[ "$(jq '.repetitions[0].write.ios' "$T/w/cells/0001.json")" = "$N" ] && ok "WRITE_FIXED: $N writes" \
	|| not_ok "WRITE_FIXED: $(jq '.repetitions[0].write.ios' "$T/w/cells/0001.json") writes"
out=$(verify "$T/w.trace" "$T/mnt/iomatrix.d.0") && ok "the file holds what was written ($out)" \
	|| not_ok "writes: $out"

# hipri: a loop device has no poll queues
suite "$T/h.yaml" randread "label: hipri, hipri: true"
"$IOMATRIX" run "$T/h.yaml" --out "$T/h" --quiet >/dev/null 2>"$T/err"
rc=$?
{ [ "$rc" = 1 ] && grep -q "hipri: device 'loop[0-9]*' has no poll queues" "$T/err" &&
  grep -q "poll_queues" "$T/err"; } && ok "hipri refused with the fix" \
	|| not_ok "hipri: exit $rc: $(cat "$T/err")"

# sqthread_poll_cpu on a CPU that is not there: the kernel's refusal, named
suite "$T/c.yaml" randread "label: sqpoll-cpu, sqthread_poll: true, sqthread_poll_cpu: 1000"
"$IOMATRIX" run "$T/c.yaml" --out "$T/c" --quiet >/dev/null 2>"$T/err"
rc=$?
{ [ "$rc" = 1 ] && grep -q "sqthread_poll_cpu 1000: the kernel refused to pin the SQPOLL thread" "$T/err" &&
  grep -q "pick an online CPU" "$T/err"; } && ok "sqthread_poll_cpu 1000 refused with the fix" \
	|| not_ok "sqthread_poll_cpu 1000: exit $rc: $(cat "$T/err")"

# fixedbufs past RLIMIT_MEMLOCK without CAP_IPC_LOCK: the limit and the fix
if command -v prlimit >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1; then
	suite "$T/m.yaml" randread "label: memlock, fixedbufs: true"
	prlimit --memlock=16384:16384 setpriv --bounding-set=-ipc_lock --inh-caps=-ipc_lock -- \
		"$IOMATRIX" run "$T/m.yaml" --out "$T/m" --quiet >/dev/null 2>"$T/err"
	rc=$?
	{ [ "$rc" = 1 ] && grep -q "fixedbufs: the kernel refused to pin 8 buffers of 4096 bytes" "$T/err" &&
	  grep -q "RLIMIT_MEMLOCK (16 KiB here)" "$T/err" && grep -q "ulimit -l" "$T/err"; } \
		&& ok "fixedbufs over RLIMIT_MEMLOCK refused with the limit and the fix" \
		|| not_ok "fixedbufs over RLIMIT_MEMLOCK: exit $rc: $(cat "$T/err")"
else
	ok "fixedbufs over RLIMIT_MEMLOCK # SKIP prlimit or setpriv (util-linux) missing"
fi
tap_end
