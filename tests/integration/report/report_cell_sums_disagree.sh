#!/bin/sh
# A cell's numbers must agree with each other: a repetition that claimed
# ios 1000000 while its histogram held the run's few thousand IOs was read
# as ok, and its IOPS reached the tables.  Now the reader refuses such a
# cell, naming it and the disagreement (the histogram's total against
# ios, the series against ios and bytes, bytes against ios x bs), and the
# report treats it as failed; the set's other cells are reported, and an
# untouched copy of the set reports every cell.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/d"
cat >"$T/s.yaml" <<Y
suite: t-sums
defaults: {engine: null, size: 1MiB, requests: 2000}
devices:
  - {name: d, path: $T/d}
matrix: {pattern: [randread, read], bs: [4k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/set"
# forge FILTER: a copy whose cell 1 is changed by the jq FILTER, re-summed
forge() {
	rm -rf "$T/f" && cp -r "$T/set" "$T/f" &&
		jq "$1" "$T/set/cells/0001.json" >"$T/f/cells/0001.json" &&
		(cd "$T/f" && sed 's/^[0-9a-f]*  //' SHA256SUMS | xargs sha256sum >S && mv S SHA256SUMS) ||
		fail "forge $1"
}
for case in ".repetitions[0].read.ios = 1000000%the histogram holds 2000 IOs, ios says 1000000" \
	".repetitions[0].read.series |= (.ios = [1500] | del(.hist))%the series' ios add up to 1500, not to the ios 2000" \
	".repetitions[0].read |= (.bytes = 81920000 | .series.bytes = [81920000])%bytes 81920000 is not ios 2000 x bs 4096"; do
	filter=${case%%%*}; says=${case#*%}
	forge "$filter"
	expect_exit 0 "$IOMATRIX" verify "$T/f"   # the hashes agree: only the numbers do not
	expect_exit 0 "$IOMATRIX" report "$T/f" -o "$T/rep" --charts none --format md,csv
	grep -q "'cells/0001.json': repetition 1: read: $says; treated as failed" "$T/err" &&
		grep -q "cells/0001.json': repetition 1: read: $says" "$T/rep/report.md" &&
		[ "$(grep -c ',ok,' "$T/rep/report.csv")" = 1 ] && grep -q ',failed,' "$T/rep/report.csv" &&
		ok "$filter: the cell is refused, named; the other cell is reported" ||
		not_ok "$filter: $(cat "$T/err") $(grep -c ',ok,' "$T/rep/report.csv")"
done
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none --format csv
[ "$(grep -c ',ok,' "$T/rep/report.csv")" = 2 ] && [ ! -s "$T/err" ] &&
	ok "the untouched set: every cell reported, no warning" || not_ok "$(cat "$T/err")"
tap_end
