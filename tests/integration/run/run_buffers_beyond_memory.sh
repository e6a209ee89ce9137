#!/bin/sh
# A cell's IO buffers are jobs x iodepth x bs (every job holds iodepth
# slots of bs): 64 jobs x QD1024 x 64 MiB on a model device passed
# validate and failed "out of memory" in the run.  validate now bounds
# what a cell may ask for (1 TiB: tests/bad-suites/90-*), and run refuses
# before any IO, with exit 2, what does not fit this machine's memory,
# naming the product; no set is left.
. "$(dirname "$0")/../../lib.sh"
mem=$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
[ -n "$mem" ] && [ "$mem" -lt 549755813888 ] || skip "this machine has 512 GiB of memory or more"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<Y
suite: t-buffers
defaults: {engine: model, model_latency: 100us, size: 1GiB, runtime: 1s, jobs: 256, iodepth: 1024}
devices:
  - {name: m, path: $T/d}
matrix: {pattern: [randread], bs: [2m]}
Y
expect_exit 0 "$IOMATRIX" validate "$T/s.yaml"
ok "validate: 512 GiB of buffers is within the language's bound"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
grep -q "cell 1 (m RND2M Q1024T256): jobs 256 x iodepth 1024 x bs 2.0 MiB = 512 GiB of IO buffers, more than this machine's memory" "$T/err" &&
	[ ! -e "$T/set" ] && ok "run: refused before any IO, the product named, no set" ||
	not_ok "run: $(cat "$T/err"); set: $(ls "$T/set" 2>&1)"
tap_end
