#!/bin/sh
# A sysbench import (16 threads, 4 files, a request limit) reported with an
# iomatrix run of 4K random reads at QD1, 1 job, 1 file: they are different
# workloads, so they get separate tables whose titles say what differs, the
# imported row says it came from sysbench, and no ratio or summary sentence
# puts them side by side.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: mine
defaults: {engine: "null", size: 4MiB, runtime: 100ms}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/run" --quiet
expect_exit 0 "$IOMATRIX" import sysbench "$ROOT/tests/data/sysbench/rndrd-bs4096-t16.log" \
	--device sb -o "$T/sb"
expect_exit 0 "$IOMATRIX" report "$T/run" "$T/sb" -o "$T/r" --charts none --format md --baseline disk
M="$T/r/report.md"
# the table holding the disk row must not hold the sysbench row
tbl() { awk -v d="$1" '/^### /{t=$0} index($0, "| " d " ")==1 || index($0, "| " d " (")==1 {print t}' "$M"; }
td=$(tbl disk); ts=$(tbl sb)
[ -n "$td" ] && [ -n "$ts" ] && ok "both have rows" || not_ok "rows: '$td' '$ts'"
[ "$td" != "$ts" ] && ok "separate tables" || not_ok "same table: $td"
echo "$ts" | grep -q '16 jobs' && echo "$ts" | grep -q '4 files' && ok "title says what differs: $ts" \
	|| not_ok "sysbench title: $ts"
grep -q '^| sb (sysbench) |' "$M" && ok "imported row names its tool" || not_ok "no tool note"
grep -q 'one pass' "$M" && not_ok "sysbench run labelled 'one pass'" || ok "no 'one pass' label"
grep -q '^## Ratios' "$M" && not_ok "ratio between unlike workloads" || ok "no ratio table"
grep -q 'the sb did\|the disk did' "$M" && not_ok "summary compares them" || ok "summary does not compare them"
tap_end
