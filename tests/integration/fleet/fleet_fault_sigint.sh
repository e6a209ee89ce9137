#!/bin/sh
# SIGINT on the controller while 3 hosts run: every agent stops within a
# second and removes its scratch files, the set is marked interrupted with
# the finished cells kept, the exit code is 130, and no 'iomatrix agent'
# is left on any host.  (fleet_fault_host_lost resumes a set.)  The
# agents pause at the test hook (bench/util/testhook.h) one interval into
# their first cell; the SIGINT comes while all three are there, and they
# go on once it is sent (no clock decides where the agents are).
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
for i in 1 2 3; do mkdir -p "$T/d$i"; echo interval:1 >"$T/hook-$i"; done
fleet_hook_agent 3
cat >"$T/s.yaml" <<Y
suite: fleet-sigint
defaults: {engine: psync, direct: false, size: 4MiB, runtime: 3s, interval: 100ms, rate_iops: 2000}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread, randwrite]
Y
DEV="--device h1:scratch=$T/d1/ --device h2:scratch=$T/d2/ --device h3:scratch=$T/d3/"
# shellcheck disable=SC2086
fleet_ends 1 2 3 &
ended=$!
"$IOMATRIX" run "$T/s.yaml" --hosts h1,h2,h3 --ssh-config "$SSHCFG" --remote-iomatrix "$FLEET_AGENT" \
	$DEV --out "$T/set" >"$T/out" 2>"$T/err" &
pid=$!
# every agent has laid out its file and runs its first cell
for i in 1 2 3; do
	hook_wait "$T/hookfifo-$i" >/dev/null || { kill $pid; fail "h$i's agent did not pause"; }
done
[ "$(fleet_agents | wc -l)" = 3 ] || fail "agents running: $(fleet_agents | wc -l), want 3"
[ "$(find "$T/d1" "$T/d2" "$T/d3" -type f | wc -l)" -ge 3 ] || fail "the agents' files are not laid out"
kill -INT $pid
start=$(date +%s%N)
for i in 1 2 3; do hook_go "$T/hookfifo-$i" || fail "h$i's agent did not take the answer"; done
wait $pid; rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
echo "controller exited $rc ${took} ms after SIGINT"
[ "$rc" = 130 ] || { cat "$T/err"; fail "exit $rc after SIGINT, want 130"; }
[ -z "$(fleet_agents)" ] || fail "agents left after SIGINT: $(fleet_agents)"
wait $ended
[ -s "$T/ends" ] && fail "$(cat "$T/ends")"
left=$(find "$T/d1" "$T/d2" "$T/d3" -type f)
[ -z "$left" ] || fail "remote scratch files left: $left"
[ "$(jq -r .status "$T/set/manifest.json")" = interrupted ] || fail "set status $(jq -r .status "$T/set/manifest.json")"
[ "$took" -lt 3000 ] || fail "stopping took $took ms"
grep -q "resume" "$T/err" || fail "no hint to resume"
