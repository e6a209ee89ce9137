#!/bin/sh
# The site's device page shows the latest set's latency-over-time chart
# for each workload that has one: two dated SYNTHETIC sets of
# one device and a 24 s workload with interval histograms
# (tests/bench/gen_hour_cell.py), the newer with a report of its own (the
# site draws a set's charts only then): the device page's workload has a
# figure whose image is that set's percentiles-over-time chart, and the
# file is there.  With the newer set's report removed, the next build's
# device page has no such figure (none drawn), and its other workload,
# of a short IOPS cell, never had one.  (On the code before: none.)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd jq
command -v gnuplot >/dev/null 2>&1 || skip "gnuplot not installed: the site draws no chart"
mkdir -p "$T/arc"
mk() { # NAME DATE
	python3 "$ROOT/tests/report/gen_synthetic.py" "$T/arc/$1" --devices ssd:ssd --cells 2 \
		--started "$2" >/dev/null &&
		python3 "$ROOT/tests/bench/gen_hour_cell.py" "$T/arc/$1" 24 >/dev/null || fail "generator"
}
mk a 2026-11-01T00:00:00Z
mk b 2026-11-20T00:00:00Z
expect_exit 0 "$IOMATRIX" report "$T/arc/b" --charts none --format html
expect_exit 0 "$IOMATRIX" site "$T/arc" -o "$T/site"
page=$(ls "$T/site/devices/"*.html | head -n 1)
src=$(grep -o '<img src="\.\./sets/[^"]*lattime-[^"]*percentiles\.svg"' "$page" | sed 's/<img src="\.\.\///; s/"$//')
[ "$(echo "$src" | grep -c .)" = 1 ] && ok "the device page shows one latency-over-time chart" ||
	not_ok "charts on the page: '$src'"
[ -n "$src" ] && [ -s "$T/site/$src" ] && ok "it is the newest set's chart, drawn ($src)" || not_ok "no file $T/site/$src"
echo "$src" | grep -q "^sets/[^/]*b[^/]*/charts/" && ok "from the latest set" || not_ok "from $src"
grep -q 'Latency over time in the latest set' "$page" && ok "its caption says whose it is" || not_ok "caption"

rm -rf "$T/arc/b/report"
expect_exit 0 "$IOMATRIX" site "$T/arc" -o "$T/site"
! grep -q 'lattime-' "$page" && ok "no report of its own: no chart drawn, none shown" ||
	not_ok "still shown: $(grep -o 'lattime-[^"]*' "$page")"
tap_end
