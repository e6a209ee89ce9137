#!/bin/sh
# Two suite devices whose paths lie on one block device compare a device
# with itself: `run` says so before the first cell (and prints what each
# path resolves to, marking paths it will create), and the report carries a
# prominent warning naming both devices and the block device.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/a"
cat >"$T/s.yaml" <<EOS
suite: samedev
defaults: {engine: null, size: 1MiB, runtime: 100ms}
devices:
  - {name: hdd, path: $T/a}
  - {name: ssd, path: $T/b}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set"
bd=$(sed -n 's/.*"block_device":[[:space:]]*"\([^"]*\)".*/\1/p' "$T/set/manifest.json" | head -1)
[ -n "$bd" ] || skip "this filesystem has no block device (tmpfs, overlay): nothing to compare"
grep -q "hdd.*$bd" "$T/err" && ok "run prints hdd's block device" || not_ok "run device line: $(head -5 "$T/err")"
grep -q "ssd.*will be created" "$T/err" && ok "run marks the path it creates" || not_ok "creation mark"
grep -q "hdd and ssd are the same device ($bd)" "$T/err" && ok "run warns before the first cell" || not_ok "run warning"
w=$(grep -n 'same device' "$T/err" | head -1 | cut -d: -f1)
c=$(grep -n '^cell 1/' "$T/err" | head -1 | cut -d: -f1)
[ -n "$w" ] && [ -n "$c" ] && [ "$w" -lt "$c" ] && ok "warning before cell 1" || not_ok "order $w $c"
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none
grep -q "hdd and ssd are the same device ($bd): this compares a device with itself" "$T/set/report/report.md" \
	&& ok "report warns" || not_ok "report warning"
grep -q 'class="alert".*same device' "$T/set/report/report.html" && ok "html alert" || not_ok "html alert"
tap_end
