#!/bin/sh
# A load sweep given as a list of IOPS is named as the report prints counts:
# "load sweep at 1,000 and 2,000 IOPS", "at 500, 1,800 and 10,000 IOPS",
# "at 1,500 IOPS" (it read "at 1000, 2000 IOPS" beside "2,000" in the same
# sentence); a cell without a sweep is named without one.  The model
# engine with a fixed latency stands in for a device.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: sweep-names
defaults: {engine: model, model_latency: 50us, size: 1MiB, runtime: 100ms, iodepth: 1, bs: 4k, pattern: randread}
devices: [{name: d, path: $T/d}]
include:
  - {label: plain}
  - {label: two, load_sweep: {iops: [1000, 2000]}, qos: {p99: 10ms}}
  - {label: three, load_sweep: {iops: [500, 1800, 10000]}}
  - {label: one, load_sweep: {iops: [1500]}}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none
md=$T/set/report/report.md
grep -q '^### 4K random read, load sweep at 1,000 and 2,000 IOPS, p99 ≤ 10 ms (two)$' "$md" \
	&& ok "two points: grouped, joined by 'and'" || not_ok "two: $(grep '^### ' "$md")"
grep -q '^### 4K random read, load sweep at 500, 1,800 and 10,000 IOPS (three)$' "$md" \
	&& ok "three points: commas, then 'and'" || not_ok "three: $(grep '^### ' "$md")"
grep -q '^### 4K random read, load sweep at 1,500 IOPS (one)$' "$md" \
	&& ok "one point: no 'and'" || not_ok "one: $(grep '^### ' "$md")"
grep '^### .*(plain)$' "$md" | grep -q "sweep" && not_ok "a cell without a sweep named with one" \
	|| ok "no sweep, no sweep in its name"
grep -q 'sweep at [0-9]*[0-9]\{4\}' "$md" && not_ok "an ungrouped count: $(grep -o 'sweep at [^)]*' "$md" | head -1)" \
	|| ok "no ungrouped count anywhere in the report"
tap_end
