#!/bin/sh
# A scratch file's name that appears between iomatrix's look (missing) and
# its O_CREAT|O_EXCL is named for what it is: a regular file made at the
# same moment by another process or host ("appeared while iomatrix was
# creating it"), a symbolic link ("is a symbolic link").  Both were "is a
# symbolic link": EEXIST taken for ELOOP, which sent the hosts of an
# aggregate looking for a link that was never there.  The test hook pauses
# the run at that point (scratch_create) while the test makes the name;
# nothing iomatrix did not make is touched.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<Y
suite: t-meanwhile
defaults: {engine: psync, direct: false, size: 64KiB, requests: 8}
devices:
  - {name: d, path: $T/d/f.dat}
matrix: {pattern: [randread], bs: [4k]}
Y
for kind in file link; do
	rm -rf "$T/d/f.dat" "$T/set" "$T/hook" && mkfifo "$T/hook"
	IOMATRIX_TEST_HOOK=scratch_create:1,fifo=$T/hook "$IOMATRIX" run "$T/s.yaml" --out "$T/set" \
		--quiet >"$T/out" 2>"$T/err" &
	pid=$!
	hook_wait "$T/hook" >/dev/null || fail "$kind: the run did not reach scratch_create"
	if [ $kind = file ]; then echo theirs >"$T/d/f.dat"; else ln -s "$T/victim" "$T/d/f.dat"; fi
	hook_go "$T/hook"
	wait $pid
	case $kind in
	file)
		grep -qF "'$T/d/f.dat' appeared while iomatrix was creating it: another process or host made it at the same moment" "$T/err" &&
			! grep -q "symbolic link" "$T/err" && [ "$(cat "$T/d/f.dat")" = theirs ] &&
			ok "a file made meanwhile: named as such, not a link; left as it was" ||
			not_ok "file: $(cat "$T/err")" ;;
	link)
		grep -qF "'$T/d/f.dat' is a symbolic link; iomatrix never follows links" "$T/err" &&
			[ "$(readlink "$T/d/f.dat")" = "$T/victim" ] && [ ! -e "$T/victim" ] &&
			ok "a link made meanwhile: named as a link, nothing written through it" ||
			not_ok "link: $(cat "$T/err")" ;;
	esac
done
tap_end
