#!/bin/sh
# rate_iops well below what the device can do: the job achieves the rate
# (within 5 %) and, with nothing queued, response latency (from each IO's
# intended start) is close to service latency (from its submission).  The
# device is the model engine with a fixed service time of 200 us, one IO
# at a time, at iodepth 4 (5,000 IOPS at most); the rate is 500 IOPS, linear (within 5 %)
# and poisson (within 10 %: 1 s of random arrivals).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/s.yaml" <<EOS
suite: rate
defaults: {engine: model, model_latency: 200us, size: 16MiB, runtime: 1s, iodepth: 4}
devices:
  - {name: dev, path: $T/d}
matrix: {pattern: [randread], rate_iops: [500], rate_process: [linear, poisson]}
EOS
# A host with a run queue of 4 or more threads per CPU (load 35 on this
# 2-core VM while eight engineers built) woke the job 1.4 ms late at p50:
# its latencies are the machine's then, and a failed check is a TAP skip
# that says so, not a verdict on the rate.
judge_busy() {
	if awk -v n="$(nproc)" '{ exit !($1 / n >= 4) }' /proc/loadavg; then
		ok "# SKIP $1 (load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs)"
	else
		not_ok "$1"
	fi
}
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
for n in 1 2; do
	python3 - "$T/set/cells/000$n.json" >"$T/v" <<'EOP' || judge_busy "cell $n: $(cat "$T/v")"
import json, sys
c = json.load(open(sys.argv[1]))
r = c["repetitions"][0]
d = r["read"]
resp, svc = d["lat_ns"]["percentiles"], d["service_lat_ns"]["percentiles"]
proc = c["params"].get("rate_process", "linear")
print("# %s: %.1f IOPS of 500; response p50 %.0f us p99 %.0f us, service p50 %.0f us p99 %.0f us"
      % (proc, d["iops"], resp["50.000000"] / 1e3,
         resp["99.000000"] / 1e3, svc["50.000000"] / 1e3, svc["99.000000"] / 1e3))
assert c["latency_kind"] == "response", "latency_kind %r" % c.get("latency_kind")
# linear: exactly 500 a second; poisson: its (seeded) arrivals in 1 s,
# a count of sd sqrt(500) = 22 around 500
tol = 25 if proc == "linear" else 50
assert abs(d["iops"] - 500) <= tol, "achieved %.1f, not 500 +- %d" % (d["iops"], tol)
# nothing queues below capacity: response - service is only how late the
# host woke the job for an intended start (0.45 ms at p50 at load 38 on
# this 2-core VM), where an overload adds hundreds of ms
assert resp["50.000000"] - svc["50.000000"] < 1e6, "response p50 over 1 ms above service p50"
EOP
	cat "$T/v"
	grep -q '^#' "$T/v" && ! grep -qv '^#' "$T/v" && ok "cell $n: rate achieved, response ~ service"
done
# the report's "latency runs from submission" does not cover these cells
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none --format md
grep -q "^Except in cells run at a rate (\`rate_iops\`), whose latency runs from each IO's intended start" "$T/rep/report.md" \
	&& ok "the report says these cells hold response latency" || not_ok "no response-latency note"
# the Method section names the offered load (a line only where a cell has
# a rate: report_reference_golden shows none without)
grep -q "what differs: offered load" "$T/rep/report.md" && ok "Method: the offered load differs" \
	|| not_ok "Method: $(grep 'what differs' "$T/rep/report.md")"
tap_end
