#!/bin/sh
# Bad load_sweep, qos and rate_iops settings exit 2 with file:line:col, a
# cause and a fix: from above to, steps 0 or over 100, a target without a
# sweep, a rate the engine cannot honour (io_uring's SQPOLL thread decides
# when a request starts), a rate beside a sweep, an unknown target; and
# a sweep on a fleet (--hosts), whose agents run repetitions only.
. "$(dirname "$0")/../../lib.sh"
bad() { # name yaml-fragment expected-message
	cat >"$T/$1.yaml" <<EOS
suite: bad
defaults: {engine: "null", runtime: 1s}
devices:
  - {name: dev, path: $T/d}
matrix:
  pattern: [randread]
include:
  - $2
EOS
	expect_exit 2 "$IOMATRIX" validate "$T/$1.yaml"
	grep -q "$T/$1.yaml:8:[0-9]*: .*$3" "$T/err" && ok "$1: file:line:col, $3" \
		|| not_ok "$1: $(cat "$T/err")"
}
bad from_above_to '{pattern: randread, load_sweep: {from: 150%, to: 100%}}' "from 150% is above to 100%"
bad steps_0 '{pattern: randread, load_sweep: {steps: 0}}' "steps 0 is out of range 1..100"
bad steps_101 '{pattern: randread, load_sweep: {steps: 101}}' "steps 101 is out of range 1..100"
bad qos_no_sweep '{pattern: randread, qos: {p99: 1ms}}' "'qos' target without a 'load_sweep'"
bad sqpoll '{pattern: randread, engine: io_uring, sqthread_poll: true, rate_iops: 100}' \
	"cannot honour 'rate_iops'"
bad rate_and_sweep '{pattern: randread, rate_iops: 100, load_sweep: {iops: [10]}}' \
	"'rate_iops' and 'load_sweep' together"
bad unknown_target '{pattern: randread, qos: {p98: 1ms}, load_sweep: {iops: [10]}}' \
	"unknown target 'p98'"
bad rate_zero_dir '{pattern: randread, rate_iops: [0, 100]}' "gives reads 0 IOPS"
# a fleet's agents run repetitions, not sweeps: refused before any ssh
cat >"$T/fleet.yaml" <<EOS
suite: fleet
defaults: {engine: "null", runtime: 1s}
devices:
  - {name: dev, path: $T/d}
matrix: {pattern: [randread], load_sweep: [{iops: [10, 20]}]}
EOS
expect_exit 2 "$IOMATRIX" run "$T/fleet.yaml" --hosts h1,h2 --out "$T/fset"
grep -q "has a load_sweep, which runs on one host only" "$T/err" && ok "--hosts with a load_sweep: exit 2, says why" \
	|| not_ok "fleet: $(cat "$T/err")"
tap_end
