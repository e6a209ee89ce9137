#!/bin/sh
# The ramp ends for an IO when it completes, as in fio (which resets its
# statistics at the end of the ramp): an IO issued during the ramp that
# completes after it is measured; one that completes inside it is not.
# The model engine is a device taking model_latency per IO, so the times
# below hold however late a busy machine wakes the job (an IO completes no
# earlier than its latency after its submission).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/d"
# ios LATENCY_US RAMP NAME: run one cell (requests: 1, iodepth 1), print
# "counted completed max_latency_ms" (completed: the trace's data lines)
ios() {
	cat >"$T/$3.yaml" <<EOS
suite: ramp
defaults: {engine: model, model_latency: ${1}us, size: 1MiB, ramp: $2, requests: 1, iodepth: 1}
devices:
  - {name: dev, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
	IOMATRIX_TRACE="$T/$3.trace" "$IOMATRIX" run "$T/$3.yaml" \
		--out "$T/$3" --quiet >/dev/null 2>"$T/err" || fail "run $3: $(cat "$T/err")"
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1] + "/cells/0001.json"))["repetitions"][0]["read"]
n = sum(1 for l in open(sys.argv[2]) if " data " in l)
print(r["ios"], n, int(r["lat_ns"]["max"] / 1e6) if r["ios"] else 0)' "$T/$3" "$T/$3.trace"
}

# the first IO (issued at the start, 200 ms) straddles the 50 ms ramp: it
# counts, with its 200 ms latency; the second is the one request counted
# by issue time
set -- $(ios 200000 50ms straddle)
[ "$1" = 2 ] && ok "an IO issued in the ramp and completed after it is measured (2 IOs)" \
	|| not_ok "straddling IO: counted $1 of $2 completions, expected 2"
[ "${3:-0}" -ge 200 ] && ok "its latency (${3} ms) is in the statistics" \
	|| not_ok "max latency ${3:-?} ms, expected >= 200 ms"

# 10 ms IOs in a 250 ms ramp: those completed inside it are not measured
set -- $(ios 10000 250ms inside)
[ "$2" -gt "$1" ] && [ "$1" -ge 1 ] && ok "IOs completed inside the ramp are not measured ($1 of $2)" \
	|| not_ok "inside: counted $1 of $2 completions"
tap_end
