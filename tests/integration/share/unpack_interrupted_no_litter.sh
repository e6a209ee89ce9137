#!/bin/sh
# Ctrl-C always works on unpack and leaves nothing: a signal while it
# writes (the test hook pauses it after its second file is in the hidden
# temp directory; the test sends SIGTERM and lets it go on) or while it
# checks the headers (the hook sends SIGINT at the second member) ends it
# with exit 130, and neither the temp tree, the set nor the -o directory
# it made is left.  (Before, the signal was held until the set
# was in place: exit 143 with the set.)
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
[ $rc = 130 ] && grep -q "interrupted; nothing was unpacked" "$T/err" &&
	ok "SIGTERM while writing: exit 130, said so" || not_ok "exit $rc: $(cat "$T/err")"
[ ! -e "$T/dest" ] && ok "nothing left: no temp tree, no set, not the -o directory it made" ||
	not_ok "left: $(ls -A "$T/dest")"

mkdir "$T/dest2"
expect_exit 130 env IOMATRIX_TEST_HOOK=unpack_check:2:int "$IOMATRIX" unpack "$T/p.tar.gz" -o "$T/dest2"
[ -z "$(ls -A "$T/dest2")" ] && ok "SIGINT while checking the headers: exit 130, nothing left" ||
	not_ok "left: $(ls -A "$T/dest2")"

expect_exit 0 "$IOMATRIX" unpack "$T/p.tar.gz" -o "$T/dest2"
expect_exit 0 "$IOMATRIX" verify "$T/dest2/SIGSET"
grep -q intact "$T/out" && ok "without a signal the same pack unpacks intact" || not_ok "$(cat "$T/out")"
tap_end
