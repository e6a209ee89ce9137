#!/bin/sh
# An unpack stopped by SIGTERM while it writes leaves the whole set or
# nothing, never its hidden .iomatrix-tmp.unpack.* directory: the test hook
# pauses it after its second file is in the temp directory, the test sees
# that directory, sends SIGTERM and lets it go on; the signal waits until
# the set is in place.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-sig
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread, randwrite], bs: [4k, 8k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/src/SIGSET"
expect_exit 0 "$IOMATRIX" pack "$T/src/SIGSET" -o "$T/p.tar.gz"
mkfifo "$T/hook"
IOMATRIX_TEST_HOOK="unpack_file:2,fifo=$T/hook" \
	"$IOMATRIX" unpack "$T/p.tar.gz" -o "$T/dest" >"$T/out" 2>"$T/err" &
pid=$!
line=$(hook_wait "$T/hook")
[ "$line" = "unpack_file 2" ] && ok "paused after the second file" || not_ok "hook said '$line'"
ls -A "$T/dest" | grep -q '^\.iomatrix-tmp\.unpack\.' && ok "the hidden directory exists while it writes" \
	|| not_ok "dest holds: $(ls -A "$T/dest")"
[ -e "$T/dest/SIGSET" ] && not_ok "the set is visible before it is verified" || ok "the set is not visible yet"
kill -TERM $pid
hook_go "$T/hook"
wait $pid; rc=$?
[ $rc = 143 ] && ok "ended by SIGTERM (after the set was in place)" || not_ok "exit $rc: $(cat "$T/err")"
ls -A "$T/dest" | grep -q '^\.iomatrix-tmp' && not_ok "a hidden directory was left" || ok "no hidden directory left"
expect_exit 0 "$IOMATRIX" verify "$T/dest/SIGSET"
grep -q intact "$T/out" && ok "the set is whole and intact" || not_ok "$(cat "$T/out")"
tap_end
