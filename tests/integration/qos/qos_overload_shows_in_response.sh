#!/bin/sh
# Offered load above the maximum: the queue grows for as long as the run
# lasts, and response latency (from each IO's intended start) shows it
# while service latency (from submission) stays at the device's service
# time: no coordinated omission.  The device is the model engine serving
# one IO at a time in 500 us (at most 2,000 IOPS) at iodepth 1; the sweep
# probes the maximum, then offers 20 %, 210 % and 400 % of it: overloaded,
# the queue grows by half and three quarters of the offered IOs (400 and
# 600 ms by the end), far above the device's time, its service p99 at low
# load (submission to completion: 0.5 ms and how late the job woke to
# reap).  Not against the low-load response p99: that holds how late the
# machine woke the rated job for its intended starts too, 67-96 ms at p99
# at load 11 with CPU hogs beside it, which a queue of 400-600 ms does not
# pass 10x.
# Each point records the least and the most p99 of its intervals, which
# bracket its own p99 (the report's QoS rows say when they lie 2x apart).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/s.yaml" <<EOS
suite: overload
defaults: {engine: model, model_latency: 500us, size: 16MiB, runtime: 800ms, iodepth: 1}
devices:
  - {name: dev, path: $T/d}
matrix: {pattern: [randread], load_sweep: [{from: 20%, to: 400%, steps: 3}]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
python3 - "$T/set/cells/0001.json" >"$T/v" <<'EOP'
import json, sys
s = json.load(open(sys.argv[1]))["load_sweep"]
pts = s["points"]
print("# probed maximum %.0f IOPS" % s["max_iops"])
for p in pts:
    print("# offered %6.0f achieved %6.0f  response p99 %9.2f ms  service p99 %6.2f ms"
          % (p["offered_iops"], p["achieved_iops"], p["response"]["p99_ns"] / 1e6,
             p["service"]["p99_ns"] / 1e6))
# the device's time: the service p99 of the points that kept up (from
# submission to completion, what a measure with coordinated omission
# would call the latency), the least of them
low = min((p for p in pts if p["achieved_iops"] >= 0.9 * p["offered_iops"]),
          key=lambda p: p["service"]["p99_ns"])
dev = low["service"]["p99_ns"]
print("# low-load service p99 %.2f ms, response p99 %.2f ms"
      % (dev / 1e6, low["response"]["p99_ns"] / 1e6))
over = [p for p in pts if p["offered_iops"] > 1.1 * p["achieved_iops"]]
print("overloaded %d" % len(over))
print("resp10x %d" % all(p["response"]["p99_ns"] >= 10 * dev for p in over))
print("svc_hides %d" % all(p["service"]["p99_ns"] < 10 * dev for p in over))
print("grows %d" % all(a["response"]["p99_ns"] < b["response"]["p99_ns"] for a, b in zip(over, over[1:])))
# each point's intervals: their p99s bracket the point's own
def iv_ok(p):
    iv = p["response"].get("interval_p99_ns")
    return bool(iv) and iv["intervals"] >= 2 and iv["min"] <= p["response"]["p99_ns"] <= iv["max"]
print("intervals_ok %d" % all(iv_ok(p) for p in pts))
EOP
grep '^#' "$T/v"
# A host with a run queue of 4 or more threads per CPU (load 35 on this
# 2-core VM) can wake the job tens of ms late at low load: a failed check
# is then a TAP skip that says so, not a verdict on the method.
judge_busy() {
	if awk -v n="$(nproc)" '{ exit !($1 / n >= 4) }' /proc/loadavg; then
		ok "# SKIP $1 (load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs)"
	else
		not_ok "$1"
	fi
}
grep -q '^overloaded [1-9]' "$T/v" && ok "some points are overloaded (offered > achieved x 1.1)" \
	|| not_ok "no overloaded point: $(grep overloaded "$T/v")"
grep -q '^resp10x 1' "$T/v" && ok "overloaded response p99 >= 10x the device's (low-load service p99)" \
	|| judge_busy "response p99 did not grow 10x"
grep -q '^svc_hides 1' "$T/v" && ok "overloaded service p99 stays near the device's (< 10x): it would hide the queue" \
	|| judge_busy "service latency grew too"
grep -q '^grows 1' "$T/v" && ok "response p99 grows with the offered load above the maximum" \
	|| judge_busy "flat response p99 above the maximum"
grep -q '^intervals_ok 1' "$T/v" &&
	ok "every load point keeps its intervals' least and most p99, bracketing its own" ||
	not_ok "interval_p99_ns: $(jq -c '[.load_sweep.points[].response.interval_p99_ns]' "$T/set/cells/0001.json")"
tap_end
