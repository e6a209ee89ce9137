#!/bin/sh
# Bad input found when a cell is prepared (here bs below the 4096-byte
# logical block size of a loop device, with direct IO) stops the run before
# that cell does IO: exit 2, one clear message, the cell recorded as failed,
# earlier cells kept, later cells not run.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd jq
need_cmd losetup
truncate -s 16M "$T/img"
loop=$(losetup -f --show -b 4096 "$T/img" 2>/dev/null) || skip "no loop device with 4096-byte sectors"
trap 'losetup -d "$loop" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
cat >"$T/s.yaml" <<Y
suite: t-badinput
defaults: {engine: libaio, direct: true, size: 1MiB}
devices:
  - {name: d, path: $loop}
include:
  - {pattern: randread, bs: 4k, requests: 10}
  - {pattern: randread, bs: 512, requests: 10}
  - {pattern: randread, bs: 8k, requests: 10}
Y
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
grep -q "bs 512 is below the logical block size of '$loop' (4096 bytes)" "$T/err" \
	&& ok "message: $(head -n 1 "$T/err")" || not_ok "message: $(cat "$T/err")"
[ "$(grep -c 'below the logical' "$T/err")" = 1 ] && ok "said once" || not_ok "said $(grep -c 'below the logical' "$T/err") times"
m="$T/set/manifest.json"
[ "$(jq -r '[.cells[].status] | join(",")' "$m")" = "ok,failed" ] && ok "cell 1 kept, cell 2 failed, cell 3 not run" \
	|| not_ok "cells: $(jq -c '[.cells[].status]' "$m")"
[ "$(jq -r .status "$m")" = failed ] && ok "set failed" || not_ok "status $(jq -r .status "$m")"
tap_end
