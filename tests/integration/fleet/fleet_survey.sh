#!/bin/sh
# Survey: 3 test hosts (sshd on 127.0.0.1) x a 4-cell suite, each host on
# its own scratch directory (--device HOST:NAME=PATH) -> one fleet set with
# 12 host.cells, each with its host; the manifest lists the hosts with
# fingerprints, versions and clock offsets; no agent and no scratch file is
# left; a second run compares host by host with the first.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
for i in 1 2 3; do mkdir -p "$T/d$i"; done
cat >"$T/s.yaml" <<Y
suite: fleet-survey
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 200ms, rate_iops: 2000}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread, read]
  bs: [4k, 64k]
Y
run() { # out-dir
	expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --hosts h1,h2,h3 --ssh-config "$SSHCFG" \
		--remote-iomatrix "$IOMATRIX" --device "h1:scratch=$T/d1/" \
		--device "h2:scratch=$T/d2/" --device "h3:scratch=$T/d3/" --out "$1" --quiet
}
run "$T/set"
S=$T/set
[ "$(cat "$T/out")" = "$S" ] || fail "stdout should be the set directory, got '$(cat "$T/out")'"
[ "$(jq -r .status "$S/manifest.json")" = complete ] || fail "status $(jq -r .status "$S/manifest.json")"
[ "$(jq -r .fleet.mode "$S/manifest.json")" = survey ] || fail "mode"
[ "$(ls "$S/cells" | wc -l)" = 12 ] || fail "want 12 cell files, got $(ls "$S/cells" | wc -l)"
[ "$(jq '[.cells[] | select(.status == "ok")] | length' "$S/manifest.json")" = 12 ] || fail "12 ok cells in the index"
for h in h1 h2 h3; do
	n=$(jq -s --arg h "$h" '[.[] | select(.host == $h and .status == "ok" and .summary.read.iops.mean > 0)] | length' "$S"/cells/*.json)
	[ "$n" = 4 ] || fail "host $h: $n ok cells with IOPS, want 4"
	jq -e --arg h "$h" '.fleet.hosts[] | select(.name == $h) | .status == "done" and .version != null and .host.hostname != null and .clock.rtt_min_ns > 0 and (.devices | length) == 1' \
		"$S/manifest.json" >/dev/null || fail "manifest entry of $h incomplete"
done
# each host ran on its own directory, and plan ids 1..4 appear once per host
jq -e '[.fleet.hosts[].devices[0].path] == ["'"$T/d1/"'", "'"$T/d2/"'", "'"$T/d3/"'"]' "$S/manifest.json" >/dev/null ||
	fail "per-host --device paths not used: $(jq -c '[.fleet.hosts[].devices[0].path]' "$S/manifest.json")"
[ "$(jq -s '[.[].plan_id] | sort | unique | length' "$S"/cells/*.json)" = 4 ] || fail "plan ids"
[ -z "$(fleet_agents)" ] || fail "agents left: $(fleet_agents)"
left=$(find "$T/d1" "$T/d2" "$T/d3" -type f | head -n 3)
[ -z "$left" ] || fail "scratch files left: $left"
echo "survey set ok: 12 host.cells on h1 h2 h3"

# the report: a Fleet section naming every host with its real hostname,
# host . device rows, the fleet spread, and report.csv's host column
expect_exit 0 "$IOMATRIX" report "$S" -o "$T/rep" --charts none
md=$T/rep/report.md
grep -q '^## Fleet' "$md" || fail "no Fleet section"
# ssh hosts are not a launcher's ranks: no such sentence, hosts as given
grep -q 'ranks of' "$md" && fail "an ssh fleet is called a launcher's ranks"
grep -q '^| host (as given) |' "$md" || fail "the hosts table's corner is not 'host (as given)'"
for h in h1 h2 h3; do
	grep -q "^| $h | $(hostname) |" "$md" || fail "Fleet table lacks $h"
	[ "$(grep -c "^| $h · scratch |" "$md")" = 4 ] || fail "want 4 rows of $h · scratch"
done
[ "$(grep -c '^\*Fleet spread of scratch over 3 hosts: min .* / median .* / max .* IOPS' "$md")" = 4 ] ||
	fail "want a fleet spread line per workload"
[ "$(grep -c '^- On .*, scratch on the 3 hosts ranged from .* IOPS (h[123]) to .* (h[123]), median ' "$md")" = 4 ] ||
	fail "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$md")"
# the Environment shows each host's own device: its path and fingerprint
grep -q "^| path | $T/d1/ | $T/d2/ | $T/d3/ |" "$md" || fail "environment: $(grep '^| path |' "$md")"
grep -q "^| path kind | directory | directory | directory |" "$md" || fail "no per-host device fingerprints"
for h in h1 h2 h3; do
	n=$(awk -F, -v h="$h" 'NR > 1 && $2 == h && $3 == "scratch"' "$T/rep/report.csv" | wc -l)
	[ "$n" = 4 ] || fail "report.csv: $n rows with host $h, want 4"
done

# an outlier is named: in a copy of the set h1 and h2 get 1,000 IOPS and
# h3 250 (a loaded test machine is too noisy to rely on measured ones),
# repetition and summary alike (a reader refuses a cell whose numbers
# disagree: bandwidth follows IOPS)
cp -r "$S" "$T/slow"
for f in "$T"/slow/cells/*.json; do
	v=1000; jq -e '.host == "h3"' "$f" >/dev/null && v=250
	jq --argjson v "$v" '.repetitions[0].read |= (.bw_bytes_s = .bw_bytes_s / .iops * $v | .iops = $v) |
		.repetitions[0].read.bw_bytes_s as $b |
		.summary.read.iops |= (.mean = $v | .min = $v | .max = $v | .ci95 = 0) |
		.summary.read.bw_bytes_s |= (.mean = $b | .min = $b | .max = $b | .ci95 = 0)' \
		"$f" >"$f.new" && mv "$f.new" "$f"
done
expect_exit 0 "$IOMATRIX" report "$T/slow" -o "$T/rep2" --charts none
[ "$(grep -c '^- \*\*Outlier:\*\* h3 is 4.0x slower than the fleet median on ' "$T/rep2/report.md")" = 4 ] ||
	fail "h3 not named as an outlier: $(grep -i outlier "$T/rep2/report.md" | head -n 3)"
grep -q 'Outlier:\*\* h[12]' "$T/rep2/report.md" && fail "a host at the median was named"
[ "$(grep -c '^\*Fleet spread of scratch over 3 hosts: min 250 / median 1,000 / max 1,000 IOPS (max/min 4.00x)' "$T/rep2/report.md")" = 4 ] ||
	fail "spread line: $(grep 'Fleet spread' "$T/rep2/report.md" | head -n 1)"

# the hosts can come from the suite; compare pairs the two fleet sets host by host
sed 's/^suite: fleet-survey$/suite: fleet-survey\nhosts: [h1, h2, h3]/' "$T/s.yaml" >"$T/s2.yaml"
grep -q '^hosts:' "$T/s2.yaml" || fail "sed"
expect_exit 0 "$IOMATRIX" run "$T/s2.yaml" --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" \
	--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --device "h3:scratch=$T/d3/" --out "$T/set2" --quiet
[ "$(jq -r '[.fleet.hosts[].name] | join(",")' "$T/set2/manifest.json")" = h1,h2,h3 ] || fail "suite hosts: not used"
sed 's/^suite: fleet-survey$/suite: fleet-survey\nhosts: [h1, "-oProxyCommand=x"]/' "$T/s.yaml" >"$T/s3.yaml"
expect_exit 2 "$IOMATRIX" run "$T/s3.yaml" --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" --quiet
grep -q "starts with '-'" "$T/err" || fail "a hostile host in the suite: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" compare "$S" "$T/set2" -o "$T/cmp"
for h in h1 h2 h3; do
	grep -q "^| $h · scratch | " "$T/cmp/compare.md" || fail "compare lacks $h · scratch"
done
# every host.cell paired: 12 cells, one verdict each, nothing "only in" one set
grep -q "^## Only in" "$T/cmp/compare.md" && fail "compare did not pair hosts: $(grep -A6 '^## Only in' "$T/cmp/compare.md")"
[ "$(grep -c '^| h[123] · scratch | ' "$T/cmp/compare.md")" = 12 ] || fail "want 12 compared rows"
expect_exit 0 "$IOMATRIX" list "$T"
grep -q "fleet-survey *fleet:3 *scratch *1 *12/12 *complete *$S\$" "$T/out" || fail "list: $(cat "$T/out")"
echo "report, outliers, suite hosts, compare and list ok"
