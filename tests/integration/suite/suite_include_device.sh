#!/bin/sh
# An include entry can pick its devices ("unknown key
# 'device'"): `device: ssd` runs the extra cell on ssd only, a list on
# those named, none on every device as before; the cell ids stay in run
# order, and a name that is no device of the suite is an error at its
# position (tests/bad-suites/90-include-unknown-device).
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
cat >"$T/s.yaml" <<YAML
suite: inc
defaults: {engine: "null", size: 1MiB, requests: 10}
devices: [{name: hdd, path: $T/a}, {name: ssd, path: $T/b}, {name: nvme, path: $T/c}]
include:
  - {label: only-ssd, device: ssd, pattern: randread}
  - {label: every, pattern: read}
  - {label: two, device: [hdd, nvme], pattern: write}
YAML
expect_exit 0 "$IOMATRIX" plan "$T/s.yaml" --format json
got=$(jq -r '[.cells[] | "\(.id):\(.device):\(.label)"] | join(" ")' "$T/out")
want="1:hdd:every 2:hdd:two 3:ssd:only-ssd 4:ssd:every 5:nvme:every 6:nvme:two"
[ "$got" = "$want" ] && ok "each entry on its devices, in run order" || not_ok "cells: $got"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
[ "$(jq -r '.cells_total' "$T/set/manifest.json")" = 6 ] && ok "run: 6 cells" \
	|| not_ok "cells_total $(jq -r '.cells_total' "$T/set/manifest.json")"
sed 's/device: \[hdd, nvme\]/device: [hdd, nvm]/' "$T/s.yaml" >"$T/bad.yaml"
expect_exit 2 "$IOMATRIX" validate "$T/bad.yaml"
grep -q "bad.yaml:7:26: unknown device 'nvm' in an 'include' entry (did you mean 'nvme'?)" "$T/err" \
	&& ok "an unknown device: file:line:col and the fix" || not_ok "$(cat "$T/err")"
tap_end
