#!/bin/sh
# A model device is what its keys make it (host/devident.h), in history
# too: the same name and path run at model_latency 1 ms and then 2 ms is
# two devices, two series named by their keys, not one series with a
# halving "change point" (the old code joined them by name and path).
# Run twice at one set of keys it is one device: one series of two points.
. "$(dirname "$0")/../../lib.sh"
mk() { # $1 set, $2 model_latency
	cat >"$T/$1.yaml" <<YAML
suite: mod
defaults: {engine: model, model_latency: $2, iodepth: 64, size: 1MiB, requests: 200, bs: 4k, pattern: randread}
devices: [{name: m, path: $T/m}]
include: [{label: x}]
YAML
	expect_exit 0 "$IOMATRIX" run "$T/$1.yaml" --out "$T/$3/$1" --quiet
}
mk s1 1ms two
mk s2 2ms two
expect_exit 0 "$IOMATRIX" history "$T/two"
head -1 "$T/out" | grep -q "^history: 2 sets, 2 series (0 kept apart), 0 change points" &&
	ok "other keys: two series, no change point" || not_ok "two: $(head -1 "$T/out")"
grep -q "^[^ ]* · m (model_latency=1ms) — x randread — IOPS" "$T/out" &&
	grep -q "^[^ ]* · m (model_latency=2ms) — x randread — IOPS" "$T/out" &&
	ok "each series named by its model's keys" || not_ok "names: $(grep ' — ' "$T/out")"
mk s1 1ms same
mk s3 1ms same
expect_exit 0 "$IOMATRIX" history "$T/same"
head -1 "$T/out" | grep -q "^history: 2 sets, 1 series (0 kept apart)" &&
	ok "one set of keys: one series" || not_ok "same: $(head -1 "$T/out")"
grep -q "model_latency" "$T/out" && not_ok "a lone series named by its keys" || ok "a lone series needs no keys in its name"
tap_end
