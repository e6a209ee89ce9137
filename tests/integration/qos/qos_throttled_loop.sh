#!/bin/sh
# Latency under load on a device whose limit we set: a loop device under a
# blkio read_iops_device throttle of 2,000.  The probe finds the maximum
# (2,000 +- 30 %, the throttle's limit: a reference that no timing on a
# busy machine moves; fio's IOPS on the same device is printed beside it,
# not judged: two 500 ms QD1 runs one after the other differed by 28 %
# under a CI load of 3.4 on 2 CPUs, fio 1,673 against our 2,149, and
# comparing speed with fio is make bench's and make fidelity's work); a generous target (p99 <= 200 ms)
# is sustained near it; clearly overloaded points (offered > achieved x
# 3: the sweep offers 500, 1,800, 4,000 and 10,000 IOPS; at 4,000, 2x over,
# a 500 ms point queues ~170 ms, which a low-load p99 of 17 ms on a busy
# machine matches at 10x) have a response p99 at least 10x the
# low-load p99 while their service
# p99 would hide that (both printed).  iodepth 1, so that no IO of ours
# waits in the throttle behind another of ours: service latency is then
# one IO's time in the throttle, and all queueing is the schedule's, which
# is what "service hides it" checks.  (The service p99 of 90 ms once seen
# at QD4 was not blk-throttle's: iomatrix's libaio reap took completions
# only once every slot was in flight;
# qos_throttled_p99_rises.sh checks that the p99 at QD32 does not fall as
# the load rises below the limit.)  (A point only 10 %
# over the maximum grows its queue by 10 % of the IOs of a 500 ms run,
# which a busy machine's low-load p99 can match: the bisection's points
# there are printed, not judged; qos/
# qos_overload_shows_in_response.sh judges offered > achieved x 1.1 on a
# null device.)
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../../lib_blk.sh"
need_cmd python3
blk_loop 64
blk_cgroup
blk_read_iops 2000
cat >"$T/s.yaml" <<EOS
suite: throttled
defaults: {engine: libaio, size: 32MiB, runtime: 500ms, iodepth: 1}
devices:
  - {name: loop, path: $BLK_LOOP}
matrix:
  pattern: [randread]
  load_sweep: [{iops: [500, 1800, 4000, 10000]}]
  qos: [{p99: 200ms}]
EOS
blk_run "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet >"$T/out" 2>&1 || fail "run: $(cat "$T/out")"
fio_iops=""
if command -v fio >/dev/null 2>&1; then
	blk_run fio --name=x --filename="$BLK_LOOP" --rw=randread --bs=4k --iodepth=1 \
		--ioengine=libaio --direct=1 --size=32m --runtime=500ms --time_based \
		--output-format=json >"$T/fio.json" 2>/dev/null &&
	fio_iops=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' "$T/fio.json")
fi
python3 - "$T/set/cells/0001.json" "${fio_iops:-0}" >"$T/v" <<'EOP'
import json, sys
s = json.load(open(sys.argv[1]))["load_sweep"]
fio = float(sys.argv[2])
pts, q = s["points"], s["qos"]
print("# probed maximum %.0f IOPS (limit 2000; fio %s)" % (s["max_iops"], "%.0f" % fio if fio else "not run"))
for p in pts:
    print("# offered %6.0f achieved %6.0f  response p99 %8.2f ms  service p99 %7.2f ms%s"
          % (p["offered_iops"], p["achieved_iops"], p["response"]["p99_ns"] / 1e6,
             p["service"]["p99_ns"] / 1e6, "  (bisection)" if p["refined"] else ""))
print("# sustained at p99 <= 200 ms: %s" % (q.get("sustained_iops") if q["met"] else "not met"))
print("max %d" % (1400 <= s["max_iops"] <= 2600))
print("sustained %d" % (q["met"] and q["sustained_iops"] >= 0.7 * s["max_iops"]))
# the low-load p99: the least of the points that kept up (a busy machine
# can stall the lowest point once; a stall is not the device's level)
low = min((p for p in pts if p["achieved_iops"] >= 0.9 * p["offered_iops"]),
          key=lambda p: p["response"]["p99_ns"], default=pts[0])
print("# low-load p99 %.2f ms" % (low["response"]["p99_ns"] / 1e6))
over = [p for p in pts if p["offered_iops"] > 3 * p["achieved_iops"]]
# a machine that wakes the rated job 20 ms late at low load (load average
# 20 on 2 cores did) measures itself, not the queue: not judged then
print("over %d" % 2 if low["response"]["p99_ns"] > 20e6 else "over %d" % (len(over) > 0 and all(p["response"]["p99_ns"] >= 10 * low["response"]["p99_ns"] for p in over)))
print("hides %d" % all(p["service"]["p99_ns"] < 10 * low["response"]["p99_ns"] for p in over))
EOP
grep '^#' "$T/v"
echo "# load average: $(cut -d" " -f1-3 /proc/loadavg)"
# A QD1 job needs its thread woken for every IO: with a run queue of 4
# threads per CPU or more (load 24 on this 2-core VM while eight builds
# ran) the probe measured 1,270 IOPS against the throttle's 2,000, and the
# 500-IOPS point achieved 414; the numbers are then the machine's, and a
# check that fails is reported as a skip with the load, not judged.
busy=$(awk -v n="$(nproc)" '{ print ($1 / n >= 4) }' /proc/loadavg)
judge() { # key message
	case $(sed -n "s/^$1 //p" "$T/v") in
	1) ok "$2" ;;
	2) ok "# SKIP $2: the machine woke the rated job over 20 ms late at low load" ;;
	*) if [ "$busy" = 1 ]; then ok "# SKIP $2: not so on a machine with load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs"
	   else not_ok "not: $2"; fi ;;
	esac
}
judge max "maximum within 2,000 +- 30 %"
judge sustained "a generous target is sustained near the maximum"
judge over "overloaded points (offered > 3 x achieved): response p99 >= 10x the low-load p99"
judge hides "service p99 alone would hide it"
tap_end
