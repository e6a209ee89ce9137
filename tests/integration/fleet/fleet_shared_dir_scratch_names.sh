#!/bin/sh
# Three hosts on one shared directory (as on NFS, or hosts that are one
# machine) with --aggregate: each agent lays out its own scratch file,
# named for its host (iomatrix.h1.scratch.0 ...), so they never race on
# one name; the run completes and each host's file is its own.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
mkdir -p "$T/shared"
cat >"$T/s.yaml" <<Y
suite: fleet-shared
defaults: {engine: psync, direct: false, size: 1MiB, requests: 64, keep_files: true}
devices:
  - {name: scratch, path: $T/shared/}
matrix:
  pattern: [randread, read]
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --hosts h1,h2,h3 --aggregate --ssh-config "$SSHCFG" \
	--remote-iomatrix "$IOMATRIX" --out "$T/set" --quiet
jq -e '.status == "complete" and ([.cells[].status] | all(. == "ok"))' "$T/set/manifest.json" >/dev/null ||
	fail "set not complete: $(jq -c '[.status, [.cells[].status]]' "$T/set/manifest.json")"
got=$(cd "$T/shared" && ls | sort | tr '\n' ' ')
[ "$got" = "iomatrix.h1.scratch.0 iomatrix.h2.scratch.0 iomatrix.h3.scratch.0 " ] ||
	fail "scratch files in the shared directory: '$got', want one per host"
rm -f "$T/shared"/iomatrix.*
