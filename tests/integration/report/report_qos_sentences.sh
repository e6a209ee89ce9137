#!/bin/sh
# The QoS sentences, each with a test on both sides (synthetic sets with a
# toy hockey stick, tests/report/gen_synthetic.py --sweep): "sustains N
# IOPS ... with p99 <= X (P % of its maximum)" where a point meets the
# target; "does not meet ... at any tested load (lowest ...)" where none
# does; "A sustains Nx the B's IOPS" only when both meet the same target;
# no QoS sentence at all for a sweep without a target, or without a sweep;
# a load that meets the target above a lower one that does not is not
# "sustained".
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { d=$1; shift; python3 "$ROOT/tests/report/gen_synthetic.py" "$T/$d" --devices hdd:hdd,ssd:ssd \
	--cells 2 "$@" >/dev/null || fail "gen $d"; }
rep() { expect_exit 0 "$IOMATRIX" report "$T/$1" -o "$T/$1/rep" --baseline hdd --charts none; }
gen both --sweep --qos-ms 50 && rep both
gen split --sweep --qos-ms 10 && rep split
gen notarget --sweep && rep notarget
gen nosweep && rep nosweep
gen spike --sweep --qos-ms 1 --sweep-spike && rep spike
md() { cat "$T/$1/rep/report.md"; }
md both | grep -q '^- ssd sustains 9,000 IOPS of 4K random reads at QD1 with p99 ≤ 50 ms (100 % of its maximum)\.' \
	&& ok "sustains: the highest load meeting the target, share of the maximum" \
	|| not_ok "sustains: $(md both | grep sustains)"
md both | grep -q '^- ssd sustains [0-9.]*x the hdd.s IOPS at p99 ≤ 50 ms (4K random reads at QD1)\.' \
	&& ok "both meet one target: the ratio against the baseline" \
	|| not_ok "ratio: $(md both | grep 'the hdd')"
md split | grep -q '^- hdd does not meet p99 ≤ 10 ms for 4K random reads at QD1 at any tested load (lowest p99: 14.8 ms at 20 %)\.' \
	&& ok "does not meet: the lowest p99 and where" || not_ok "not met: $(md split | grep 'not meet')"
md split | grep -q '^- ssd sustains' && ok "the other device of that set still sustains" \
	|| not_ok "split: no ssd sentence"
md split | grep -q "the hdd.s IOPS at" && not_ok "a ratio although the hdd meets nothing" \
	|| ok "no ratio when one device meets nothing"
md notarget | grep -q "sustains\|does not meet" && not_ok "a sentence without a target" \
	|| ok "a sweep without a target: table, no sentence"
md notarget | grep -q '^## Latency under load: ssd' && ok "a sweep without a target has its section" \
	|| not_ok "no QoS section"
md nosweep | grep -q "Latency under load\|sustains\|does not meet" && not_ok "QoS text without a sweep" \
	|| ok "no sweep: no QoS section, no sentence"
md both | grep -q "^Except in cells run at a rate" && not_ok "a response-latency note without a rated cell" \
	|| ok "no rated cell: latency runs from submission, no exception noted"
md spike | grep -q '^- ssd does not meet p99 ≤ 1 ms for 4K random reads at QD1 at its lowest tested load (p99: 3.33 ms at 1,800 IOPS), so it sustains none; higher loads met it only here and there\.' \
	&& ok "met only above a failing lowest load: no sustained claim, says so" \
	|| not_ok "spike: $(md spike | grep 'ssd does not\|ssd sustains')"
md spike | grep -q '^- ssd sustains' && not_ok "sustains claimed over a failing lower load" \
	|| ok "no sustains sentence over a failing lower load"
# the chart: one per swept cell, knee and target drawn, none without a sweep
if command -v gnuplot >/dev/null 2>&1; then
	expect_exit 0 "$IOMATRIX" report "$T/both" -o "$T/both/charts" --charts svg --format md
	gp=$(ls "$T"/both/charts/charts/qos-*.gp 2>/dev/null | wc -l)
	[ "$gp" = 2 ] && [ -s "$T/both/charts/charts/qos-1.svg" ] && ok "a QoS chart per swept cell" \
		|| not_ok "QoS charts: $gp"
	grep -q "label 'knee'" "$T/both/charts/charts/qos-2.gp" && grep -q "label 'target: p99 50 ms'" \
		"$T/both/charts/charts/qos-2.gp" && grep -q "set logscale y" "$T/both/charts/charts/qos-2.gp" \
		&& ok "knee, target line and log latency axis" || not_ok "chart marks missing"
	expect_exit 0 "$IOMATRIX" report "$T/nosweep" -o "$T/nosweep/charts" --charts svg --format md
	ls "$T"/nosweep/charts/charts/qos-* >/dev/null 2>&1 && not_ok "a QoS chart without a sweep" \
		|| ok "no sweep, no QoS chart"
fi
tap_end
