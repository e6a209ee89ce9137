#!/bin/sh
# The site's trend charts: a title in the image naming
# the workload, the metric and the machine; date ticks that are never
# printed twice (six sets 12 s apart printed '12-01 13:51' six times) and
# never outside the data (the last rotated label was cut at the right
# edge); the same over a month of daily sets.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd gnuplot
GEN="$ROOT/tests/report/gen_archive.py"
python3 "$GEN" "$T/min" --sets 6 --cells 1 --every-min 0.2 --start 2026-12-01T13:51:00 --seed 3 \
	|| fail "generator failed"
python3 "$GEN" "$T/day" --sets 30 --cells 1 --seed 4 || fail "generator failed"
for a in min day; do
	expect_exit 0 "$IOMATRIX" site "$T/$a" -o "$T/site-$a"
	gp=$(ls "$T/site-$a"/devices/*/w1.gp 2>/dev/null | head -1)
	[ -n "$gp" ] || fail "$a: no trend chart"
	grep -q "^set title 'RND4K Q1T1 randread: IOPS over time, synthhost · ssd'" "$gp" \
		&& ok "$a: the image has a title naming workload, metric and machine" \
		|| not_ok "$a: title: $(grep title "$gp")"
	# the tick labels drawn in the SVG (dates and times)
	svg="${gp%.gp}.svg"
	grep -o '>[0-9][0-9:-]*\( [0-9:]*\)\?<' "$svg" | sort >"$T/labels-$a"
	n=$(wc -l <"$T/labels-$a")
	d=$(uniq -d "$T/labels-$a" | wc -l)
	[ "$n" -ge 2 ] && [ "$d" = 0 ] && ok "$a: $n date labels, none printed twice" \
		|| not_ok "$a: labels: $(uniq -c "$T/labels-$a" | tr '\n' ' ')"
	# every tick within the data's dates (w1.dat: epoch seconds first)
	awk 'NR == FNR { if (!lo || $1 < lo) lo = $1; if ($1 > hi) hi = $1; next }
	     /^set xtics \(/ { n = split($0, f, /'"'"'[^'"'"']*'"'"' /); for (i = 2; i <= n; i++) {
		t = f[i] + 0; if (t < lo || t > hi) bad = bad " " t } }
	     END { if (bad != "") { print "outside:" bad; exit 1 } }' "${gp%.gp}.dat" "$gp" >"$T/o" \
		&& ok "$a: no tick outside the data, none rotated off the edge" || not_ok "$a: $(cat "$T/o")"
	grep -q "rotate" "$gp" && not_ok "$a: rotated labels" || :
done
grep -q "^set xlabel 'time of the set (UTC) on 2026-12-01'" "$T/site-min"/devices/*/w1.gp \
	&& ok "within one day: the date once, in the axis label" \
	|| not_ok "xlabel: $(grep xlabel "$T/site-min"/devices/*/w1.gp)"
tap_end
