#!/bin/sh
# A host lost mid-run: h2's sshd (listener and sessions) is killed while
# the cells run.  h2's running and remaining cells are failed with the
# reason, h1 and h3 finish, exit 1; h2's agent sees its input end and
# removes its scratch files.  Then h2 comes back and --resume runs only
# h2's missing cells: the set ends complete with 12 ok cells.
# Aggregate too: the cell in progress fails for the whole fleet.
# No clock decides when the host is lost: its agent pauses at the test hook
# (bench/util/testhook.h) one interval into a cell, the test kills the
# host's sshd and lets the agent go on, and waits for the agent's end.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
for i in 1 2 3; do mkdir -p "$T/d$i"; done
fleet_hook_agent 3
cat >"$T/s.yaml" <<Y
suite: fleet-lost
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 1s, interval: 100ms, rate_iops: 2000}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread, read, randwrite, write]
Y
DEV="--device h1:scratch=$T/d1/ --device h2:scratch=$T/d2/ --device h3:scratch=$T/d3/"
# h2 pauses one interval into each cell: the first goes on, in the second
# h2 is lost
echo "interval:1+" >"$T/hook-2"
fleet_ends 1 3 &
ended=$!
# shellcheck disable=SC2086
"$IOMATRIX" run "$T/s.yaml" --hosts h1,h2,h3 --ssh-config "$SSHCFG" --remote-iomatrix "$FLEET_AGENT" \
	$DEV --out "$T/set" >"$T/out" 2>"$T/err" &
pid=$!
hook_wait "$T/hookfifo-2" >/dev/null || { kill $pid; fail "h2's first cell did not pause"; }
hook_go "$T/hookfifo-2" || { kill $pid; fail "h2 did not take the answer"; }
hook_wait "$T/hookfifo-2" >/dev/null || { kill $pid; fail "h2's second cell did not pause"; }
fleet_lose 2
wait $pid; rc=$?
wait $ended
[ -s "$T/ends" ] && fail "$(cat "$T/ends")"
[ "$rc" = 1 ] || { cat "$T/err"; fail "exit $rc after losing a host, want 1"; }
grep -q "host 'h2' lost" "$T/err" || fail "no message naming the lost host: $(cat "$T/err")"
S=$T/set
[ "$(jq -r .status "$S/manifest.json")" = failed ] || fail "set status"
ok1=$(jq '[.cells[] | select(.host == "h1" and .status == "ok")] | length' "$S/manifest.json")
ok3=$(jq '[.cells[] | select(.host == "h3" and .status == "ok")] | length' "$S/manifest.json")
f2=$(jq '[.cells[] | select(.host == "h2" and .status == "failed")] | length' "$S/manifest.json")
[ "$ok1" = 4 ] && [ "$ok3" = 4 ] || fail "the other hosts did not finish: h1 $ok1, h3 $ok3 ok cells"
ok2=$(jq '[.cells[] | select(.host == "h2" and .status == "ok")] | length' "$S/manifest.json")
# killed during its second cell: the first is ok, the running one and the
# rest failed, none missing
[ "$f2" = 3 ] && [ "$ok2" = 1 ] ||
	fail "h2: $ok2 ok and $f2 failed cells, want the first ok, the rest failed, 4 in all"
[ "$(jq -c '[.cells[] | select(.host == "h2") | .status] | . == (sort_by(. != "ok"))' "$S/manifest.json")" = true ] ||
	fail "h2: an ok cell after a failed one: $(jq -c '[.cells[] | select(.host == "h2") | .status]' "$S/manifest.json")"
jq -s -e '[.[] | select(.host == "h2" and .status == "failed") | .error | test("lost")] | all' "$S"/cells/*.json >/dev/null ||
	fail "failed cells do not say why"
[ -z "$(fleet_agents)" ] || fail "agents left: $(fleet_agents)"
[ -z "$(find "$T/d2" -type f)" ] || fail "h2's agent left scratch files: $(ls "$T/d2")"

# the finished hosts' cell files, byte for byte, to hold the resume to
done_cells() { jq -r 'select(.host == "h1" or .host == "h3") | input_filename' "$S"/cells/*.json | sort; }
before=$(done_cells | xargs cat | cksum)
fleet_restart 2 || fail "cannot restart h2"
expect_exit 0 "$IOMATRIX" run --resume "$S" --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" --quiet
[ "$(jq -r .status "$S/manifest.json")" = complete ] || fail "resumed set is $(jq -r .status "$S/manifest.json")"
[ "$(jq '[.cells[] | select(.status == "ok")] | length' "$S/manifest.json")" = 12 ] || fail "resume did not complete the set"
[ "$(jq '.resumed_at | length' "$S/manifest.json")" = 1 ] || fail "resumed_at"
# only h2's cells ran again: h1's and h3's cell files are untouched (a
# comparison of finished_at with resumed_at, both to the second, failed
# whenever the resume began in the second the run ended)
[ "$(done_cells | xargs cat | cksum)" = "$before" ] || fail "resume re-ran cells of hosts that had finished"
echo "survey: lost host failed $f2 cells, others finished, resume completed"

# aggregate: losing a host fails the cell in progress for the whole fleet
# (h3 pauses one interval into the first cell and is lost there; e7c44cf
# had made the cells 4 s long so that a kill 0.7 s after the start landed
# inside the first cell)
dd if=/dev/zero of="$T/shared.dat" bs=1M count=4 status=none
cat >"$T/a.yaml" <<Y
suite: fleet-lost-agg
defaults: {engine: psync, direct: false, size: 4MiB, runtime: 1s, interval: 100ms, pattern: randread, rate_iops: 2000}
devices:
  - {name: shared, path: $T/shared.dat}
matrix:
  bs: [4k, 8k]
Y
rm -f "$T/hook-2"
echo "interval:1" >"$T/hook-3"
fleet_ends 1 2 &
ended=$!
"$IOMATRIX" run "$T/a.yaml" --hosts h1,h2,h3 --aggregate --ssh-config "$SSHCFG" --remote-iomatrix "$FLEET_AGENT" \
	--out "$T/aset" --quiet >"$T/out" 2>"$T/err" &
pid=$!
hook_wait "$T/hookfifo-3" >/dev/null || { kill $pid; fail "aggregate: h3's first cell did not pause"; }
fleet_lose 3
wait $pid; rc=$?
wait $ended
[ -s "$T/ends" ] && fail "$(cat "$T/ends")"
[ -z "$(fleet_agents)" ] || fail "aggregate: agents left: $(fleet_agents)"
[ "$rc" = 1 ] || { cat "$T/err"; fail "aggregate: exit $rc, want 1"; }
A=$T/aset
first_all=$(jq -r '.cells[] | select(.host == "all" and .id == 1) | .status' "$A/manifest.json")
[ "$first_all" = failed ] || fail "aggregate cell in progress is '$first_all', want failed"
[ "$(jq '[.cells[] | select(.id <= 8 and .id != 1 and (.id % 2) == 1) | .status] | unique' "$A/manifest.json" | jq -r '.[0]')" = failed ] ||
	fail "the hosts' parts of the cell in progress are not all failed: $(jq -c .cells "$A/manifest.json")"
jq -s -e '.[] | select(.host == "all" and .plan_id == 2) | .status == "ok" and (.fleet.hosts == ["h1","h2"])' "$A"/cells/*.json >/dev/null ||
	fail "the next cell did not run on the remaining hosts"
echo "aggregate: the cell in progress failed for the fleet, the next ran on h1 h2"
