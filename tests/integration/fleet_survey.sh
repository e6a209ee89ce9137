#!/bin/sh
# Survey: 3 test hosts (sshd on 127.0.0.1) x a 4-cell suite, each host on
# its own scratch directory (--device HOST:NAME=PATH) -> one fleet set with
# 12 host.cells, each with its host; the manifest lists the hosts with
# fingerprints, versions and clock offsets; no agent and no scratch file is
# left; a second run compares host by host with the first.
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
for i in 1 2 3; do mkdir -p "$T/d$i"; done
cat >"$T/s.yaml" <<Y
suite: fleet-survey
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 200ms}
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
