#!/bin/sh
# A model device is its own device, identified by its keys
# (host/devident.h): two model devices in directories on one disk, one with
# twice the other's service time, are not "the same device (/dev/vda)";
# run says what each model is and not that its path "will be created" (no
# IO reaches it, and it never is); the manifest records kind "model", not
# the disk under the directory.  Two model devices with one set of keys
# are one model device, and run says so.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mk() { # $1 name, $2 second device's keys
	cat >"$T/$1.yaml" <<YAML
suite: $1
defaults: {engine: model, size: 1MiB, requests: 200, pattern: randread, bs: 4k}
devices:
  - {name: m1, path: $T/m1}
  - {name: m2, path: $T/m2$2}
include: [{label: x}]
YAML
	expect_exit 0 "$IOMATRIX" run "$T/$1.yaml" --out "$T/$1"
}
mk two ", model_latency: 200us"
grep -q 'same device\|one model device' "$T/err" && not_ok "two models called one: $(cat "$T/err")" \
	|| ok "two models with different keys: no same-device warning"
grep -q 'will be created' "$T/err" && not_ok "a model's path 'will be created'" \
	|| ok "no path to be created"
grep -q '^iomatrix: device m2: a model device (model_latency=200us); no IO reaches ' "$T/err" \
	&& ok "run says what the model is" || not_ok "$(grep 'device m2' "$T/err")"
[ -e "$T/m1" ] || [ -e "$T/m2" ] && not_ok "a model device's path was made" || ok "nothing made at the paths"
[ "$(jq -r '[.devices[].fingerprint.kind] | join(",")' "$T/two/manifest.json")" = model,model ] \
	&& [ "$(jq -r '[.devices[].fingerprint.block_device] | join(",")' "$T/two/manifest.json")" = "," ] \
	&& ok "manifest: kind model, no block device" \
	|| not_ok "fingerprints: $(jq -c '.devices[].fingerprint' "$T/two/manifest.json")"
mk one ""
grep -q 'warning: m1 and m2 are one model device (the same model keys)' "$T/err" \
	&& ok "one set of keys: one model device" || not_ok "same keys: $(cat "$T/err")"
# three names of one model: "m1, m2 and m3", never "m1 and m2, m3"
sed 's|^include:|  - {name: m3, path: '"$T"'/m3}\ninclude:|' "$T/one.yaml" | sed 's/suite: one/suite: three/' >"$T/three.yaml"
expect_exit 0 "$IOMATRIX" run "$T/three.yaml" --out "$T/three"
grep -q 'warning: m1, m2 and m3 are one model device (the same model keys)' "$T/err" \
	&& ok "three names: a list with 'and' before the last" || not_ok "three: $(grep warning "$T/err")"
tap_end
