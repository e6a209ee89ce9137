#!/bin/sh
# An unpack killed with SIGKILL (no handler runs) leaves its hidden
# .iomatrix-tmp.unpack.PID.N directory beside the target; the next unpack
# into the same directory removes it because its process is gone, and keeps
# one whose process still runs (a live pid: another unpack at work) or
# whose lock is held (a pid this namespace cannot see).  list
# and history never show the leftover, and report refuses it as a set.  The
# test hook kills the first unpack after its second file (no clock).
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-kill
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread, randwrite], bs: [4k, 8k]}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/src/KSET"
expect_exit 0 "$IOMATRIX" pack "$T/src/KSET" -o "$T/p.tar.gz"
IOMATRIX_TEST_HOOK=unpack_file:2:kill "$IOMATRIX" unpack "$T/p.tar.gz" -o "$T/dest" \
	>"$T/out" 2>"$T/err"
rc=$?
stale=$(ls -A "$T/dest" | grep '^\.iomatrix-tmp\.unpack\.' | head -n 1)
[ $rc = 137 ] && [ -n "$stale" ] && [ ! -e "$T/dest/KSET" ] &&
	ok "SIGKILL mid-way leaves $stale and no set" || not_ok "rc=$rc dest: $(ls -A "$T/dest")"
# a directory of a live process (this shell's pid) must stay
live=".iomatrix-tmp.unpack.$$.0"
mkdir "$T/dest/$live" && echo x >"$T/dest/$live/f"
# not ours by name: stays whatever its number says
mkdir "$T/dest/.iomatrix-tmp.other.1.0" "$T/dest/.iomatrix-tmp.unpack.x1.0"
# a pid this namespace cannot see, but the directory's lock is held (an
# unpack in another pid namespace): kept
dead=$(sh -c 'echo $$')
locked=".iomatrix-tmp.unpack.$dead.0"
mkdir "$T/dest/$locked"

expect_exit 0 "$IOMATRIX" list "$T/dest"
grep -q "iomatrix-tmp" "$T/out" && not_ok "list shows the leftover: $(cat "$T/out")" ||
	ok "list does not show the leftover"
expect_exit 0 "$IOMATRIX" history "$T/dest" --format csv
grep -q "iomatrix-tmp" "$T/out" "$T/err" && not_ok "history shows the leftover" ||
	ok "history does not show the leftover"
expect_exit 2 "$IOMATRIX" report "$T/dest/$stale" -o "$T/rep"
grep -q "the temporary directory of an iomatrix unpack" "$T/err" && [ ! -e "$T/rep" ] &&
	ok "report refuses the leftover as a set" || not_ok "report: $(cat "$T/err")"

if command -v flock >/dev/null 2>&1; then
	expect_exit 0 flock -n "$T/dest/$locked" "$IOMATRIX" unpack "$T/p.tar.gz" -o "$T/dest"
	[ -d "$T/dest/$locked" ] && ok "a locked directory is kept though its pid is gone" ||
		not_ok "$locked removed while its lock was held"
	rm -rf "$T/dest/KSET"
else
	ok "# skip flock(1) not installed"
fi
rmdir "$T/dest/$locked" 2>/dev/null
expect_exit 0 "$IOMATRIX" unpack "$T/p.tar.gz" -o "$T/dest"
[ ! -e "$T/dest/$stale" ] && ok "the next unpack removed $stale (its pid is gone)" ||
	not_ok "still there: $(ls -A "$T/dest")"
[ -f "$T/dest/$live/f" ] && ok "a live process's directory is kept" || not_ok "$live removed"
[ -d "$T/dest/.iomatrix-tmp.other.1.0" ] && [ -d "$T/dest/.iomatrix-tmp.unpack.x1.0" ] &&
	ok "names that are not an unpack's are kept" || not_ok "removed a foreign name"
expect_exit 0 "$IOMATRIX" verify "$T/dest/KSET"
grep -q intact "$T/out" && ok "the set is whole and intact" || not_ok "$(cat "$T/out")"
tap_end
