#!/bin/sh
# --scale F multiplies size, runtime, requests, io_size, ramp and cooldown, is recorded
# in the manifest; --resume keeps the set's scale and refuses another one.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-scale
defaults: {engine: psync, direct: false, size: 4MiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 400}
  - {pattern: write, bs: 4k, io_size: 1MiB}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --scale 0.5 --quiet
m="$T/set/manifest.json"
[ "$(jq .scale "$m")" = 0.5 ] && ok "manifest records scale 0.5" || not_ok "scale $(jq .scale "$m")"
c1="$T/set/cells/0001.json"; c2="$T/set/cells/0002.json"
[ "$(jq .params.size_bytes "$c1")" = 2097152 ] && ok "size halved" || not_ok "size $(jq .params.size_bytes "$c1")"
[ "$(jq .repetitions[0].read.ios "$c1")" = 200 ] && ok "requests halved: 200 IOs" || not_ok "ios $(jq .repetitions[0].read.ios "$c1")"
[ "$(jq .repetitions[0].write.bytes "$c2")" = 524288 ] && ok "io_size halved" || not_ok "bytes $(jq .repetitions[0].write.bytes "$c2")"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --resume "$T/set" --scale 2 --quiet
grep -q "scale" "$T/err" && ok "resume with another --scale refused" || not_ok "message: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --scale 0 --quiet
grep -q "scale" "$T/err" && ok "--scale 0 refused" || not_ok "message: $(cat "$T/err")"
tap_end
