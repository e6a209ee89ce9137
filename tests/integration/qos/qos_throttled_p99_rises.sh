#!/bin/sh
# On a device throttled to N IOPS, the response p99 of a rated job does not
# fall as the offered load rises below N.  A loop device
# under a blkio read_iops_device throttle of 1,000, offered 100, 300, 600
# and 900 IOPS at iodepth 32 with libaio.  Below the limit nothing queues
# for long, so the p99 at 100 IOPS is no more than 3x the p99 at 900 (plus
# 1 ms for a busy machine's wake-ups).  Completions that wait until all
# 32 slots are in flight (libaio's reap before) make the low load
# look slowest: 32 IOs at 100 IOPS, a p99 of some 300 ms against some 35
# ms at 900.
# test-lock: quiet
# (it runs alone in the pool: a blkio-throttled device's p99 and plateaus
# are the real clock's, and tests beside it on 2 CPUs wake its job late)
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../../lib_blk.sh"
need_cmd python3
blk_loop 64
blk_cgroup
blk_read_iops 1000
cat >"$T/s.yaml" <<EOS
suite: throttled
defaults: {engine: libaio, size: 32MiB, runtime: 1s, iodepth: 32}
devices:
  - {name: loop, path: $BLK_LOOP}
matrix:
  pattern: [randread]
  rate_iops: [100, 300, 600, 900]
EOS
blk_run "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet >"$T/out" 2>&1 || fail "run: $(cat "$T/out")"
python3 - "$T/set" <<'EOP'
import json, sys
pts = []
for i in range(1, 5):
    c = json.load(open("%s/cells/%04d.json" % (sys.argv[1], i)))
    r = c["repetitions"][0]["read"]
    pts.append((c["params"]["rate_iops"] if "params" in c else i, r["iops"],
                r["lat_ns"]["percentiles"]["99.000000"], r["service_lat_ns"]["percentiles"]["99.000000"]))
for off, ach, p99, s99 in pts:
    print("# offered %s achieved %.0f  response p99 %.3f ms  service p99 %.3f ms"
          % (off, ach, p99 / 1e6, s99 / 1e6))
low, high = pts[0][2], pts[-1][2]
ok = low <= 3 * high + 1e6
print("%s - response p99 at 100 IOPS (%.3f ms) <= 3 x p99 at 900 IOPS (%.3f ms) + 1 ms"
      % ("ok 1" if ok else "not ok 1", low / 1e6, high / 1e6))
sys.exit(0 if ok else 1)
EOP
[ $? = 0 ] && exit 0
# a run queue of 4 threads per CPU or more wakes a rated job tens of ms
# late now and then: the p99 of 100 IOs is then the machine's
awk -v n="$(nproc)" '{ exit !($1 / n >= 4) }' /proc/loadavg &&
	skip "load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs: a p99 of 100 IOs is the machine's"
exit 1
