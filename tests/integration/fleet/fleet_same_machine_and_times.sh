#!/bin/sh
# Test hosts h1..h3 are one machine (sshd on 127.0.0.1): run warns that
# their numbers are not independent, the manifest lists them under
# fleet.same_machine and the report says so.  Every host cell records
# when (measured_at) and in which run (fleet_session) it was measured; a
# host whose cells come from a later, resumed run is named as an outlier
# only with "measured at another time", and the spread says the times mix.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
for i in 1 2 3; do mkdir -p "$T/d$i"; done
cat >"$T/s.yaml" <<Y
suite: fleet-same-machine
defaults: {engine: null, size: 64KiB, requests: 64}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread]
Y
S=$T/set
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --hosts h1,h2,h3 --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" \
	--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/" --device "h3:scratch=$T/d3/" --out "$S" --quiet
grep -q "warning: hosts h1, h2, h3 are one machine" "$T/err" && ok "run warns: one machine" ||
	not_ok "no one-machine warning: $(head -c 300 "$T/err")"
jq -e '.fleet.same_machine == [["h1","h2","h3"]]' "$S/manifest.json" >/dev/null && ok "manifest: same_machine" ||
	not_ok "manifest same_machine: $(jq -c .fleet.same_machine "$S/manifest.json")"
[ "$(jq -s '[.[] | select(.measured_at.start != null and .measured_at.end != null and .fleet_session == 0)] | length' "$S"/cells/*.json)" = 3 ] &&
	ok "each host cell has measured_at and its run" || not_ok "measured_at/fleet_session missing"
# h3's cell as if measured by a later resume, 4x slower (its repetition
# and summary agree, bandwidth with IOPS: a reader refuses a cell whose
# numbers disagree)
for f in "$S"/cells/*.json; do
	v=1000; s=0; jq -e '.host == "h3"' "$f" >/dev/null && { v=250; s=1; }
	jq --argjson v "$v" --argjson s "$s" '.fleet_session = $s |
		.repetitions[0].read |= (.bw_bytes_s = .bw_bytes_s / .iops * $v | .iops = $v) |
		.repetitions[0].read.bw_bytes_s as $b |
		.summary.read.iops |= (.mean = $v | .min = $v | .max = $v | .ci95 = 0) |
		.summary.read.bw_bytes_s |= (.mean = $b | .min = $b | .max = $b | .ci95 = 0)' \
		"$f" >"$f.new" && mv "$f.new" "$f"
done
expect_exit 0 "$IOMATRIX" report "$S" -o "$T/rep" --charts none
grep -q "h3 is 4.0x slower than the fleet median on .*measured at another time than most hosts" "$T/rep/report.md" &&
	ok "the outlier says it was measured at another time" ||
	not_ok "outlier line: $(grep -i outlier "$T/rep/report.md" | head -n 2)"
grep -q "not all measured at the same time" "$T/rep/report.md" && ok "the spread says the times mix" ||
	not_ok "spread line: $(grep -i 'spread' "$T/rep/report.md" | head -n 2)"
grep -q "h1, h2, h3 are one machine" "$T/rep/report.md" && ok "report: one machine" ||
	not_ok "report does not say one machine"
tap_end
