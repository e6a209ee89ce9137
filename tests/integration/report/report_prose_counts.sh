#!/bin/sh
# Numbers a blogger pastes without editing: a count takes its
# noun's number ("1 set", "1 suite", "in the one cell", never "1 suites"
# or "over 1 cells"; two are "both", not "all 2"), and an IOPS figure in a sentence has no tenths from
# 10 up ("hdd sustains 96 IOPS", never "96.0 IOPS").  The other side of
# each: two of a thing stay plural, and a figure of thousands is unchanged.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/s.yaml" <<EOS
suite: counts
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 100ms}
devices:
  - {name: ssd, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/r/one" --quiet
expect_exit 0 "$IOMATRIX" report "$T/r/one" --charts none --format md -o "$T/rep1"
grep -q "CPU per IO .*): [0-9.]* [nµm]*s in the one cell;" "$T/rep1/report.md" && ok "one cell: 'in the one cell'" ||
	not_ok "cpu per io: $(grep 'CPU per IO' "$T/rep1/report.md")"
grep -q "over 1 cells" "$T/rep1/report.md" && not_ok "over 1 cells" || ok "never 'over 1 cells'"
# a one-repetition cell that met other work (this machine's load decides
# whether it did): "in 1 of 1 repetition", never "of 1 repetitions"
grep -q "of 1 repetitions" "$T/rep1/report.md" && not_ok "of 1 repetitions: $(grep -o 'in [0-9]* of 1 repetitions' "$T/rep1/report.md")" ||
	ok "never 'of 1 repetitions'"
expect_exit 0 "$IOMATRIX" site "$T/r" -o "$T/site1" --charts none
grep -q "^  1 set (.*), 1 suite; " "$T/out" && ok "site: 1 set, 1 suite" || not_ok "site: $(cat "$T/out")"
# two: plural
sed -e 's/bs: \[4k\]/bs: [4k, 8k]/' -e 's/suite: counts/suite: counts2/' "$T/s.yaml" >"$T/s2.yaml"
expect_exit 0 "$IOMATRIX" run "$T/s2.yaml" --out "$T/r/two" --quiet
expect_exit 0 "$IOMATRIX" report "$T/r/two" --charts none --format md -o "$T/rep2"
grep -q "CPU per IO .*): [0-9.]* [nµm]*s to [0-9.]* [nµm]*s over 2 cells;" "$T/rep2/report.md" &&
	ok "two cells: 'over 2 cells'" || not_ok "cpu per io: $(grep 'CPU per IO' "$T/rep2/report.md")"
expect_exit 0 "$IOMATRIX" site "$T/r" -o "$T/site2" --charts none
grep -q "^  2 sets (.*), 2 suites; " "$T/out" && ok "site: 2 sets, 2 suites" || not_ok "site: $(cat "$T/out")"
# QoS: the synthetic hdd sustains 96 IOPS (80 % of its 120), the ssd 9,000
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/q" --devices hdd:hdd,ssd:ssd --cells 2 \
	--sweep --qos-ms 50 >/dev/null || fail "gen"
expect_exit 0 "$IOMATRIX" report "$T/q" -o "$T/qrep" --baseline hdd --charts none --format md
grep -q '^- hdd sustains 96 IOPS of 4K random reads at QD1 with p99 ≤ 50 ms' "$T/qrep/report.md" &&
	ok "sustains 96 IOPS, not 96.0" || not_ok "hdd: $(grep 'hdd sustains' "$T/qrep/report.md")"
grep -q "knee .* is at an offered load of 96 IOPS (80 % of the maximum), where it achieved 96 IOPS\." "$T/qrep/report.md" &&
	ok "knee at 96 IOPS" || not_ok "knee: $(grep -o 'is at [^(]*IOPS' "$T/qrep/report.md")"
grep -q "[0-9]\\.0 IOPS" "$T/qrep/report.md" && not_ok "a tenth of an IOPS: $(grep -o '[0-9,]*\.0 IOPS' "$T/qrep/report.md" | head -3)" ||
	ok "no 'N.0 IOPS' anywhere"
grep -q '^- ssd sustains 9,000 IOPS' "$T/qrep/report.md" && ok "thousands unchanged (9,000)" ||
	not_ok "ssd: $(grep 'ssd sustains' "$T/qrep/report.md")"
# two workloads are "both", never "all 2" (report_summary_significance
# keeps "all 3")
expect_exit 0 "$IOMATRIX" report "$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm" \
	-o "$T/both" --charts none --format md
grep -q '^- mem is faster on both workloads\.$' "$T/both/report.md" && ok "faster on both workloads" ||
	not_ok "both: $(grep faster "$T/both/report.md" | head -2)"
grep -q "all 2 " "$T/both/report.md" && not_ok "all 2" || ok "never 'all 2'"
tap_end
