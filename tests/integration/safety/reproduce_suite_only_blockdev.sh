#!/bin/sh
# A received set supplies the workload and nothing else, the destructive
# case: a received set's suite adds a
# block device 'x' marked destructive: true that its manifest does not
# list; the user maps only the manifest's 'd' (a directory of theirs) and
# passes --yes-destroy-data.  Before, that other block device was
# overwritten; now reproduce exits 2 naming x and the device keeps its
# bytes (--yes-destroy-data covers only the command line's block devices).
# Root; a loop device over a file in $T stands for the victim.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
need_cmd jq
need_cmd sha256sum
blk_loop 16
mkdir -p "$T/a" "$T/mine"
cat >"$T/s.yaml" <<EOS
suite: repro-blk
defaults: {engine: psync, size: 1m, requests: 64}
devices:
  - {name: d, path: $T/a}
matrix: {pattern: [write], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet
cat >"$T/orig/suite.yaml" <<EOS
suite: repro-blk
defaults: {engine: psync, size: 1m, requests: 64}
devices:
  - {name: d, path: $T/a}
  - {name: x, path: $BLK_LOOP, destructive: true}
matrix: {pattern: [write], bs: [4k]}
EOS
sum=$(sha256sum "$T/orig/suite.yaml" | cut -d' ' -f1)
jq --arg s "$sum" '.suite.sha256 = $s' "$T/orig/manifest.json" >"$T/m" && mv "$T/m" "$T/orig/manifest.json"
printf 'iomatrix-marker' | dd of="$BLK_LOOP" bs=512 seek=0 conv=notrunc,fsync 2>/dev/null
expect_exit 2 "$IOMATRIX" reproduce "$T/orig" --device d="$T/mine" --out "$T/new" --quiet --yes-destroy-data
grep -q "names device 'x', which its manifest does not list" "$T/err" && [ ! -e "$T/new" ] &&
	ok "a block device only the suite names: exit 2, named, no set" || not_ok "$(cat "$T/err")"
[ "$(dd if="$BLK_LOOP" bs=15 count=1 2>/dev/null)" = iomatrix-marker ] &&
	ok "that block device is untouched" || not_ok "the block device was written"
tap_end
