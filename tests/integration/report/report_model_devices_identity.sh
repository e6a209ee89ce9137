#!/bin/sh
# A model device is its keys, never the disk under its directory
# (host/devident.h), and where no device may be named faster no ratio says
# otherwise.  Two model devices in two directories of one disk, one with
# twice the other's service time (1 ms and 2 ms, one server, QD64: 1,000
# and 500 IOPS whatever the machine's load, as the queue is never empty):
# no "same device" alert, no "are one device" sentence, and the faster one
# is named faster with its ratio (on the old code both were "the same
# device (/dev/vda)" and "Neither is named faster").  Two with the same
# keys, each swept to a p99 target: one model device (the alert and the
# summary say so, and neither is named faster), and no "sustains Nx the
# IOPS of" sentence beside it.
. "$(dirname "$0")/../../lib.sh"
mk() { # $1 name, $2 m2's keys, $3 more defaults
	cat >"$T/$1.yaml" <<YAML
suite: $1
defaults: {engine: model, size: 1MiB, bs: 4k, pattern: randread$3}
devices: [{name: m1, path: $T/m1}, {name: m2, path: $T/m2$2}]
include: [{label: x}]
YAML
	expect_exit 0 "$IOMATRIX" run "$T/$1.yaml" --out "$T/$1" --quiet
	expect_exit 0 "$IOMATRIX" report "$T/$1" -o "$T/r-$1" --charts none --format md --baseline m1
}
mk two ", model_latency: 2ms" ", model_latency: 1ms, iodepth: 64, runtime: 300ms, repeat: 3"
M="$T/r-two/report.md"
grep -q "same device\|one device\|one model device" "$M" && not_ok "two models called one: $(grep 'device' "$M" | head -3)" \
	|| ok "different keys: two devices, no alert"
grep -q "Neither is named faster" "$M" && not_ok "two models, neither named faster: $(grep 'Neither' "$M")" \
	|| ok "different keys: a verdict may be given"
if grep -q "^- m1 is faster on 1 workload\.$" "$M" &&
   grep -q "^- The largest gap in favour of m1: on 4K random reads at QD64, m1 did [12]\.[0-9]*x the IOPS of m2\.$" "$M"; then
	ok "the faster model device is named, with its ratio"
else
	why=$(model_device_stalled "$T/two" 500)
	[ -n "$why" ] && skip "$why"
	not_ok "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$M")"
fi
mk same "" ", model_latency: 100us, iodepth: 4, runtime: 100ms, load_sweep: {from: 50%, to: 100%, steps: 2}, qos: {p99: 50ms}"
M="$T/r-same/report.md"
grep -q "m1 and m2 are one model device (the same model keys)" "$M" && ok "same keys: the alert" \
	|| not_ok "alert: $(grep '⚠' "$M")"
grep -q "are one model device (the same model keys), so what differs between them is run-to-run variation.*Neither is named faster" "$M" \
	&& ok "the summary names neither faster" || not_ok "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$M")"
grep -q "sustains [0-9.,]*x the IOPS of" "$M" && not_ok "a QoS ratio beside 'neither is named faster': $(grep 'sustains' "$M")" \
	|| ok "no QoS ratio between one device's two names"
grep -q "m[12] sustains [0-9,]* IOPS of" "$M" && ok "each still sustains its own figure" \
	|| not_ok "sustains: $(grep -c sustains "$M")"
tap_end
