#!/bin/sh
# One verdict, the same everywhere.
#  1. One pair, one verdict in one compare.md: an original of 12 workloads
#     at 3 repetitions and a reproduction whose first workload is +73 %
#     (1000/1250/820 -> 1800/1950/1620 IOPS).  Judged alone it is faster;
#     among the 12 pairs judged together it is inconclusive.  compare's
#     main table and its Reproduction table (reproduce's verdicts) must say
#     the same (they said "inconclusive (+72.9 %)" and "1.729 ... faster").
#  2. reproduce says when the original's own repetitions were too few to
#     tell (that workload's original spreads wider than the tolerance), and
#     says nothing of it where the original is steady.
#  3. Two devices on one disk (two sets; 2,000 against 1,000 IOPS, steady):
#     the summary states run-to-run variation and names no winner; the same
#     numbers with the second device on another disk name one.
# The repetitions are set by hand (re-summed as a run would), so no timing
# decides a verdict.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd sha256sum
. "$ROOT/tests/repro_lib.sh"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: one-verdict
defaults: {engine: "null", size: 1m, requests: 50, bs: 4k, repeat: 3}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread, read], iodepth: [1, 2, 4, 8, 16, 32]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet
cells=$(cd "$T/orig/cells" && ls | sed 's/\.json$//')
[ "$(echo $cells | wc -w)" = 12 ] || fail "want 12 cells: $cells"
steady "$T/orig" $cells
reps() { # set cell v1 v2 v3
	jq --argjson v "[$3, $4, $5]" "$JQ_AGREE"'
		.repetitions |= [range(0; length) as $i | .[$i] | .read |= iops_to($v[$i])] | resummary' \
		"$1/cells/$2.json" >"$1/cells/$2.tmp" && mv "$1/cells/$2.tmp" "$1/cells/$2.json"
}
reps "$T/orig" 0001 1000 1250 820
resum "$T/orig"
sha=$(sha256sum "$T/orig/manifest.json" | cut -d' ' -f1)
cp -r "$T/orig" "$T/rep"
jq --arg s "$sha" '.reproduces = {set: "orig", manifest_sha256: $s, path: "orig", tolerance_pct: 10}' \
	"$T/orig/manifest.json" >"$T/rep/manifest.json"
reps "$T/rep" 0001 1800 1950 1620
resum "$T/rep"

expect_exit 0 "$IOMATRIX" compare "$T/orig" "$T/rep" -o "$T/c"
wl=$(jq -r '.rows[] | select(.cell_old == 1) | .workload' "$T/c/compare.json")
main=$(jq -r '.rows[] | select(.cell_old == 1) | .verdict' "$T/c/compare.json")
repv=$(jq -r --arg w "$wl" '.reproduction.rows[] | select(.workload == $w) | .verdict' "$T/c/compare.json")
echo "# +73 % workload: compare '$main', its reproduction table '$repv'"
case "$main/$repv" in
inconclusive/inconclusive) ok "one pair, one verdict in one compare.md (inconclusive among 12)" ;;
*) not_ok "two verdicts for one pair: '$main' and '$repv'" ;;
esac
grep "$wl" "$T/c/compare.md" | grep -q "faster\|improvement" && not_ok "compare.md calls the +73 % pair faster somewhere: $(grep "$wl" "$T/c/compare.md")" \
	|| ok "compare.md names it faster nowhere"
n_same=$(jq '[.reproduction.rows[] | select(.verdict == "reproduced")] | length' "$T/c/compare.json")
n_nochg=$(jq '[.rows[] | select(.verdict == "no change")] | length' "$T/c/compare.json")
[ "$n_same" = 11 ] && [ "$n_nochg" = 11 ] && ok "the 11 steady pairs: no change and reproduced alike" \
	|| not_ok "steady pairs: $n_nochg no change, $n_same reproduced"
# the reproduction's tolerance is compare's threshold when none is given
[ "$(jq .threshold_pct "$T/c/compare.json")" = 10 ] && ok "compare judges a reproduction at its tolerance" \
	|| not_ok "threshold $(jq .threshold_pct "$T/c/compare.json")"

# 2. the original's own repetitions: too few to tell on the noisy workload
grep -q "The original's own repetitions were too few to tell on 1 of them: their spread alone (up to ±[0-9]* %) is wider than the ±10 % tolerance" "$T/out" \
	&& ok "reproduce names an original too noisy to tell" || not_ok "no too-few note: $(grep -i 'not reproduced' "$T/out")"
cp -r "$T/orig" "$T/orig2"
steady "$T/orig2" 0001
sha2=$(sha256sum "$T/orig2/manifest.json" | cut -d' ' -f1)
cp -r "$T/orig2" "$T/rep2"
jq --arg s "$sha2" '.reproduces = {set: "orig2", manifest_sha256: $s, path: "orig2", tolerance_pct: 10}' \
	"$T/orig2/manifest.json" >"$T/rep2/manifest.json"
reps "$T/rep2" 0001 1800 1809 1818
resum "$T/rep2"
expect_exit 0 "$IOMATRIX" compare "$T/orig2" "$T/rep2" -o "$T/c2"
grep -q "too few to tell" "$T/out" && not_ok "a steady original called too noisy" \
	|| ok "a steady original: no too-few note"
grep -q "^  faster       disk: " "$T/out" && ok "a steady original: the +73 % pair is faster" \
	|| not_ok "steady original: $(grep disk: "$T/out" | head -3)"

# 3. two devices on one disk: run-to-run variation, no winner
mkdir -p "$T/x" "$T/y"
for d in a:x:2000 b:y:1000; do
	n=${d%%:*}; rest=${d#*:}; p=${rest%%:*}; v=${rest#*:}
	cat >"$T/$n.yaml" <<EOS
suite: samedisk
defaults: {engine: "null", size: 1m, requests: 40, bs: 4k, iodepth: 1, repeat: 3}
devices:
  - {name: $n, path: $T/$p}
matrix: {pattern: [randread]}
EOS
	expect_exit 0 "$IOMATRIX" run "$T/$n.yaml" --out "$T/set-$n" --quiet
	# every figure of the cell from these repetitions: IOPS, MB/s (4 KiB
	# each) and their summary, as a run would write them
	jq --argjson v "[$v, $((v + 5)), $((v + 10))]" '
		.repetitions |= [range(0; length) as $i | .[$i] |
			.read.iops = $v[$i] | .read.bw_bytes_s = $v[$i] * 4096] |
		($v | add / 3) as $m | ($v | map((. - $m) * (. - $m)) | add / 2 | sqrt) as $sd |
		.summary.read.iops |= (.mean = $m | .stddev = $sd | .min = $v[0] | .max = $v[2]) |
		.summary.read.bw_bytes_s |= (.mean = $m * 4096 | .stddev = $sd * 4096 |
			.min = $v[0] * 4096 | .max = $v[2] * 4096)' \
		"$T/set-$n/cells/0001.json" >"$T/c.tmp" && mv "$T/c.tmp" "$T/set-$n/cells/0001.json"
	resum "$T/set-$n"
done
bd=$(jq -r '.devices[0].fingerprint.block_device // empty' "$T/set-a/manifest.json")
if [ -z "$bd" ]; then
	ok "# SKIP same-disk summary: this filesystem has no block device"
	tap_end
fi
expect_exit 0 "$IOMATRIX" report "$T/set-a" "$T/set-b" -o "$T/r1" --baseline b --charts none --format md
grep -q "^- a and b are one device ($bd), so what differs between them is run-to-run variation" "$T/r1/report.md" \
	&& ok "one disk: the summary states run-to-run variation" || not_ok "one disk: $(sed -n '/^## Summary/,/^## /p' "$T/r1/report.md")"
grep -q "is faster on\|largest gap\|wins [0-9]" "$T/r1/report.md" && not_ok "one disk: a winner named" \
	|| ok "one disk: no winner named"
jq '.devices[0].fingerprint.block_device = "/dev/other-disk" | .devices[0].fingerprint.mount_source = "/dev/other-disk"' \
	"$T/set-b/manifest.json" >"$T/m" && mv "$T/m" "$T/set-b/manifest.json" && resum "$T/set-b"
expect_exit 0 "$IOMATRIX" report "$T/set-a" "$T/set-b" -o "$T/r2" --baseline b --charts none --format md
grep -q "run-to-run variation" "$T/r2/report.md" && not_ok "two disks called one" \
	|| ok "two disks: no run-to-run sentence"
grep -q "^- a is faster on" "$T/r2/report.md" && ok "two disks: the faster one is named" \
	|| not_ok "two disks: $(sed -n '/^## Summary/,/^## /p' "$T/r2/report.md")"
tap_end
