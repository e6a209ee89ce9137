#!/bin/sh
# Finer samples at the start of a write: a write's series
# holds "fine", 20 ms intervals over the first 2 s (or the run), beside the
# coarse intervals; they add up to the same bytes and IOs as the coarse
# intervals they cover, and the cell's totals are the coarse ones.  A read
# has no fine samples.  (The plateau fit's use of them: unit test
# test_plateau_head.)
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: fine
defaults: {engine: "null", size: 4MiB, runtime: 300ms}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [write, read], bs: [64k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
W=$(ls "$T/set/cells/"*.json | while read -r f; do
	[ "$(jq -r .params.pattern "$f")" = write ] && echo "$f"; done)
R=$(ls "$T/set/cells/"*.json | while read -r f; do
	[ "$(jq -r .params.pattern "$f")" = read ] && echo "$f"; done)
# every 20 ms interval that starts before the end of the run, which is
# 300 ms or a little more: 15 intervals, 16 a hair after, 17 when a loaded
# machine woke the job 40 ms late (one make test at load 10); the count is
# held to the run's own runtime, never to a wall time
jq -e '.repetitions[0] | .runtime_ns as $rt | (.write.series.fine.bytes|length) as $n |
	.write.series.fine | .interval_ns == 20000000 and $rt >= 300000000 and
	$n * 20000000 >= $rt and ($n - 1) * 20000000 <= $rt and
	(.ios|length) == $n and (.lat_mean_ns|length) == $n' "$W" >/dev/null \
	&& ok "a 300 ms write: its 20 ms fine intervals cover the run" \
	|| not_ok "fine: $(jq -c '.repetitions[0].write.series.fine | {interval_ns, n: (.bytes|length)}' "$W")"
jq -e '.repetitions[0] | (.write.series.fine.bytes|add) == (.write.series.bytes|add) and
	(.write.series.fine.ios|add) == (.write.series.ios|add) and
	(.write.series.bytes|add) == .write.bytes and .write.bytes > 0' "$W" >/dev/null \
	&& ok "fine and coarse samples add up to the same bytes and IOs, the totals unchanged" \
	|| not_ok "sums: $(jq -c '.repetitions[0] | [(.write.series.fine.bytes|add), (.write.series.bytes|add), .write.bytes]' "$W")"
jq -e '.repetitions[0].read.series | has("fine") | not' "$R" >/dev/null \
	&& ok "a read has no fine samples" || not_ok "read has fine samples"
# a damaged fine series is refused like the coarse one
jq '.repetitions[0].write.series.fine.bytes[0] = -1' "$W" >"$T/bad.json" && cp "$T/bad.json" "$W"
rm -f "$T/set/SHA256SUMS"
"$IOMATRIX" report "$T/set" -o "$T/r" --charts none --format md >"$T/out" 2>"$T/err"
grep -q "series.fine.bytes holds a value that is not in" "$T/err" \
	&& ok "a negative fine sample is refused, with its place" || not_ok "stderr: $(cat "$T/err")"
tap_end
