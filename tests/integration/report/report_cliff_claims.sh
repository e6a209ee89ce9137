#!/bin/sh
# The write-cliff sentence is a claim: it names every plateau of a cliff
# object judged by the plateau rule, and stays silent for a cliff object
# of the old two-segment fit (no plateaus: it took noise for cliffs) and on
# a RAM-backed device (nothing to run out of).
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
mkset() { # name cliff-json virtual-kind
	cp -r "$SRC" "$T/$1" && rm -f "$T/$1/SHA256SUMS" || fail "copy"
	jq --argjson c "$2" '.repetitions[0].write.cliff = $c' "$SRC/cells/0002.json" \
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
mkset new "$NEW" virtio
mkset old "$OLD" virtio
mkset ram "$NEW" zram
for s in new old ram; do
	expect_exit 0 "$IOMATRIX" report "$T/$s" -o "$T/rep-$s" --charts none --format md
done
grep -q "500 MB/s for the first 500 MB (1.0 s), then 250 MB/s for 250 MB (1.0 s), then 100 MB/s sustained (write cliff, 80 % lower)" \
	"$T/rep-new/report.md" && ok "every plateau named, the last as sustained" ||
	not_ok "sentence: $(grep -i 'cliff' "$T/rep-new/report.md" | head -3)"
grep -q "write cliff" "$T/rep-old/report.md" && not_ok "a cliff claimed from the old two-segment fit" ||
	ok "no claim from a cliff object without plateaus"
grep -q "write cliff" "$T/rep-ram/report.md" && not_ok "a cliff claimed on a RAM device" ||
	ok "no claim on a RAM-backed device"
tap_end
