#!/bin/sh
# The CrystalDiskMark panel is built from the cells that ran: a
# disk that ran SEQ1M Q32T1, SEQ128K Q32T1 and RND4K Q32T1/Q32T16/Q1T1
# (read and write) gets exactly those rows, in CrystalDiskMark's order, and no
# empty SEQ1M Q8T1 / Q1T1 groups; a device that ran only mixed workloads
# gets no panel; a set with no CrystalDiskMark-like cell gets no panel.
. "$(dirname "$0")/../../lib.sh"
need_cmd gnuplot
mkdir -p "$T/d" "$T/m"
cat >"$T/cdm.yaml" <<EOS
suite: mine
defaults: {engine: "null", size: 4MiB, runtime: 100ms}
devices:
  - {name: disk, path: $T/d}
include:
  - {pattern: randread, bs: 4k, iodepth: 1}
  - {pattern: read, bs: 1m, iodepth: 32}
  - {pattern: randwrite, bs: 4k, iodepth: 32, jobs: 16}
  - {pattern: write, bs: 128k, iodepth: 32}
  - {pattern: randread, bs: 4k, iodepth: 32, jobs: 16}
  - {pattern: write, bs: 1m, iodepth: 32}
  - {pattern: read, bs: 128k, iodepth: 32}
  - {pattern: randwrite, bs: 4k, iodepth: 1}
  - {pattern: randwrite, bs: 4k, iodepth: 32}
  - {pattern: randread, bs: 4k, iodepth: 32}
EOS
cat >"$T/mix.yaml" <<EOS
suite: mixonly
defaults: {engine: "null", size: 4MiB, runtime: 100ms}
devices:
  - {name: mixer, path: $T/m}
matrix: {pattern: [randrw], bs: [4k, 1m], iodepth: [1, 32]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/cdm.yaml" --out "$T/cdm" --quiet
expect_exit 0 "$IOMATRIX" run "$T/mix.yaml" --out "$T/mix" --quiet

expect_exit 0 "$IOMATRIX" report "$T/cdm" "$T/mix" -o "$T/r" --charts svg --format md
D="$T/r/charts/crystaldiskmark-overview-mbs.dat"
[ -f "$D" ] && ok "panel drawn" || not_ok "no panel for a set with CrystalDiskMark cells"
# the rows of the panel, in order: the first field of each data line
rows=$(grep -v '^"test" ' "$D" 2>/dev/null | grep -v '^$' | sed 's/^"\([^"]*\)".*/\1/' | tr '\n' ',')
want="SEQ1M Q32T1,SEQ128K Q32T1,RND4K Q32T1,RND4K Q32T16,RND4K Q1T1,"
[ "$rows" = "$want" ] && ok "exactly the rows that ran, in CrystalDiskMark order" \
	|| not_ok "rows: '$rows', want '$want'"
grep -q 'Q8T1\|SEQ1M Q1T1' "$D" 2>/dev/null && not_ok "a slot that did not run" \
	|| ok "no empty group"
# every row has a read and a write number: no '?' in this panel
grep -v '^"test" ' "$D" 2>/dev/null | grep -q '?' && not_ok "a row without its numbers: $(cat "$D")" \
	|| ok "every row has read and write"
grep -q 'mixer' "$D" 2>/dev/null && not_ok "a panel for a device with only mixed cells" \
	|| ok "the mixed-only device gets no panel"
n=$(grep -c '^"test" ' "$D" 2>/dev/null)
[ "$n" = 1 ] && ok "one panel" || not_ok "$n panels"
G="$T/r/charts/crystaldiskmark-overview-mbs.gp"
grep -q 'multiplot layout 1,1 ' "$G" 2>/dev/null && ok "one panel in the layout" \
	|| not_ok "layout: $(grep multiplot "$G" 2>/dev/null | head -1)"
[ -s "$T/r/charts/crystaldiskmark-overview-mbs.svg" ] && ok "gnuplot drew it" || not_ok "no svg"

# silent side: no CrystalDiskMark-like cell at all, no panel
expect_exit 0 "$IOMATRIX" report "$T/mix" -o "$T/r2" --charts svg --format md
[ -e "$T/r2/charts/crystaldiskmark-overview-mbs.dat" ] && not_ok "panel without CDM-like cells" \
	|| ok "no panel without CrystalDiskMark-like cells"
if [ -n "${CDM_KEEP:-}" ]; then cp "$D" "$T/r/charts/crystaldiskmark-overview-mbs.svg" "$CDM_KEEP"/; fi
tap_end
