#!/bin/sh
# One x convention for time series: the time-series
# chart and the write-cliff chart draw the same samples at the same x, the
# MIDPOINT of each interval (0.05 s for the first 100 ms interval; the last,
# partial interval at the middle of its real length), and both axes say so.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd gnuplot
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
cp -r "$SRC" "$T/s" && rm -f "$T/s/SHA256SUMS" || fail "copy"
# 40 intervals of 100 ms, the last cut at 70 ms (runtime 3.97 s); a cliff
# found by the plateau rule, so that the cliff chart is drawn too.  IOs of
# 1 MB, so that the series' IOs and bytes agree with each other and with
# each repetition's totals (JQ_AGREE); every repetition the same
jq "$JQ_AGREE"'.params.bs_bytes = 1000000 | .repetitions |= map(.runtime_ns = 3970000000
  | .write.series = {interval_ns: 1e8,
      ios: ([range(10)|50] + [range(29)|10] + [7]), lat_mean_ns: [range(40)|1000],
      bytes: ([range(10)|5e7] + [range(29)|1e7] + [7e6])}
  | .write |= totals(3970000000)) | resummary
  | .repetitions[0].write.cliff = {found: true, samples: 40, interval_ns: 1e8,
      break_index: 10, break_ns: 1e9, before_bytes: 5e8,
      level1_bw_bytes_s: 5e8, level2_bw_bytes_s: 1e8, drop_pct: 80,
      median_bw_bytes_s: 1e8, stalls: [], plateaus: [
       {first_index: 0, start_ns: 0, duration_ns: 1e9, level_bw_bytes_s: 5e8, bytes: 5e8},
       {first_index: 10, start_ns: 1e9, duration_ns: 2.97e9, level_bw_bytes_s: 1e8, bytes: 2.97e8}]}' \
	"$SRC/cells/0002.json" >"$T/s/cells/0002.json" || fail "jq"
expect_exit 0 "$IOMATRIX" report "$T/s" -o "$T/r" --charts svg --format md
ts=$(ls "$T/r/charts/"*mbs-over-time*.dat 2>/dev/null | head -1)
cl=$(ls "$T/r/charts/"cliff-*.dat 2>/dev/null | head -1)
[ -n "$ts" ] && [ -n "$cl" ] || fail "charts: $(ls "$T/r/charts")"
# x of every sample: the time series' first column, the cliff chart's first
awk 'NR > 1 && $1 != "NaN" { printf "%.4f\n", $1 }' "$ts" >"$T/ts.x"
awk 'NR > 1 { printf "%.4f\n", $1 }' "$cl" >"$T/cl.x"
[ "$(head -1 "$T/ts.x")" = 0.0500 ] && ok "time series: the first interval at its midpoint, 0.05 s" \
	|| not_ok "time series starts at $(head -1 "$T/ts.x")"
[ "$(tail -1 "$T/ts.x")" = 3.9350 ] && ok "time series: the partial last interval at the middle of its 70 ms" \
	|| not_ok "time series ends at $(tail -1 "$T/ts.x")"
cmp -s "$T/ts.x" "$T/cl.x" && ok "the cliff chart puts the same samples at the same x" \
	|| not_ok "x differ: $(diff "$T/ts.x" "$T/cl.x" | head -4 | tr '\n' ' ')"
# the 70 ms tail holds 7 MB: 100 MB/s like its neighbours in both charts
awk 'END { exit !($2 > 99.9 && $2 < 100.1) }' "$ts" && awk 'END { exit !($2 > 99.9 && $2 < 100.1) }' "$cl" \
	&& ok "the partial interval is scaled by its real length in both" \
	|| not_ok "last values: $(tail -1 "$ts") / $(tail -1 "$cl")"
for f in "$ts" "$cl"; do
	grep -q "^set xlabel 'time (s), each interval at its midpoint'" "${f%.dat}.gp" \
		&& ok "$(basename "$f" .dat): the axis names the convention" \
		|| not_ok "$(basename "$f" .dat): $(grep xlabel "${f%.dat}.gp")"
done
tap_end
