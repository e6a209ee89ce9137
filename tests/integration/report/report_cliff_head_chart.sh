#!/bin/sh
# A cache found in the fine samples of a write's start:
# 0.3 s at 1,000 MB/s, then 300 MB/s for 10 s in 1 s intervals.  The
# summary names the short plateau, and the cliff chart draws the fine
# samples (20 ms, at their midpoints) with the head's level, so that the
# reader sees what the coarse intervals average away.  Without
# head_from_fine the chart has no fine block.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd gnuplot
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
mkset() { # name head-from-fine(true|false)
	cp -r "$SRC" "$T/$1" && rm -f "$T/$1/SHA256SUMS" || fail "copy"
	# IOs of 2 MB: the series' IOs and bytes agree with each other and
	# with each repetition's totals (JQ_AGREE); every repetition the same
	jq --argjson h "$2" "$JQ_AGREE"'.params.bs_bytes = 2000000 | .repetitions |= map(.runtime_ns = 10000000000
	  | .write.series = {interval_ns: 1e9,
	      ios: ([255] + [range(9)|150]), lat_mean_ns: [range(10)|1000],
	      bytes: ([5.1e8] + [range(9)|3e8]),
	      fine: {interval_ns: 2e7, ios: ([range(15)|10] + [range(85)|3]), lat_mean_ns: [range(100)|1000],
	             bytes: ([range(15)|2e7] + [range(85)|6e6])}}
	  | .write |= totals(10000000000)) | resummary
	  | .repetitions[0].write.cliff = {found: true, samples: 10, interval_ns: 1e9,
	      break_index: 0, break_ns: 3e8, before_bytes: 3e8, head_from_fine: $h,
	      level1_bw_bytes_s: 1e9, level2_bw_bytes_s: 3e8, drop_pct: 70,
	      median_bw_bytes_s: 3e8, stalls: [], plateaus: [
	       {first_index: 0, start_ns: 0, duration_ns: 3e8, level_bw_bytes_s: 1e9, bytes: 3e8},
	       {first_index: 0, start_ns: 3e8, duration_ns: 9.7e9, level_bw_bytes_s: 3e8, bytes: 2.91e9}]}
	  | if $h then . else del(.repetitions[0].write.cliff.head_from_fine) end' \
		"$SRC/cells/0002.json" >"$T/$1/cells/0002.json" || fail "jq"
	expect_exit 0 "$IOMATRIX" report "$T/$1" -o "$T/r-$1" --charts svg --format md
}
mkset head true
grep -q "1,000 MB/s for the first 300 MB (0.3 s), then 300 MB/s sustained (write cliff, 70 % lower)" \
	"$T/r-head/report.md" && ok "the summary names the 0.3 s plateau" \
	|| not_ok "summary: $(grep -i cliff "$T/r-head/report.md" | head -2)"
D="$T/r-head/charts/cliff-2-1.dat"
# index 1 of the .dat: the fine samples, after the first blank lines
awk 'BEGIN { b = 0 } /^$/ { b++; next } b == 2 && $1 !~ /"/ { print $1, $2, $3 }' "$D" >"$T/fine"
[ "$(wc -l <"$T/fine")" = 100 ] && ok "100 fine samples drawn" || not_ok "fine rows: $(wc -l <"$T/fine")"
[ "$(head -1 "$T/fine")" = "0.01 1000 1000" ] && ok "the first at its midpoint, 0.01 s, 1,000 MB/s on the head's level" \
	|| not_ok "first fine row: $(head -1 "$T/fine")"
[ "$(sed -n 16p "$T/fine")" = "0.31 300 300" ] && ok "after 0.3 s: 300 MB/s on the next level" \
	|| not_ok "16th fine row: $(sed -n 16p "$T/fine")"
grep -q "title 'first 2 s in 20 ms'" "${D%.dat}.gp" && ok "the key names the fine samples" \
	|| not_ok "plot: $(grep '^plot' "${D%.dat}.gp")"
grep -q "write cliff at 0.3 s" "${D%.dat}.gp" && ok "the cliff marked at 0.3 s" \
	|| not_ok "label: $(grep label "${D%.dat}.gp")"
mkset nohead false
grep -c '^$' "$T/r-nohead/charts/cliff-2-1.dat" | grep -qx 0 && ok "without head_from_fine: no fine block" \
	|| not_ok "a fine block without a head"
tap_end
