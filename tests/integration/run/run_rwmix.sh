#!/bin/sh
# rwmixread 70 gives 70 +- 2 % reads over 20,000 IOs.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-rwmix
defaults:
  engine: psync
  direct: false
  size: 8MiB
devices:
  - name: d
    path: /nonexistent
include:
  - {pattern: randrw, bs: 4k, rwmixread: 70, requests: 20000}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
r=$(jq '.repetitions[0].read.ios' "$T/set/cells/0001.json")
w=$(jq '.repetitions[0].write.ios' "$T/set/cells/0001.json")
[ $((r + w)) = 20000 ] && ok "20000 IOs in all" || not_ok "read $r + write $w != 20000"
pct=$((r * 1000 / (r + w)))
[ "$pct" -ge 680 ] && [ "$pct" -le 720 ] && ok "reads are $pct per mille" \
	|| not_ok "reads are $pct per mille, want 680..720"
tap_end
