#!/bin/sh
# Every batching, io_uring and placement key reaches `export fio` under
# fio's name (numa_node as numa_cpu_nodes + numa_mem_policy=bind), only
# when it differs from fio's default, the io_uring options only for
# io_uring cells (fio refuses them for libaio); and fio --parse-only
# accepts every job file.
. "$(dirname "$0")/../../lib.sh"
need_cmd fio
cat >"$T/s.yaml" <<'Y'
suite: t-export-engine-keys
defaults: {size: 1m, runtime: 1s, iodepth: 16}
devices:
  - {name: d, path: /tmp/iomatrix-export-test/}
include:
  - {label: plain, pattern: randread, engine: io_uring}
  - {label: batch, pattern: randread, engine: libaio, iodepth_batch: 8,
     iodepth_batch_complete_min: 2, iodepth_batch_complete_max: 16, cpus_allowed: "0"}
  - {label: fast, pattern: randread, engine: io_uring, registerfiles: true, fixedbufs: true,
     sqthread_poll: true, sqthread_poll_cpu: 0, nonvectored: 1, iodepth_batch: 0}
  - {label: hipri, pattern: randwrite, engine: io_uring, hipri: true, nonvectored: 0, numa_node: 0}
  - {label: ureap, pattern: randread, engine: libaio, userspace_reap: true}
  - {label: subwait, pattern: randread, engine: io_uring, submit_and_wait: true}
Y
expect_exit 0 "$IOMATRIX" export fio "$T/s.yaml" -o "$T/x"
f() { ls "$T/x"/*-"$1"-*.fio; }
has() { grep -qxF -- "$2" "$(f "$1")"; }
if fio --parse-only "$T/x"/*.fio >"$T/fio.out" 2>&1; then ok "fio --parse-only accepts every job"
else not_ok "fio refused: $(head -n 3 "$T/fio.out")"; fi
# at the defaults only the reaping bound is said: ours reaps up to iodepth
# per call, fio's complete_max defaults to complete_min (1)
extra=$(grep -E '^(iodepth_batch|registerfiles|fixedbufs|sqthread_poll|hipri|nonvectored|cpus_allowed|numa|userspace_reap)' "$(f plain)")
[ "$extra" = iodepth_batch_complete_max=16 ] && ok "a cell at the defaults exports only iodepth_batch_complete_max=iodepth" \
	|| not_ok "plain cell has '$extra' (expected only iodepth_batch_complete_max=16)"
for l in iodepth_batch_submit=8 iodepth_batch_complete_min=2 iodepth_batch_complete_max=16 cpus_allowed=0; do
	has batch "$l" && ok "batch cell: $l" || not_ok "batch cell lacks $l"
done
grep -q "registerfiles\|fixedbufs" "$(f batch)" && not_ok "libaio cell has io_uring options" \
	|| ok "no io_uring options on a libaio cell"
for l in registerfiles=1 fixedbufs=1 sqthread_poll=1 sqthread_poll_cpu=0 nonvectored=1 \
	iodepth_batch_submit=0; do
	has fast "$l" && ok "fast cell: $l" || not_ok "fast cell lacks $l"
done
for l in hipri=1 nonvectored=0 numa_cpu_nodes=0 numa_mem_policy=bind:0; do
	has hipri "$l" && ok "hipri cell: $l" || not_ok "hipri cell lacks $l"
done
# the opt-in reaping modes: userspace_reap is fio's, which reads
# the ring only with complete_min 0; submit_and_wait has no fio twin; both
# jobs say how they differ, a plain one says nothing of the kind
for l in userspace_reap=1 iodepth_batch_complete_min=0 iodepth_batch_complete_max=16; do
	has ureap "$l" && ok "userspace_reap cell: $l" || not_ok "userspace_reap cell lacks $l"
done
for c in ureap:userspace_reap subwait:submit_and_wait; do
	grep -q "^; NOT THE SAME: ${c#*:}:" "$(f "${c%%:*}")" && ok "${c%%:*} job says it is not the same (${c#*:})" \
		|| not_ok "${c%%:*} job lacks '; NOT THE SAME: ${c#*:}'"
done
grep -q "NOT THE SAME" "$(f batch)" && not_ok "a libaio job at the reaping defaults claims a difference" \
	|| ok "a libaio job at the reaping defaults claims no difference"
grep -q "^; NOT THE SAME" "$(f plain)" && not_ok "a plain io_uring job at QD16 says NOT THE SAME: $(grep '^; NOT THE SAME' "$(f plain)")" \
	|| ok "a plain io_uring job at QD16 is the same workload (io-wq at the kernel's count in both)"
# buffers: our 8-byte stamp per 512 B is fio's scramble_buffers, not refill
# buffer_compress_percentage=0: fio's random fill, not its start-up one
has plain scramble_buffers=1 && has plain buffer_compress_percentage=0 && ! grep -q refill_buffers "$(f plain)" \
	&& ok "random data exports as scramble_buffers=1 + buffer_compress_percentage=0, no refill_buffers" \
	|| not_ok "buffers: $(grep -E 'buffers' "$(f plain)" | tr '\n' ' ')"
tap_end
