#!/bin/sh
# The write-cliff sentence is a claim: it names every plateau of a cliff
# object judged by the plateau rule, and stays silent for a cliff object
# of the old two-segment fit (no plateaus: it took noise for cliffs) and
# for one the rule did not find.  Every cliff a cell found is said where
# its chart marks it (on a loop device over tmpfs the chart said "write
# cliff at 3.0 s" and the summary nothing): on a RAM-backed
# device too, saying that no cache ran out there; a chart marks no cliff
# the summary does not state.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
mkset() { # name cliff-json virtual-kind
	cp -r "$SRC" "$T/$1" && rm -f "$T/$1/SHA256SUMS" || fail "copy"
	# the series the cliff object was fitted on: 4 s in 100 ms intervals,
	# 500 MB/s for 1 s, 250 MB/s for 1 s, 100 MB/s for 2 s, in 1 MB IOs;
	# every repetition the same, with its totals (JQ_AGREE)
	jq --argjson c "$2" "$JQ_AGREE"'.params.bs_bytes = 1000000
	  | .repetitions |= map(.runtime_ns = 4e9
	    | .write.series = {interval_ns: 1e8,
	        ios: ([range(10)|50] + [range(10)|25] + [range(20)|10]),
	        lat_mean_ns: [range(40)|1000],
	        bytes: ([range(10)|5e7] + [range(10)|2.5e7] + [range(20)|1e7])}
	    | .write |= totals(4e9))
	  | .repetitions[0].write.cliff = $c | resummary' "$SRC/cells/0002.json" \
		>"$T/$1/cells/0002.json" || fail "jq cell"
	jq --arg k "$3" '.devices[0].fingerprint.virtual_kind = $k' "$SRC/manifest.json" \
		>"$T/$1/manifest.json" || fail "jq manifest"
}
NEW='{"found": true, "samples": 40, "interval_ns": 1e8, "break_index": 10,
 "break_ns": 1e9, "before_bytes": 5e8, "level1_bw_bytes_s": 5e8,
 "level2_bw_bytes_s": 1e8, "drop_pct": 80, "median_bw_bytes_s": 1e8,
 "stalls": [], "plateaus": [
  {"first_index": 0, "start_ns": 0, "duration_ns": 1e9, "level_bw_bytes_s": 5e8, "bytes": 5e8},
  {"first_index": 10, "start_ns": 1e9, "duration_ns": 1e9, "level_bw_bytes_s": 2.5e8, "bytes": 2.5e8},
  {"first_index": 20, "start_ns": 2e9, "duration_ns": 2e9, "level_bw_bytes_s": 1e8, "bytes": 2e8}]}'
OLD=$(echo "$NEW" | jq -c 'del(.plateaus)')
NOT=$(echo "$NEW" | jq -c '.found = false | .drop_pct = 0 | .why_not = "the speed recovered"')
mkset new "$NEW" virtio
mkset old "$OLD" virtio
mkset ram "$NEW" zram
mkset not "$NOT" virtio
# the charts' scripts (.gp) are written whether gnuplot draws them or not
charts=svg
command -v gnuplot >/dev/null 2>&1 || charts=none
for s in new old ram not; do
	expect_exit 0 "$IOMATRIX" report "$T/$s" -o "$T/rep-$s" --charts $charts --format md
done
grep -q "500 MB/s for the first 500 MB (1.0 s), then 250 MB/s for 250 MB (1.0 s), then 100 MB/s sustained (write cliff, 80 % lower)" \
	"$T/rep-new/report.md" && ok "every plateau named, the last as sustained" ||
	not_ok "sentence: $(grep -i 'cliff' "$T/rep-new/report.md" | head -3)"
grep -q "write cliff" "$T/rep-old/report.md" && not_ok "a cliff claimed from the old two-segment fit" ||
	ok "no claim from a cliff object without plateaus"
grep -q "then 100 MB/s sustained (write cliff, 80 % lower; the device is RAM (zram): no cache ran out, the host slowed the writes)" \
	"$T/rep-ram/report.md" && ok "RAM: the cliff found is said, and why it is no cache's" ||
	not_ok "RAM: $(grep -i 'cliff' "$T/rep-ram/report.md" | head -3)"
grep -q "write cliff" "$T/rep-not/report.md" && not_ok "a cliff claimed the rule did not find" ||
	ok "no claim from a cliff not found"
if [ $charts = svg ]; then
	for s in new ram; do
		grep -q "write cliff at 1.0 s" "$T/rep-$s"/charts/cliff-*.gp &&
			ok "$s: the chart marks the cliff the summary states" || not_ok "$s: chart not marked"
	done
	grep -qs "write cliff at" "$T"/rep-not/charts/*.gp "$T"/rep-old/charts/*.gp &&
		not_ok "a chart marks a cliff the summary does not state" || ok "no chart marks an unstated cliff"
else
	ok "# SKIP charts: gnuplot not installed"
fi
tap_end
