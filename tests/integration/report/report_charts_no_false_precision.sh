#!/bin/sh
# Charts draw what the data hold: a bar measured once has no
# 95 % interval, so it gets no error bar (a zero-width one read as a very
# precise number); bars of repeated cells keep theirs.  A CrystalDiskMark
# panel of one read/write pair is one lonely pair: not drawn, and the
# report says why; two rows draw it.
. "$(dirname "$0")/../../lib.sh"
need_cmd gnuplot
suite() { # NAME BS REPEAT
	cat >"$T/$1.yaml" <<EOS
suite: $1
defaults: {engine: psync, direct: false, size: 4MiB, runtime: 50ms, repeat: $3}
devices:
  - {name: ssd, path: $T/d-$1}
matrix: {pattern: [read, write], bs: [$2], iodepth: [1]}
EOS
	expect_exit 0 "$IOMATRIX" run "$T/$1.yaml" --out "$T/$1" --quiet
	expect_exit 0 "$IOMATRIX" report "$T/$1" -o "$T/$1-rep" --charts svg --format md,html
}
suite once 1m 1
G="$T/once-rep/charts/iops-per-workload.gp"
grep -q "set style histogram clustered" "$G" && ! grep -q "column(2\*i+1)" "$G" &&
	ok "measured once: no error bars" || not_ok "once: $(grep 'histogram\|^plot' "$G")"
[ -e "$T/once-rep/charts/crystaldiskmark-overview-mbs.svg" ] && not_ok "a panel of one pair drawn" ||
	ok "one read/write pair: no CrystalDiskMark panel"
grep -q "No CrystalDiskMark-style panel: of its read and write tests only SEQ1M Q1T1 ran" "$T/once-rep/report.md" &&
	ok "the report says why" || not_ok "no note: $(grep -i crystal "$T/once-rep/report.md")"
suite twice "1m, 4k" 3
G="$T/twice-rep/charts/iops-per-workload.gp"
grep -q "set style histogram errorbars" "$G" && grep -q "column(2\*i+1)" "$G" &&
	ok "repeated: error bars" || not_ok "repeated: $(grep 'histogram\|^plot' "$G")"
awk 'NR > 1 && $NF !~ /^[0-9.e+-]+$/ { bad = 1 } END { exit bad }' "$T/twice-rep/charts/iops-per-workload.dat" &&
	ok "every repeated bar has a numeric interval" || not_ok "dat: $(cat "$T/twice-rep/charts/iops-per-workload.dat")"
[ -s "$T/twice-rep/charts/crystaldiskmark-overview-mbs.svg" ] && ok "two rows: the CrystalDiskMark panel" ||
	not_ok "no panel: $(ls "$T/twice-rep/charts")"
grep -q "No CrystalDiskMark-style panel" "$T/twice-rep/report.md" && not_ok "a no-panel note with a panel" ||
	ok "two rows: no such note"
tap_end
