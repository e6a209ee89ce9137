#!/bin/sh
# Latency under load on a device whose limit we set: a loop device under a
# blkio read_iops_device throttle of 2,000.  The probe finds the maximum
# (2,000 +- 30 %, and within 15 % of fio's IOPS on the same device when fio
# is installed: an independent check); a generous target (p99 <= 200 ms)
# is sustained near it; clearly overloaded points (offered > achieved x
# 1.5) have a response p99 at least 10x the low-load p99 while their service
# p99 would hide that (both printed).  iodepth 1, so that no IO of ours
# waits in the throttle behind another of ours: service latency is then
# the device's, and all queueing is the schedule's.  (A point only 10 %
# over the maximum grows its queue by 10 % of the IOs of a 500 ms run,
# which a busy machine's low-load p99 can match: the bisection's points
# there are printed, not judged; tests/integration/
# qos_overload_shows_in_response.sh judges offered > achieved x 1.1 on a
# null device.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_blk.sh"
need_cmd python3
blk_loop 64
blk_cgroup
[ -w "$BLK_CG/blkio.throttle.read_iops_device" ] || skip "no blkio.throttle.read_iops_device"
echo "$BLK_MM 2000" >"$BLK_CG/blkio.throttle.read_iops_device" || fail "cannot set the IOPS limit"
cat >"$T/s.yaml" <<EOS
suite: throttled
defaults: {engine: libaio, size: 32MiB, runtime: 500ms, iodepth: 1}
devices:
  - {name: loop, path: $BLK_LOOP}
matrix:
  pattern: [randread]
  load_sweep: [{from: 25%, to: 200%, steps: 3}]
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
print("fio %d" % (not fio or abs(s["max_iops"] - fio) <= 0.15 * fio))
print("sustained %d" % (q["met"] and q["sustained_iops"] >= 0.7 * s["max_iops"]))
low = pts[0]
over = [p for p in pts if p["offered_iops"] > 1.5 * p["achieved_iops"]]
print("over %d" % (len(over) > 0 and all(p["response"]["p99_ns"] >= 10 * low["response"]["p99_ns"] for p in over)))
print("hides %d" % all(p["service"]["p99_ns"] < 10 * low["response"]["p99_ns"] for p in over))
EOP
grep '^#' "$T/v"
grep -q '^max 1' "$T/v" && ok "maximum within 2,000 +- 30 %" || not_ok "maximum off the limit"
grep -q '^fio 1' "$T/v" && ok "maximum within 15 % of fio's IOPS" || not_ok "maximum far from fio's"
grep -q '^sustained 1' "$T/v" && ok "a generous target is sustained near the maximum" \
	|| not_ok "generous target not sustained near the maximum"
grep -q '^over 1' "$T/v" && ok "overloaded points (offered > 1.5 x achieved): response p99 >= 10x the low-load p99" \
	|| not_ok "overload does not show in response p99"
grep -q '^hides 1' "$T/v" && ok "service p99 alone would hide it" || not_ok "service p99 grew too"
tap_end
