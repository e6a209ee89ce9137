#!/bin/sh
# The direction of a reproduction's verdict: for an IOPS cell a higher
# ratio is "faster", for a latency cell (label starting LAT, whose primary
# metric is the mean latency) a higher ratio is "slower".  Reproductions
# made by hand from one set (copies whose manifest records "reproduces",
# with every repetition's numbers scaled by jq), judged by compare, so the
# verdicts are exact and no timing is involved.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd sha256sum
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: repro-dir
defaults: {engine: "null", size: 1m, requests: 64, repeat: 3}
devices:
  - {name: disk, path: $T/d}
include:
  - {pattern: randread, bs: 4k, iodepth: 64}
  - {label: "LAT 8K", pattern: randread, bs: 8k, iodepth: 64}
EOS
. "$ROOT/tests/repro_lib.sh" # steady(), resum(): a steady original by hand
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet
steady "$T/orig" 0001 0002
sha=$(sha256sum "$T/orig/manifest.json" | cut -d' ' -f1)
mkrep() { # name jq-filter-on-every-cell
	cp -r "$T/orig" "$T/$1"
	jq --arg s "$sha" '.reproduces = {set: "orig", manifest_sha256: $s, path: "orig"}' \
		"$T/orig/manifest.json" >"$T/$1/manifest.json"
	for c in 0001 0002; do jq "$JQ_AGREE $2 | resummary" "$T/orig/cells/$c.json" >"$T/$1/cells/$c.json"; done
	resum "$T/$1"
}
scale() { # factor: every repetition's IOPS and latencies times it
	echo ".repetitions[].read |= (rates($1) | .lat_ns |= (.min *= $1 | .mean *= $1 |
		.max *= $1 | .stddev *= $1 | .percentiles |= map_values(. * $1)))"
}
mkrep double "$(scale 2)"
mkrep half "$(scale 0.5)"
expect_exit 0 "$IOMATRIX" compare "$T/orig" "$T/double" -o "$T/c1"
grep -q "^  faster       disk: 4K random read, QD64 (RND4K Q64T1), IOPS: .* ratio 2\.000" "$T/out" &&
	ok "IOPS doubled: faster" || not_ok "iops x2: $(cat "$T/out")"
grep -q "^  slower       disk: .*(LAT 8K), mean latency: .* ratio 2\.000" "$T/out" &&
	ok "latency doubled: slower" || not_ok "lat x2: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" compare "$T/orig" "$T/half" -o "$T/c2"
grep -q "^  slower       disk: 4K random read, QD64 (RND4K Q64T1), IOPS: .* ratio 0\.500" "$T/out" &&
	ok "IOPS halved: slower" || not_ok "iops /2: $(cat "$T/out")"
grep -q "^  faster       disk: .*(LAT 8K), mean latency: .* ratio 0\.500" "$T/out" &&
	ok "latency halved: faster" || not_ok "lat /2: $(cat "$T/out")"
grep -q "^Not reproduced within ±10 %: 0 of 2 workloads reproduced, 1 slower, 1 faster" "$T/out" &&
	ok "sentence counts both" || not_ok "sentence: $(cat "$T/out")"
tap_end
