#!/bin/sh
# reproduce goes through run's safety rules: a set that wrote to a block
# device (destructive: true in its suite, --yes-destroy-data on its run) is
# not re-run onto a block device without --yes-destroy-data on the
# reproduce command line (exit 2, no set written, the device untouched); with
# it, the reproduction runs.  Root; a loop device over a file in $T.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
need_cmd jq
blk_loop 16
cat >"$T/s.yaml" <<EOS
suite: repro-destroy
defaults: {engine: psync, direct: true, size: 4m, requests: 64, repeat: 2}
devices:
  - {name: disk, path: $BLK_LOOP, destructive: true}
matrix: {pattern: [write], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet --yes-destroy-data
printf 'iomatrix-marker' | dd of="$BLK_LOOP" bs=512 seek=0 conv=notrunc,fsync 2>/dev/null
expect_exit 2 "$IOMATRIX" reproduce "$T/orig" --device disk="$BLK_LOOP" --out "$T/no" --quiet
grep -q -- "--yes-destroy-data" "$T/err" && [ ! -e "$T/no" ] &&
	[ "$(dd if="$BLK_LOOP" bs=15 count=1 2>/dev/null)" = iomatrix-marker ] &&
	ok "without --yes-destroy-data: exit 2, no set, the device untouched" ||
	not_ok "refusal: $(cat "$T/err"); set: $(ls "$T/no" 2>&1)"
expect_exit 0 "$IOMATRIX" reproduce "$T/orig" --device disk="$BLK_LOOP" --out "$T/yes" --quiet \
	--yes-destroy-data
[ "$(jq -r .status "$T/yes/manifest.json")" = complete ] && ok "with --yes-destroy-data: reproduced run" ||
	not_ok "with the flag: $(cat "$T/err")"
tap_end
