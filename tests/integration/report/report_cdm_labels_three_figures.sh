#!/bin/sh
# The CrystalDiskMark-style overview labels its bars as the tables print
# the values, 3 significant figures (an HDD's 0.406 and 1.65
# MB/s 4K results were labelled "0" and "2" by '%.0f'): the label of each
# bar in the chart's data equals the MB/s of its table row, small and
# large alike.
. "$(dirname "$0")/../../lib.sh"
need_cmd gnuplot
need_cmd python3
# 4K random reads at 99.12 IOPS = 0.406 MB/s, writes at 402.83 = 1.65 MB/s;
# 1M sequential at 1,650 IOPS = 1,730 MB/s
cat >"$T/spec.json" <<'EOS'
[{"pattern":"randread","bs":4096,"hdd":[99.12,0.02],"ssd":[20000,0.02]},
 {"pattern":"randwrite","bs":4096,"hdd":[402.83,0.02],"ssd":[15000,0.02]},
 {"pattern":"read","bs":1048576,"hdd":[150,0.02],"ssd":[1650,0.02]},
 {"pattern":"write","bs":1048576,"hdd":[140,0.02],"ssd":[1200,0.02]}]
EOS
python3 "$ROOT/tests/report/gen_pair.py" "$T/set" "$T/spec.json" || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/r" --charts svg --format md
D="$T/r/charts/crystaldiskmark-overview-mbs.dat"
[ -f "$D" ] || fail "no overview data: $(ls "$T/r/charts")"
row() { awk -v t="$1" -v d="$2" '/^$/ {b++} $0 ~ "^\"" t "\"" && b == d' "$D"; }
echo "$(row 'RND4K Q1T1' 0)" | grep -q '"0.406" "1.65"$' && ok "hdd 4K: 0.406 and 1.65, not 0 and 2" \
	|| not_ok "hdd 4K: $(row 'RND4K Q1T1' 0)"
echo "$(row 'SEQ1M Q1T1' 2)" | grep -q '"1,730" "1,260"$' && ok "ssd 1M: 1,730 and 1,260" \
	|| not_ok "ssd 1M: $(row 'SEQ1M Q1T1' 2) ($(cat "$D"))"
grep -q "using (\$0-1.0/6):2:4 with labels" "$T/r/charts/crystaldiskmark-overview-mbs.gp" \
	&& ! grep -q "%.0f" "$T/r/charts/crystaldiskmark-overview-mbs.gp" \
	&& ok "the labels come from the data, not %.0f" || not_ok "gp: $(grep labels "$T/r/charts/crystaldiskmark-overview-mbs.gp")"
# the table says the same
grep -q '^| hdd | 99.1 ± 2.0 % | 0.406 ± 2.0 % |' "$T/r/report.md" && ok "the table's 0.406" \
	|| not_ok "table: $(grep '^| hdd |' "$T/r/report.md" | head -2)"
tap_end
