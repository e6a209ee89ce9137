#!/bin/sh
# Where no device may be named faster, no ratio sentence names one either.
# Two suite devices in two directories of one disk, each swept to a p99
# target: the summary says they are one device and names neither faster,
# and so the QoS section writes each one's sustained load but no "b
# sustains 1.52x the IOPS of a" between them (the old code wrote it beside
# "Neither is named faster").  The same sweep on two model devices of
# different keys (two devices) keeps the ratio sentence.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/a"
cat >"$T/s.yaml" <<EOS
suite: samedev-qos
defaults: {engine: psync, direct: false, size: 1MiB, bs: 4k, pattern: randread, runtime: 100ms,
           load_sweep: {from: 50%, to: 100%, steps: 2}, qos: {p99: 50ms}}
devices: [{name: a, path: $T/a}, {name: b, path: $T/b}]
include: [{label: x}]
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
bd=$(sed -n 's/.*"block_device":[[:space:]]*"\([^"]*\)".*/\1/p' "$T/set/manifest.json" | head -1)
[ -n "$bd" ] || skip "this filesystem has no block device (tmpfs, overlay): nothing to compare"
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/r" --charts none --format md
M="$T/r/report.md"
grep -q "^- b and a are one device ($bd), .*Neither is named faster\.$" "$M" &&
	ok "one device: neither named faster" || not_ok "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$M")"
grep -q "sustains [0-9.,]*x the IOPS of" "$M" &&
	not_ok "a ratio beside 'Neither is named faster': $(grep 'x the IOPS of' "$M")" ||
	ok "no QoS ratio between one device's two names"
# two model devices, 1 ms and 2 ms: two devices, and the ratio is said
cat >"$T/m.yaml" <<EOS
suite: models-qos
defaults: {engine: model, model_latency: 1ms, iodepth: 16, size: 1MiB, bs: 4k, pattern: randread,
           runtime: 200ms, load_sweep: {from: 50%, to: 90%, steps: 2}, qos: {p99: 500ms}}
devices: [{name: a, path: $T/ma}, {name: b, path: $T/mb, model_latency: 2ms}]
include: [{label: x}]
EOS
expect_exit 0 "$IOMATRIX" run "$T/m.yaml" --out "$T/mset" --quiet
expect_exit 0 "$IOMATRIX" report "$T/mset" -o "$T/mr" --charts none --format md
# (what shows the order: b's maximum below what a sustained, or, where b
# fell behind at a load a sustained on a loaded machine, that load)
grep -Eq "^- b sustains 0\.[0-9]*x the IOPS of a at p99 ≤ 500 ms \(4K random reads at QD16\): (b's maximum, [0-9,]* IOPS, is below the [0-9,]* a sustained|b missed it at [0-9,]* IOPS, a load a sustained)\.$" "$T/mr/report.md" &&
	ok "two model devices: the ratio is said" ||
	not_ok "model ratio: $(sed -n '/^## Summary/,/^Throughput/p' "$T/mr/report.md")"
tap_end
