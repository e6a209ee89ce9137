#!/bin/sh
# The "Latency over time" section and its sentences, each
# where the data say it and where they do not, on SYNTHETIC sets
# (tests/bench/gen_hour_cell.py: a log-normal latency per 1 s interval):
# - a 24 s cell is shown (longer than 10 s) with two charts; an 8 s cell of
#   IOPS is not; an 8 s latency cell (label LAT...) is;
# - the spike sentence names the stretch whose p99 is 10x the median
#   interval's ("p99 rose to ... from 12 s to 15 s, ...x the median
#   interval's p99"), and stays silent on the same cell without it;
# - --charts none keeps the section's words and draws nothing;
# - a load point whose intervals' p99s lie more than 2x apart says so in
#   its row of the QoS table, one 1.5x apart says nothing;
# - a set without series.hist (older, imported) has no section.
# (On the code before: no such section or note.)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd jq
gen() { # DIR SECONDS [LABEL] [--stall ...]
	d=$1; s=$2; l=${3:-}; shift 3 2>/dev/null || shift $#
	python3 "$ROOT/tests/report/gen_synthetic.py" "$d" --devices ssd:ssd --cells 1 >/dev/null &&
		python3 "$ROOT/tests/bench/gen_hour_cell.py" "$d" "$s" "$@" >/dev/null || fail "generator"
	[ -z "$l" ] || { jq --arg l "$l" '.params.label = $l' "$d/cells/0001.json" >"$T/x" &&
		mv "$T/x" "$d/cells/0001.json"; }
}
charts=svg
command -v gnuplot >/dev/null 2>&1 || charts=none
gen "$T/stall" 24 "" --stall 12:15:20
expect_exit 0 "$IOMATRIX" report "$T/stall" -o "$T/r1" --charts "$charts" --format md
md=$T/r1/report.md
grep -q "^## Latency over time: ssd, " "$md" && ok "a 24 s cell has the section" || not_ok "no section"
if [ "$charts" = svg ]; then
	n=$(grep -c '^!\[Latency \(percentiles over time\|heatmap\)' "$md")
	[ "$n" = 2 ] && ok "two charts: percentiles over time and the heatmap" || not_ok "$n charts"
fi
grep -Eq "ssd, .*: p99 rose to [0-9.]+ ms from 12 s to 15 s, [0-9.]+x the median interval's p99 \([0-9.]+ .s\)\." "$md" &&
	ok "the spike sentence names the stretch" || not_ok "spike: $(grep -n 'p99 rose\|Latency over time' "$md")"

gen "$T/calm" 24 ""
expect_exit 0 "$IOMATRIX" report "$T/calm" -o "$T/r2" --charts none --format md
grep -q "^## Latency over time" "$T/r2/report.md" && ok "a 24 s cell without charts keeps the section's words" ||
	not_ok "no section under --charts none"
! grep -q '^!\[Latency' "$T/r2/report.md" && ok "--charts none draws no chart" || not_ok "charts drawn"
! grep -q "p99 rose" "$T/r2/report.md" && ok "no spike, no spike sentence" || not_ok "spike said: $(grep 'p99 rose' "$T/r2/report.md")"

gen "$T/short" 8 ""
expect_exit 0 "$IOMATRIX" report "$T/short" -o "$T/r3" --charts none --format md
! grep -q "^## Latency over time" "$T/r3/report.md" && ok "an 8 s IOPS cell: no section" || not_ok "section for a short IOPS cell"
gen "$T/lat" 8 "LAT4K Q1T1"
expect_exit 0 "$IOMATRIX" report "$T/lat" -o "$T/r4" --charts none --format md
grep -q "^## Latency over time: ssd, .*LAT4K Q1T1" "$T/r4/report.md" && ok "an 8 s latency cell: the section" ||
	not_ok "no section for a latency cell: $(grep '^## ' "$T/r4/report.md")"
jq 'del(.repetitions[].read.series.hist)' "$T/lat/cells/0001.json" >"$T/x" && mv "$T/x" "$T/lat/cells/0001.json"
expect_exit 0 "$IOMATRIX" report "$T/lat" -o "$T/r5" --charts none --format md
! grep -q "^## Latency over time" "$T/r5/report.md" && ok "without series.hist: no section" || not_ok "section without series.hist"

# the load points: one with its intervals' p99s 3x apart, one 1.5x
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/sw" --devices ssd:ssd --cells 1 --sweep >/dev/null || fail "generator"
c=$T/sw/cells/0001.json
jq '.load_sweep.points[2].response.interval_p99_ns = {"intervals": 5, "min": 200000, "max": 600000}
  | .load_sweep.points[1].response.interval_p99_ns = {"intervals": 5, "min": 200000, "max": 300000}' "$c" >"$T/x" &&
	mv "$T/x" "$c"
expect_exit 0 "$IOMATRIX" report "$T/sw" -o "$T/r6" --charts none --format md
rows=$(sed -n '/^## Latency under load/,/^## /p' "$T/r6/report.md" | grep '^| [0-9]')
echo "$rows" | sed -n 3p | grep -q "p99 3.00x apart between its 5 intervals (200 µs to 600 µs)" &&
	ok "a load point whose p99 varies 3x between its intervals says so" || not_ok "rows: $rows"
[ "$(echo "$rows" | grep -c 'apart between')" = 1 ] && ok "a load point 1.5x apart says nothing" ||
	not_ok "notes: $(echo "$rows" | grep 'apart')"
tap_end
