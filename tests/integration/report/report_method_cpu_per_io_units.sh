#!/bin/sh
# The Method's CPU-per-IO range is written as a reader reads a time
# ("4.21 µs to 1.24 ms"), not as raw nanoseconds ("4206 to 1238130 ns",
# the example report); a set whose cells have no CPU per IO (the
# reference set, written before it was kept) has no such line.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: cpu
defaults: {engine: "null", size: 4MiB, runtime: 50ms}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread, read], bs: [4k, 1m]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/r" --charts none --format md,html
L=$(grep '^CPU per IO' "$T/r/report.md")
echo "$L" | grep -Eq '\): [0-9.]+ (ns|µs|ms) to [0-9.]+ (ns|µs|ms) over 4 cells;' \
	&& ok "the range in time units" || not_ok "line: $L"
echo "$L" | sed 's/`[^`]*`//g' | grep -Eq '[0-9]{4}' && not_ok "a raw number of 4+ digits: $L" \
	|| ok "no raw nanosecond counts"
grep -Eq 'CPU per IO .*: [0-9.]+ (ns|µs|ms) to ' "$T/r/report.html" && ok "the HTML too" \
	|| not_ok "html: $(grep 'CPU per IO' "$T/r/report.html")"
expect_exit 0 "$IOMATRIX" report "$ROOT/results/reference/2026-11-30T033909Z_ref-tmp-vs-shm_vm" \
	-o "$T/ref" --charts none --format md
grep -q 'CPU per IO' "$T/ref/report.md" && not_ok "a CPU-per-IO line without the numbers" \
	|| ok "no CPU per IO recorded: no line"
tap_end
