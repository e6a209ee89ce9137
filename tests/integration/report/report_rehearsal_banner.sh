#!/bin/sh
# A set run with --scale is a rehearsal: report.md, report.html, report.csv
# and report.json all say so, Method shows the exact command line (with
# --scale and every --device override), the footer does not claim the
# numbers re-run from the suite, and `list` shows the scale.  A full-scale
# set carries no banner.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/a" "$T/b"
cat >"$T/s.yaml" <<EOS
suite: rehearse
defaults: {engine: null, size: 1MiB, runtime: 100ms}
devices:
  - {name: one, path: /nonexistent-placeholder}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --scale 0.5 --device "one=$T/a" --out "$T/r/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/r/set" --charts none
R="$T/r/set/report"
grep -q 'Rehearsal, not a measurement.*--scale 0.5' "$R/report.md" && ok "md banner" || not_ok "md banner"
# the banner comes before the summary
b=$(grep -n 'Rehearsal, not a measurement' "$R/report.md" | head -1 | cut -d: -f1)
s=$(grep -n '^## Summary' "$R/report.md" | cut -d: -f1)
[ -n "$b" ] && [ "$b" -lt "$s" ] && ok "banner above the summary" || not_ok "banner position $b $s"
grep -q 'class="alert".*Rehearsal, not a measurement' "$R/report.html" && ok "html banner" || not_ok "html banner"
grep -q '"rehearsal":[[:space:]]*true' "$R/report.json" && ok "json flag" || not_ok "json flag"
head -1 "$R/report.csv" | grep -q '^set,host,device,scale,source,' && ok "csv scale column" || not_ok "csv header"
sed -n 2p "$R/report.csv" | grep -q '^[^,]*,[^,]*,one,0.5,iomatrix,' && ok "csv row scale 0.5" || not_ok "csv row: $(sed -n 2p "$R/report.csv" | cut -c1-80)"
grep -q "iomatrix run $T/s.yaml --scale 0.5 --device one=$T/a --out $T/r/set" "$R/report.md" \
	&& ok "exact command line in Method" || not_ok "command line"
grep -q 'every number here can be re-run' "$R/report.html" && not_ok "footer still claims re-run" || ok "footer honest"
grep -q 'This is a rehearsal at reduced scale' "$R/report.md" && ok "md footer says rehearsal" || not_ok "md footer"
expect_exit 0 "$IOMATRIX" list "$T/r"
head -1 "$T/out" | grep -q 'SCALE' && ok "list has a SCALE column" || not_ok "list header: $(head -1 "$T/out")"
grep -q ' 0.5 ' "$T/out" && ok "list shows 0.5" || not_ok "list row"

# full scale: no banner
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device "one=$T/a" --out "$T/f/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/f/set" --charts none --format md,json
grep -q 'Rehearsal' "$T/f/set/report/report.md" && not_ok "banner on a full run" || ok "no banner at full scale"
grep -q '"rehearsal":[[:space:]]*false' "$T/f/set/report/report.json" && ok "json rehearsal false" || not_ok "json false"

# a scaled file size is a whole MiB, so cells of 4K and 1M blocks share one
# file size (4 GiB x 0.1 = 409 MiB, not 419428K and 409M side by side)
cat >"$T/big.yaml" <<EOS
suite: big
defaults: {size: 4GiB, runtime: 20s}
devices:
  - {name: a, path: $T/a}
matrix: {pattern: [randread], bs: [4k, 1m]}
EOS
expect_exit 0 "$IOMATRIX" plan "$T/big.yaml" --scale 0.1 --format json
sizes=$(tr ',' '\n' <"$T/out" | sed -n 's/.*"size_bytes":[[:space:]]*\([0-9]*\).*/\1/p' | sort -u)
[ "$sizes" = 428867584 ] && ok "scaled size is 409 MiB for every block size" || not_ok "sizes: $sizes"
# with 4 MiB blocks among them, every cell of a device still shares one size
expect_exit 0 "$IOMATRIX" plan "$ROOT/suites/hdd-vs-ssd.yaml" --scale 0.05 --format json
n=$(python3 -c 'import json,sys; print(len({(c["device"], c["size_bytes"]) for c in json.load(open(sys.argv[1]))["cells"]}))' "$T/out")
[ "$n" = 2 ] && ok "hdd-vs-ssd at 0.05: one file size per device" || not_ok "$n (device, size) pairs"
tap_end
