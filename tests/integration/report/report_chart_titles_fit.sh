#!/bin/sh
# A chart's title stays inside its chart: gnuplot centres it on the plot
# and cuts what runs past the canvas (a heatmap's 108-character title lost
# its first letters on an 800 px chart).  A title longer than a line (the
# chart's width / 8 characters, about 7 px each at 12 pt) is broken at a
# space into lines that fit, and a short one is left whole.
. "$(dirname "$0")/../../lib.sh"
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
cp -r "$SRC" "$T/set" && rm -f "$T/set/SHA256SUMS" || fail "copy"
# a workload label as long as suites make them: it is in the titles
long="RND4K Q1T1 fsync-every-IO on the journal partition of node017 behind the RAID card"
for f in "$T"/set/cells/*.json; do
	jq --arg n "$long" '.params.label = $n + " " + (.id | tostring)' "$f" >"$f.t" &&
		mv "$f.t" "$f" || fail "jq cell"
done
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts all,svg --format md
n=0 bad=
for gp in "$T"/rep/charts/*.gp; do
	w=$(sed -n 's/^set terminal svg size \([0-9]*\),.*/\1/p' "$gp" | head -n 1)
	t=$(sed -n 's/^set title "\(.*\)"$/\1/p' "$gp")
	[ -n "$w" ] && [ -n "$t" ] || continue
	n=$((n + 1))
	# each line of the title (gnuplot's \n) fits width / 8 characters
	long_line=$(printf '%s\n' "$t" | sed 's/\\n/\n/g' | awk -v m=$((w / 8)) 'length($0) > m')
	[ -z "$long_line" ] || bad="$bad $(basename "$gp"): $long_line;"
done
[ $n -gt 0 ] && [ -z "$bad" ] && ok "every title of $n charts fits its chart" || not_ok "$n charts;$bad"
grep -l 'set title ".*\\n' "$T"/rep/charts/*.gp >/dev/null &&
	ok "a title naming the long label is broken into lines" || not_ok "no title was broken"
grep -q '^set title "IOPS per workload"$' "$T"/rep/charts/*.gp &&
	ok "a short title is left whole" || not_ok "$(grep -h '^set title' "$T"/rep/charts/*.gp | head -3)"
tap_end
