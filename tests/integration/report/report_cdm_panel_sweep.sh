#!/bin/sh
# A set whose read/write cells are a sweep of more than 8 rows (the
# example's hdd-vs-ssd suite) still gets its CrystalDiskMark panel, of
# CrystalDiskMark's default tests only (SEQ1M Q8T1, SEQ1M Q1T1, RND4K
# Q32T1, RND4K Q1T1, read and write), and the report says the panel holds
# only those; a sweep with none of them gets no panel and one sentence
# saying why; a small CrystalDiskMark-like set says neither.  Each cell
# does 256 requests, not 50 ms: at load 11 with CPU hogs beside it a job
# once got no CPU in its 50 ms, and its cell's 0 IOs left a panel row
# without a read ("?"), the machine's doing, not the panel's.
. "$(dirname "$0")/../../lib.sh"
need_cmd gnuplot
mkdir -p "$T/d" "$T/e" "$T/f"
cat >"$T/cdm.yaml" <<EOS
suite: sweepcdm
defaults: {engine: "null", size: 64MiB, requests: 256}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread, read], bs: [4k, 64k, 1m], iodepth: [1, 32]}
include:
  - {pattern: read, bs: 1m, iodepth: 8}
  - {pattern: write, bs: 1m, iodepth: 8}
  - {pattern: write, bs: 1m, iodepth: 1}
  - {pattern: randwrite, bs: 4k, iodepth: 32}
  - {pattern: randwrite, bs: 4k, iodepth: 1}
EOS
cat >"$T/none.yaml" <<EOS
suite: sweepnone
defaults: {engine: "null", size: 64MiB, requests: 256}
devices:
  - {name: disk, path: $T/e}
matrix: {pattern: [randread, read], bs: [16k, 64k, 256k], iodepth: [2, 4]}
EOS
cat >"$T/small.yaml" <<EOS
suite: small
defaults: {engine: "null", size: 64MiB, requests: 256}
devices:
  - {name: disk, path: $T/f}
matrix: {pattern: [randread, randwrite], bs: [4k], iodepth: [1, 32]}
EOS
for s in cdm none small; do
	expect_exit 0 "$IOMATRIX" run "$T/$s.yaml" --out "$T/$s" --quiet
	expect_exit 0 "$IOMATRIX" report "$T/$s" -o "$T/r$s" --charts svg --format md,html
done
D="$T/rcdm/charts/crystaldiskmark-overview-mbs.dat"
[ -f "$D" ] && ok "a sweep with CrystalDiskMark's tests gets a panel" || not_ok "no panel"
rows=$(grep -v '^"test" ' "$D" 2>/dev/null | grep -v '^$' | sed 's/^"\([^"]*\)".*/\1/' | tr '\n' ',')
want="SEQ1M Q8T1,SEQ1M Q1T1,RND4K Q32T1,RND4K Q1T1,"
[ "$rows" = "$want" ] && ok "only CrystalDiskMark's default tests, in its order" \
	|| not_ok "rows: '$rows', want '$want'"
grep -v '^"test" ' "$D" 2>/dev/null | grep -q '?' && not_ok "a row without read or write" \
	|| ok "each row has read and write"
grep -q "panel shows only CrystalDiskMark's default tests" "$T/rcdm/report.md" \
	&& ok "the report says the panel holds only the default tests" || not_ok "no sentence"
grep -q "panel shows only CrystalDiskMark" "$T/rcdm/report.html" \
	&& ok "the HTML says it too" || not_ok "no sentence in the HTML"
# none of the default tests: no panel, and the reason in one sentence
[ -e "$T/rnone/charts/crystaldiskmark-overview-mbs.dat" ] && not_ok "a panel of rows CDM does not have" \
	|| ok "no panel without CrystalDiskMark's tests"
n=$(grep -c "No CrystalDiskMark-style panel: the set's read and write cells are a sweep" "$T/rnone/report.md")
[ "$n" = 1 ] && ok "one sentence says why there is no panel" || not_ok "$n sentences"
# the silent side: a small CrystalDiskMark-like set draws its panel as is
[ -f "$T/rsmall/charts/crystaldiskmark-overview-mbs.dat" ] && ok "small set: panel" || not_ok "small set: no panel"
grep -q "CrystalDiskMark-style panel" "$T/rsmall/report.md" \
	&& not_ok "a small set explains a panel it drew in full" || ok "small set: no sentence"
grep -q "CrystalDiskMark-style panel" "$T/rcdm/report.md" && \
	! grep -q "No CrystalDiskMark-style panel" "$T/rcdm/report.md" \
	&& ok "a drawn panel is not called missing" || not_ok "drawn and missing at once"
tap_end
