#!/bin/sh
# Rounds on a real block device whose speed the test sets per round through
# a cgroup-v1 blkio write limit:
#  1. 10 MiB/s for rounds 1-3, then 40 MiB/s: steady state (window 5) at
#     round 7 or 8, and the window averages the fast rounds;
#  2. alternating 10 and 30 MiB/s every round: never steady within 6
#     rounds; the set says not_reached and the report warns.
# Root; skips without blkio.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
need_cmd jq
blk_loop 64
blk_cgroup
MiB=1048576

suite() { # max window runtime
	cat >"$T/s.yaml" <<Y
suite: t-rounds
defaults:
  engine: libaio
  direct: true
  size: 100%
  ramp: 300ms         # the throttle settling after the test changed the limit
  runtime: $3
devices:
  - name: ssd
    path: /dev/null
    destructive: true
matrix:
  pattern: [write]
  bs: [128k]
  iodepth: [8]
rounds:
  max: $1
  window: $2
  # range 20 % keeps every window with a 10 MiB/s round out (steady at 8
  # at the earliest); slope 20 % rather than the PTS's 10 % leaves room for
  # a busy test host's +-10 % noise in the throttled rounds
  range: 20%
  slope: 20%
  metric: bw
  track: ["SEQ128K Q8T1"]
Y
}
# The limit changes while the run is paused between rounds: the test hook
# (bench/util/testhook.h) stops it after a round is recorded and waits on
# the FIFO until the limit is set (the test polled steady/ssd.json before).
mkfifo "$T/hook" || fail "mkfifo"

# 1. lifted after round 3
suite 12 5 1s           # long enough that the steady rounds are steady
blk_limit $((10 * MiB))
( read -r ev n <"$T/hook" && blk_limit $((40 * MiB)) && echo go >"$T/hook" ) &
lift=$!
IOMATRIX_TEST_HOOK="round:3,fifo=$T/hook" blk_run "$IOMATRIX" run "$T/s.yaml" --device ssd="$BLK_LOOP" --yes-destroy-data \
	--out "$T/a" --quiet >"$T/out" 2>"$T/err"
rc=$?
kill $lift 2>/dev/null # the hook never came: the checks below say so
wait $lift
[ $rc = 0 ] && ok "run 1 exit 0" || not_ok "run 1 exit $rc: $(tail -3 "$T/err")"
sr=$(jq -r .steady_round "$T/a/steady/ssd.json")
case "$sr" in 7|8) ok "steady at round $sr (limit lifted after round 3)" ;;
*) not_ok "steady_round $sr, expected 7 or 8: $(jq -c '.tracks[0].values' "$T/a/steady/ssd.json")" ;; esac
avg=$(jq '.tracks[0].avg / 1048576' "$T/a/steady/ssd.json")
awk "BEGIN { exit !($avg > 32 && $avg < 48) }" && ok "window average $avg MiB/s (40 after the lift)" ||
	not_ok "window average $avg MiB/s"
sum=$(jq '.summary.write.bw_bytes_s.mean / 1048576' "$T/a/cells/0001.json")
awk "BEGIN { exit !($sum > 32 && $sum < 48) }" && ok "cell summary is the window average ($sum MiB/s)" ||
	not_ok "cell summary $sum MiB/s"
[ "$(jq '[.repetitions[].round] == [range(1; '"$sr"' + 1)]' "$T/a/cells/0001.json")" = true ] &&
	ok "every round's repetition kept" || not_ok "rounds in the cell: $(jq -c '[.repetitions[].round]' "$T/a/cells/0001.json")"

# 2. keeps changing: never steady
suite 6 3 400ms
blk_limit $((10 * MiB))
# after every round: 30 MiB/s after an odd one, 10 after an even one
( while read -r ev n <"$T/hook"; do
	[ $((n % 2)) = 1 ] && blk_limit $((30 * MiB)) || blk_limit $((10 * MiB))
	echo go >"$T/hook"
done ) &
flip=$!
IOMATRIX_TEST_HOOK="round:1+,fifo=$T/hook" blk_run "$IOMATRIX" run "$T/s.yaml" --device ssd="$BLK_LOOP" --yes-destroy-data \
	--out "$T/b" --quiet >"$T/out" 2>"$T/err"
rc=$?
kill $flip 2>/dev/null
wait $flip
[ $rc = 0 ] && ok "run 2 exit 0" || not_ok "run 2 exit $rc"
[ "$(jq -r .status "$T/b/steady/ssd.json")" = not_reached ] && [ "$(jq .rounds_done "$T/b/steady/ssd.json")" = 6 ] &&
	ok "not steady after 6 rounds" || not_ok "state: $(jq -c '{status, rounds_done}' "$T/b/steady/ssd.json")"
grep -q "NOT steady after 6 rounds" "$T/err" && ok "run warns" || not_ok "no warning from run: $(tail -2 "$T/err")"
expect_exit 0 "$IOMATRIX" report "$T/b" -o "$T/rep" --charts none
grep -q "Not steady after 6 rounds" "$T/rep/report.md" && grep -q "NOT STEADY after 6 rounds" "$T/rep/report.md" &&
	ok "report banner and warning" || not_ok "report lacks the not-steady warning"
# this suite writes without purge or preconditioning: the device's state
# is unknown, never "fresh-out-of-box"; over a file in /dev/shm the loop
# device is RAM, which has no flash state to speak of
if grep -q "the device is RAM" "$T/rep/report.md"; then
	grep -q "state is unknown" "$T/rep/report.md" && not_ok "a state warning for RAM" || ok "RAM: no state warning"
elif [ "$(cat "/sys/class/block/$(basename "$BLK_LOOP")/queue/rotational")" = 0 ]; then
	grep -q "with no purge or preconditioning: its state is unknown" "$T/rep/report.md" &&
		ok "state-unknown warning" || not_ok "no state-unknown warning"
fi
grep -q "fresh-out-of-box" "$T/rep/report.md" && not_ok "called fresh-out-of-box" || ok "never called fresh-out-of-box"
tap_end
