#!/bin/sh
# Block-size sweeps of one mixed pattern at two read/write mixes are two
# charts: each title names its mix ("random read/write
# 70/30"), so no two sweep charts share a title, and the file names say the
# mix too.  A sweep of a pure pattern names no mix.
. "$(dirname "$0")/../../lib.sh"
need_cmd gnuplot
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: mixes
defaults: {engine: "null", size: 4MiB, runtime: 100ms, iodepth: 16, jobs: 2}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randrw, randread], rwmixread: [70, 50], bs: [4k, 16k, 64k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/run" --quiet
expect_exit 0 "$IOMATRIX" report "$T/run" -o "$T/r" --charts svg --format md
M="$T/r/report.md"
titles=$(grep -o '!\[Throughput vs block size[^]]*\]' "$M")
echo "$titles" | grep -qxF '![Throughput vs block size: random read/write 70/30, QD16, 2 jobs]' \
	&& ok "70/30 sweep names its mix" || not_ok "titles: $titles"
echo "$titles" | grep -qxF '![Throughput vs block size: random read/write 50/50, QD16, 2 jobs]' \
	&& ok "50/50 sweep names its mix" || not_ok "titles: $titles"
echo "$titles" | grep -qxF '![Throughput vs block size: random read, QD16, 2 jobs]' \
	&& ok "a pure-pattern sweep names no mix" || not_ok "titles: $titles"
dups=$(grep -o '!\[[^]]*\]' "$M" | sort | uniq -d)
[ -z "$dups" ] && ok "no two charts share a title" || not_ok "shared titles: $dups"
[ -f "$T/r/charts/randrw-r70-q16t2-mbs-vs-block-size.gp" ] && \
	[ -f "$T/r/charts/randrw-r50-q16t2-mbs-vs-block-size.gp" ] && ok "file names say the mix" \
	|| not_ok "files: $(ls "$T/r/charts" | grep vs-block)"
grep -q '^set title "Throughput vs block size: random read/write 70/30, QD16, 2 jobs"' \
	"$T/r/charts/randrw-r70-q16t2-mbs-vs-block-size.gp" 2>/dev/null \
	&& ok "the title in the image names the mix" || not_ok "no mix in the image title"
tap_end
