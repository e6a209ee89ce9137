#!/bin/sh
# A mix of 0 % reads is writes and one of 100 % reads is reads: the report
# calls them "4K random write" and "4K random read", never "random mixed
# reads and writes ... 0% reads".  A real mix (70 %) keeps
# its words and its share.
. "$(dirname "$0")/../../lib.sh"
cat >"$T/s.yaml" <<EOS
suite: mixwords
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 50ms}
devices:
  - {name: ssd, path: $T/d}
matrix: {pattern: [randrw, readwrite], bs: [4k], rwmixread: [0, 70, 100]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none --format md -o "$T/rep"
M="$T/rep/report.md"
grep -q '^### 4K random write (RND4K Q1T1 R0)$' "$M" && ok "randrw at 0 % reads: random write" ||
	not_ok "titles: $(grep '^###' "$M")"
grep -q '^### 4K random read (RND4K Q1T1 R100)$' "$M" && ok "randrw at 100 % reads: random read" ||
	not_ok "titles: $(grep '^###' "$M")"
grep -q '^### 4K sequential write (SEQ4K Q1T1 R0)$' "$M" && grep -q '^### 4K sequential read (SEQ4K Q1T1 R100)$' "$M" &&
	ok "rw at 0 and 100 % reads: sequential write and read" || not_ok "titles: $(grep '^###' "$M")"
grep -q "[^0-9]0% reads\|100% reads" "$M" && not_ok "a 0 or 100 % mix named: $(grep -n "[^0-9]0% reads\\|100% reads" "$M" | head -3)" ||
	ok "no '0% reads' or '100% reads' anywhere"
# silent side: a real mix stays a mix
grep -q '^### 4K random read/write, 70% reads (RND4K Q1T1 R70)$' "$M" && ok "70 %: random read/write, 70% reads" ||
	not_ok "titles: $(grep '^###' "$M")"
grep -q '^### 4K sequential read/write, 70% reads (SEQ4K Q1T1 R70)$' "$M" && ok "70 %: sequential read/write, 70% reads" ||
	not_ok "titles: $(grep '^###' "$M")"
tap_end
