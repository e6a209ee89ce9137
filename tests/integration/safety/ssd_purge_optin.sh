#!/bin/sh
# purge: discard erases a block device, so it needs both opt-ins: without
# 'destructive: true' validate and run refuse it (exit 2, suite position),
# without --yes-destroy-data run refuses it (exit 2, suite position); in
# both cases no set is made and not a byte of the device changes.  With
# both, the whole device is discarded and recorded.  Root (loop device).
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
need_cmd jq
blk_loop 16
head -c 1048576 /dev/urandom >"$T/pattern"
dd if="$T/pattern" of="$BLK_LOOP" bs=1M count=1 oflag=direct status=none || fail "cannot write $BLK_LOOP"
before=$(head -c 1048576 "$BLK_LOOP" | sha256sum)
mk() { # destructive
	cat >"$T/s.yaml" <<Y
suite: t-purge
defaults: {engine: libaio, direct: true, size: 100%, io_size: 1m}
devices:
  - name: d
    path: $BLK_LOOP
    destructive: $1
    purge: discard
matrix:
  pattern: [read]
Y
}
untouched() {
	[ "$(head -c 1048576 "$BLK_LOOP" | sha256sum)" = "$before" ] && [ ! -e "$T/set" ]
}

mk false
expect_exit 2 "$IOMATRIX" validate "$T/s.yaml"
grep -q "s.yaml:7:12: 'purge: discard' erases all of device 'd': it needs 'destructive: true'" "$T/err" &&
	ok "validate: needs destructive: true" || not_ok "validate: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set"
untouched && ok "run without destructive: exit 2, nothing written" || not_ok "device or set touched"

mk true
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set"
grep -q "s.yaml:7:12: 'purge: discard' of device 'd' erases all of '$BLK_LOOP': add --yes-destroy-data" "$T/err" &&
	ok "run: needs --yes-destroy-data, with the position" || not_ok "message: $(cat "$T/err")"
untouched && ok "run without --yes-destroy-data: nothing written" || not_ok "device or set touched"

expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --yes-destroy-data --out "$T/set" --quiet
[ "$(jq .purge.bytes "$T/set/precondition/d.json")" = $((16 * 1048576)) ] && ok "whole device discarded" ||
	not_ok "purge record: $(jq -c .purge "$T/set/precondition/d.json")"
head -c 1048576 /dev/zero >"$T/zero"
head -c 1048576 "$BLK_LOOP" | cmp -s - "$T/zero" && ok "data gone (reads zeros)" || not_ok "data still there"
tap_end
