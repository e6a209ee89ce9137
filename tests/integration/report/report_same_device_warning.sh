#!/bin/sh
# Two suite devices whose paths lie on one block device compare a device
# with itself: `run` says so before the first cell (and prints what each
# path resolves to, marking paths it will create: psync, as the null engine
# creates nothing), and the report carries a
# prominent warning naming both devices and the block device.  Two runs
# of that suite reported together name all four targets, "hdd@vm#1,
# ssd@vm#1, hdd@vm#2 and ssd@vm#2" (the second run's hdd was left out); one device in
# two sets (a device and its own past) is no alert.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/a"
cat >"$T/s.yaml" <<EOS
suite: samedev
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 100ms}
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
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set2" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" "$T/set2" --charts none -o "$T/two"
line=$(grep "are the same device" "$T/two/report.md")
n=$(echo "$line" | grep -o "hdd[^ ,]*\|ssd[^ ,]*" | sort -u | wc -l)
[ "$n" = 4 ] && echo "$line" | grep -q "hdd[^ ,]*, ssd[^ ,]*, hdd[^ ,]* and ssd[^ ,]* are the same device ($bd)" &&
	ok "two sets: all four targets named, with 'and' before the last" || not_ok "two sets: $line"
[ "$(grep -c "are the same device" "$T/two/report.md")" = 1 ] && ok "one alert for one disk" ||
	not_ok "alerts: $(grep "are the same device" "$T/two/report.md")"
# compare names the four as the issue saw them: "a (old) and b (old), b (new)"
expect_exit 0 "$IOMATRIX" compare "$T/set" "$T/set2" -o "$T/cmp"
grep -q "hdd (old), ssd (old), hdd (new) and ssd (new) are the same device ($bd)" "$T/cmp/compare.md" &&
	ok "compare: old and new of both named" || not_ok "compare: $(grep 'same device' "$T/cmp/compare.md")"
# one device in two sets: no alert
sed '/name: ssd/d' "$T/s.yaml" >"$T/one.yaml"
expect_exit 0 "$IOMATRIX" run "$T/one.yaml" --out "$T/o1" --quiet
expect_exit 0 "$IOMATRIX" run "$T/one.yaml" --out "$T/o2" --quiet
expect_exit 0 "$IOMATRIX" report "$T/o1" "$T/o2" --charts none -o "$T/onerep"
grep -q "same device" "$T/onerep/report.md" && not_ok "a device and its own past called the same device" ||
	ok "one device in two sets: no alert"
tap_end
