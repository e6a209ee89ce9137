#!/bin/sh
# The ratio table's mean-latency column is marked * (may be noise) where a
# cell ran once, as its IOPS and MB/s columns are: a single run has no
# interval for its latency either (the example's sustained write read
# "0.30x* | 0.30x* | 1.72x slower").  Cells repeated three times keep an
# unmarked latency ratio.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/a.json" <<'EOS'
[{"pattern":"randread","bs":4096,"hdd":[200,0.02],"ssd":[20000,0.02]},
 {"pattern":"write","bs":1048576,"qd":32,"hdd":[2630,0.02],"ssd":[802,0.02],"reps":1}]
EOS
python3 "$ROOT/tests/report/gen_pair.py" "$T/a" "$T/a.json" || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/a" --charts none --format md,html --baseline hdd
R=$(sed -n '/^## Ratios/,/^## Warnings/p' "$T/a/report/report.md")
echo "$R" | grep -Eq '^\| 1M sequential write, QD32 \| ssd \| [0-9.]+x\\\* \| [0-9.]+x\\\* \| [0-9.]+x slower\\\* \|$' \
	&& ok "a single run: its latency ratio is marked too" || not_ok "ratios: $R"
echo "$R" | grep -Eq '^\| 4K random read, QD1 \| ssd \| 100x \| 100x \| [0-9.]+x faster \|$' \
	&& ok "repeated cells: latency ratio unmarked" || not_ok "ratios: $R"
grep -q 'slower\*' "$T/a/report/report.html" && ok "html marks it" || not_ok "html: no mark"
tap_end
