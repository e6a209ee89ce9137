#!/bin/sh
# An IO error inside a cell (here ENOSPC on a tiny ext4 filesystem) marks
# that cell failed with the error text, the other cells run and are intact,
# the set is 'failed' and the exit code is 1; --resume reruns only it.
. "$(dirname "$0")/../../lib.sh"
need_root
need_cmd jq
. "$(dirname "$0")/../../lib_blk.sh"
blk_ext4 8
cat >"$T/s.yaml" <<'Y'
suite: t-enospc
defaults: {engine: psync, direct: false}
devices:
  - {name: tiny, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, size: 1MiB, requests: 50}
  - {pattern: randwrite, bs: 4k, size: 64MiB, requests: 50}
  - {pattern: randwrite, bs: 4k, size: 1MiB, requests: 50}
Y
expect_exit 1 "$IOMATRIX" run "$T/s.yaml" --device tiny="$T/mnt" --out "$T/set" --quiet
m="$T/set/manifest.json"
[ "$(jq -r .status "$m")" = failed ] && ok "set status failed" || not_ok "status $(jq -r .status "$m")"
[ "$(jq -r '[.cells[].status] | join(",")' "$m")" = "ok,failed,ok" ] && ok "cell 2 failed, 1 and 3 ok" \
	|| not_ok "cells: $(jq -c '[.cells[].status]' "$m")"
err=$(jq -r .error "$T/set/cells/0002.json")
echo "$err" | grep -qi "space" && ok "error text: $err" || not_ok "error text: $err"
grep -q "cell 2/3 .*failed:.*space" "$T/err" && ok "--quiet still prints the failed cell's error" \
	|| not_ok "stderr under --quiet: $(cat "$T/err")"
[ "$(jq '.repetitions[0].write.ios' "$T/set/cells/0003.json")" = 50 ] && ok "cell 3 measured" || not_ok "cell 3"
[ -z "$(ls "$T/mnt" | grep iomatrix)" ] && ok "scratch files removed" || not_ok "left: $(ls "$T/mnt")"
# --resume reruns the failed cell (here on a roomier directory) and no other
mkdir -p "$T/roomy"
cp "$T/set/cells/0001.json" "$T/c1.json"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --resume "$T/set" --device tiny="$T/roomy" --quiet
[ "$(jq -r '.status + ":" + ([.cells[].status] | join(","))' "$m")" = "complete:ok,ok,ok" ] \
	&& ok "resume reran the failed cell: complete" || not_ok "after resume: $(jq -c '[.status, [.cells[].status]]' "$m")"
cmp -s "$T/c1.json" "$T/set/cells/0001.json" && ok "finished cells not rerun" || not_ok "cell 1 rewritten"
tap_end
