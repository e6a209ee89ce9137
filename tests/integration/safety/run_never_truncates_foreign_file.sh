#!/bin/sh
# A file iomatrix did not make is never truncated, extended or rewritten:
# a read cell on a too-short file is an error naming the size needed; a
# long enough one is read in place, unchanged; writes need the double
# opt-in (destructive: true + --yes-destroy-data); a stranger's file that
# carries a scratch name in a device directory is left alone too.
. "$(dirname "$0")/../../lib.sh"
suite() { # $1 pattern, $2 extra device keys
	cat >"$T/s.yaml" <<Y
suite: t-foreign
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: d, path: /nonexistent ${2:-}}
include:
  - {pattern: $1, bs: 4k, requests: 16}
Y
}
printf 'nineteen byte file\n' >"$T/short"
sum0=$(sha256sum <"$T/short")
suite randread
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/short" --out "$T/s1" --quiet
[ "$(sha256sum <"$T/short")" = "$sum0" ] && [ "$(stat -c %s "$T/short")" = 19 ] &&
	ok "a read cell leaves a 19-byte file alone" || not_ok "19-byte file changed: $(stat -c %s "$T/short") bytes"
grep -q "19 bytes" "$T/err" && grep -q "needs 1048576 bytes" "$T/err" &&
	ok "the error names the size needed" || not_ok "message: $(cat "$T/err")"

head -c 2097152 /dev/urandom >"$T/big"
sum1=$(sha256sum <"$T/big")
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/big" --out "$T/s2" --quiet
[ "$(sha256sum <"$T/big")" = "$sum1" ] && [ -f "$T/big" ] &&
	ok "a long enough file is read in place and kept unchanged" || not_ok "big file changed or removed"

suite randwrite
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/big" --out "$T/s3" --quiet
grep -q "destructive: true" "$T/err" && [ "$(sha256sum <"$T/big")" = "$sum1" ] &&
	ok "writes without opt-in are refused" || not_ok "write without opt-in: $(cat "$T/err")"
suite randwrite ", destructive: true"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/big" --out "$T/s4" --quiet
grep -q -- "--yes-destroy-data" "$T/err" && [ "$(sha256sum <"$T/big")" = "$sum1" ] &&
	ok "destructive: true alone is not enough" || not_ok "half opt-in: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/big" --out "$T/s5" --quiet --yes-destroy-data
[ "$(stat -c %s "$T/big")" = 2097152 ] && [ "$(sha256sum <"$T/big")" != "$sum1" ] &&
	ok "with both, the file is written in place, same size" || not_ok "double opt-in run"

mkdir "$T/dir"
printf 'my notes\n' >"$T/dir/iomatrix.d.0"
suite randread
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/dir" --out "$T/s6" --quiet
[ "$(cat "$T/dir/iomatrix.d.0")" = "my notes" ] && grep -q "not made by iomatrix" "$T/err" &&
	ok "a stranger's file with a scratch name is left alone" || not_ok "scratch-named file: $(cat "$T/err")"
tap_end
