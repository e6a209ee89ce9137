#!/bin/sh
# report and compare show a reproduction's verdicts, and their sentence on
# each side: "Reproduced: ..." where the data back it (an identical copy),
# never where they do not (every repetition's IOPS halved: a "slower" row
# and "Not reproduced"); a report of a set that is no reproduction says
# nothing of reproduction, one of a reproduction without its original names
# the original; compare shows the section only when NEW reproduces OLD.
# The reproductions are made by hand (copies whose manifest records
# "reproduces", re-summed as a run would), so no timing is involved.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd sha256sum
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: repro-report
defaults: {engine: "null", size: 1m, requests: 100, iodepth: 64, repeat: 3}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
. "$ROOT/tests/repro_lib.sh" # steady(), resum(): a steady original by hand
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet
steady "$T/orig" 0001
sha=$(sha256sum "$T/orig/manifest.json" | cut -d' ' -f1)
mkrep() { # name jq-filter-on-the-cell [jq-filter-on-the-manifest]
	cp -r "$T/orig" "$T/$1"
	jq --arg s "$sha" '.reproduces = {set: "orig", manifest_sha256: $s, path: "orig", tolerance_pct: 10}
		| '"${3:-.}" "$T/orig/manifest.json" >"$T/$1/manifest.json"
	jq "$JQ_AGREE $2 | resummary" "$T/orig/cells/0001.json" >"$T/$1/cells/0001.json"
	resum "$T/$1"
}
mkrep same .
mkrep half '.repetitions[].read |= rates(0.5)'
mkrep elsewhere '.repetitions[].read |= rates(0.5) | .params.iodepth_batch_complete_min = 2 |
	.params.active_range_pct = 50' \
	'.host.kernel = "9.9.9-test" | .devices[0].fingerprint.scheduler = "bfq-test"'

expect_exit 0 "$IOMATRIX" report "$T/orig" "$T/same" -o "$T/r1" --charts none --format md,html
grep -q "^## Reproduction" "$T/r1/report.md" && grep -q "^- Reproduced: the workload is within ±10 % of the original" "$T/r1/report.md" &&
	grep -q "| disk | 4K random read, QD64 (RND4K Q64T1) | IOPS | .* | 1.000 | .* | reproduced |" "$T/r1/report.md" &&
	grep -q '<h2 id="reproduction">' "$T/r1/report.html" &&
	ok "report: reproduction section and summary sentence" || not_ok "report: $(grep -n -i reprod "$T/r1/report.md")"
grep -q "could explain" "$T/r1/report.md" && not_ok "differences listed for identical environments" ||
	ok "report: no differences where there are none"
expect_exit 0 "$IOMATRIX" report "$T/orig" "$T/half" -o "$T/r2" --charts none --format md
grep -q "Reproduced:" "$T/r2/report.md" && not_ok "report says Reproduced of a slower set" ||
	ok "report: no 'Reproduced' for a slower reproduction"
grep -q "| 0.500 | .* | slower |" "$T/r2/report.md" && grep -q "^- Not reproduced within ±10 %: 0 of 1 workload reproduced, 1 slower" "$T/r2/report.md" &&
	ok "report: slower row and sentence" || not_ok "report: $(grep -n -i reprod "$T/r2/report.md")"
expect_exit 0 "$IOMATRIX" report "$T/orig" "$T/same" "$T/half" -o "$T/r5" --charts none --format md
grep -q "^- $T/same (reproducing $T/orig): Reproduced: the workload" "$T/r5/report.md" &&
	grep -q "^- $T/half (reproducing $T/orig): Not reproduced within ±10 %" "$T/r5/report.md" &&
	ok "report of two reproductions: each sentence names its pair" || not_ok "r5: $(grep -i reprod "$T/r5/report.md")"
expect_exit 0 "$IOMATRIX" report "$T/orig" -o "$T/r3" --charts none --format md
grep -qi "reproduc" "$T/r3/report.md" && not_ok "a plain set's report talks of reproduction" ||
	ok "report of a plain set: silent"
expect_exit 0 "$IOMATRIX" report "$T/same" -o "$T/r4" --charts none --format md
grep -q "reproduces set orig .* which this report does not include" "$T/r4/report.md" &&
	! grep -q "^## Reproduction" "$T/r4/report.md" &&
	ok "report of a reproduction alone names its original, judges nothing" || not_ok "r4: $(grep -i reprod "$T/r4/report.md")"

expect_exit 0 "$IOMATRIX" compare "$T/orig" "$T/half" -o "$T/c1"
grep -q "^  slower       disk: 4K random read, QD64 (RND4K Q64T1), IOPS: .* ratio 0\.500" "$T/out" &&
	grep -q "^## Reproduction" "$T/c1/compare.md" && grep -q '<h2 id="reproduction">' "$T/c1/compare.html" &&
	[ "$(jq -r '.reproduction.rows[0].verdict' "$T/c1/compare.json")" = slower ] &&
	ok "compare shows the reproduction verdict" || not_ok "compare: $(cat "$T/out")"
grep -q "^no difference between the two environments was recorded" "$T/out" &&
	! grep -q "could explain" "$T/out" &&
	ok "compare: no environment difference named between identical environments" ||
	not_ok "differences: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" compare "$T/orig" "$T/elsewhere" -o "$T/c3"
k=$(jq -r .host.kernel "$T/orig/manifest.json")
grep -q "^  kernel: $k in the original, 9.9.9-test in the reproduction" "$T/out" &&
	grep -q "^  device disk IO scheduler: .* in the original, bfq-test in the reproduction" "$T/out" &&
	ok "compare: the kernel and scheduler that differ are named" || not_ok "elsewhere: $(cat "$T/out")"
# the reaping setting differs, and a key the original omits at its default:
# named both ways round; no workload pairs by parameters, yet the
# reproduction (paired by plan id) is judged
grep -q "^  parameter iodepth_batch_complete_min: 1 in the original, 2 in the reproduction" "$T/out" &&
	grep -q "^  parameter active_range_pct: absent (default) in the original, 50 in the reproduction" "$T/out" &&
	grep -q "^  slower " "$T/out" && grep -q "^0 workloads compared" "$T/out" &&
	ok "compare: differing parameters named either way round, judged by plan id" ||
	not_ok "params: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" compare "$T/same" "$T/half" -o "$T/c2"
grep -q "Reproduction" "$T/c2/compare.md" || grep -q "^reproduce:" "$T/out" &&
	not_ok "compare of two reproductions claims one reproduces the other" ||
	ok "compare of sets that are not original and reproduction: no section"
tap_end
