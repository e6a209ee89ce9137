#!/bin/sh
# SIGINT on the controller while 3 hosts run: every agent stops within a
# second and removes its scratch files, the set is marked interrupted with
# the finished cells kept, the exit code is 130, and no 'iomatrix agent'
# is left on any host.  (fleet_fault_host_lost resumes a set.)
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
for i in 1 2 3; do mkdir -p "$T/d$i"; done
cat >"$T/s.yaml" <<Y
suite: fleet-sigint
defaults: {engine: psync, direct: false, size: 4MiB, runtime: 3s, rate_iops: 2000}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread, randwrite]
Y
DEV="--device h1:scratch=$T/d1/ --device h2:scratch=$T/d2/ --device h3:scratch=$T/d3/"
# shellcheck disable=SC2086
"$IOMATRIX" run "$T/s.yaml" --hosts h1,h2,h3 --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" \
	$DEV --out "$T/set" >"$T/out" 2>"$T/err" &
pid=$!
# wait until every agent has laid out its file and runs
k=0
until [ -n "$(find "$T/d1" "$T/d2" "$T/d3" -type f 2>/dev/null | sed -n 3p)" ] &&
      [ "$(fleet_agents | wc -l)" = 3 ]; do
	sleep 0.05; k=$((k + 1)); [ $k -lt 400 ] || { kill $pid; fail "agents never started"; }
done
sleep 0.3
kill -INT $pid
start=$(date +%s%N)
wait $pid; rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
echo "controller exited $rc ${took} ms after SIGINT"
[ "$rc" = 130 ] || { cat "$T/err"; fail "exit $rc after SIGINT, want 130"; }
[ -z "$(fleet_agents)" ] || fail "agents left after SIGINT: $(fleet_agents)"
left=$(find "$T/d1" "$T/d2" "$T/d3" -type f)
[ -z "$left" ] || fail "remote scratch files left: $left"
[ "$(jq -r .status "$T/set/manifest.json")" = interrupted ] || fail "set status $(jq -r .status "$T/set/manifest.json")"
[ "$took" -lt 3000 ] || fail "stopping took $took ms"
grep -q "resume" "$T/err" || fail "no hint to resume"
