#!/bin/sh
# The summary and the ratio table judge a difference by compare's statistic
# (report/model/ratio.c): the confidence interval of the ratio, Welch's t
# on the logarithms of the stored repetitions, each ratio at its own
# 95 %.  Two workloads where the older rule (non-overlapping
# 95 % intervals of the means plus a 5 % gap) gave the other answer:
#   106 +-2 % against 100 +-2 %: the intervals do not overlap and the gap
#     is 6 %, but the ratio's interval [1.04, 1.08] reaches under 1.05: a
#     tie, not a win;
#   105 +-3 % against 100 +-3 %: the intervals overlap, but the ratio's
#     interval [1.02, 1.08] excludes 1: the ratio table leaves it unmarked.
# And the other side: a clear 10x difference is still a win, unmarked.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/d.json" <<'EOS'
[{"pattern":"randread","bs":4096,"hdd":[100,0.02],"ssd":[106,0.02]},
 {"pattern":"randwrite","bs":4096,"hdd":[100,0.03],"ssd":[105,0.03]},
 {"pattern":"read","bs":1048576,"hdd":[100,0.02],"ssd":[1000,0.02]}]
EOS
python3 "$ROOT/tests/report/gen_pair.py" "$T/d" "$T/d.json" || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/d" --charts none --format md --baseline hdd
S=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/d/report/report.md")
R=$(sed -n '/^## Ratios/,/^## Warnings/p' "$T/d/report/report.md")
echo "$S" | grep -q 'faster on all' && not_ok "6 % apart with an interval under 5 % is a win: $S" \
	|| ok "no 'faster on all' when a ratio's interval reaches within 5 %"
echo "$S" | grep -q 'ssd is faster on 1 of 3 workloads; no significant difference on 2: 4K random reads and 4K random writes' \
	&& ok "the two undecided workloads are named" || not_ok "summary: $S"
echo "$S" | grep -q 'the 95 % confidence interval of the ratio reaches within 5 % of equal' \
	&& ok "the tie rule is said" || not_ok "summary: $S"
echo "$R" | grep -q '^| 4K random write | ssd | 1.05x | 1.05x |' \
	&& ok "overlapping means, ratio interval excludes 1: unmarked" || not_ok "ratios: $R"
echo "$R" | grep -q '^| 1M sequential read | ssd | 10.0x | 10.0x |' \
	&& ok "a clear difference is unmarked" || not_ok "ratios: $R"
tap_end
