#!/bin/sh
# What validate accepts, run
# records and report reads.
# seed and requests of 2^64-1 and qos {mean: 11575d} validated and ran,
# and the set reader then refused the cell ("skipped"): validate refuses
# them now (exit 2, the key, its range), and the largest values it takes
# (seed 10^15-1, qos 1d) run and report without a warning.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
mk() { # file extra-keys
	cat >"$1" <<Y
suite: t-ranges
defaults: {engine: psync, direct: false, size: 64KiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, $2}
Y
}
mk "$T/seed.yaml" "requests: 8, seed: 18446744073709551615"
mk "$T/req.yaml" "requests: 18446744073709551615"
mk "$T/qos.yaml" "runtime: 100ms, rate_iops: 100, load_sweep: {iops: [100]}, qos: {mean: 11575d}"
for k in seed req qos; do
	expect_exit 2 "$IOMATRIX" validate "$T/$k.yaml"
	grep -q "out of range\|at most 1d" "$T/err" && ok "validate refuses $k past its range" ||
		not_ok "$k: $(cat "$T/err")"
done
grep -q "'qos' mean must be a latency above 0 and at most 1d" "$T/err" && ok "qos names its bound" ||
	not_ok "qos message: $(cat "$T/err")"
# item 16: the sweep's shares are 1..1000 %, as the docs and message say
for sw in "{from: 1e-300, to: 1e-300}" "{from: 0.5%, to: 20%}" "{from: 0x10, to: 20%}"; do
	mk "$T/sw.yaml" "runtime: 100ms, load_sweep: $sw"
	expect_exit 2 "$IOMATRIX" validate "$T/sw.yaml"
	grep -q "must be a share of the maximum in 1%..1000%" "$T/err" && ok "load_sweep $sw refused" ||
		not_ok "load_sweep $sw: $(cat "$T/err")"
done
mk "$T/sw.yaml" "runtime: 100ms, load_sweep: {from: 1%, to: 1000%, steps: 2}"
expect_exit 0 "$IOMATRIX" validate "$T/sw.yaml"
ok "load_sweep 1%..1000% passes"

mk "$T/max.yaml" "requests: 8, seed: 999999999999999"
expect_exit 0 "$IOMATRIX" run "$T/max.yaml" --device d="$T/scratch" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep"
grep -q "skipped\|treated as failed" "$T/err" && not_ok "report: $(cat "$T/err")" ||
	ok "seed 10^15-1 runs and reports"
grep -q '"seed":[[:space:]]*999999999999999,' "$T/set/cells/0001.json" &&
	ok "seed 10^15-1 recorded as written" || not_ok "recorded: $(grep '"seed"' "$T/set/cells/0001.json")"
tap_end
