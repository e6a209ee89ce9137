#!/bin/sh
# Every batching, io_uring and placement key reaches `export fio` under
# fio's name (numa_node as numa_cpu_nodes + numa_mem_policy=bind), only
# when it differs from fio's default, the io_uring options only for
# io_uring cells (fio refuses them for libaio); and fio --parse-only
# accepts every job file.
. "$(dirname "$0")/../lib.sh"
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
Y
expect_exit 0 "$IOMATRIX" export fio "$T/s.yaml" -o "$T/x"
f() { ls "$T/x"/*-"$1"-*.fio; }
has() { grep -qxF -- "$2" "$(f "$1")"; }
if fio --parse-only "$T/x"/*.fio >"$T/fio.out" 2>&1; then ok "fio --parse-only accepts every job"
else not_ok "fio refused: $(head -n 3 "$T/fio.out")"; fi
extra=$(grep -E '^(iodepth_batch|registerfiles|fixedbufs|sqthread_poll|hipri|nonvectored|cpus_allowed|numa)' "$(f plain)")
[ -z "$extra" ] && ok "a cell at the defaults exports none of the keys" \
	|| not_ok "plain cell has $extra (defaults are fio's: nothing to say)"
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
tap_end
