#!/bin/sh
# Kernel pseudo filesystems (procfs, sysfs, ...) are not storage: a cell on
# one is refused with exit 2 before any file is opened for writing, and so
# are character devices, except with engine null.  /proc/self/comm is the
# probe: were it written, only this test's own process name would change.
. "$(dirname "$0")/../../lib.sh"
suite() { # $1 path, $2 engine
	cat >"$T/s.yaml" <<Y
suite: t-pseudo
defaults: {engine: $2, direct: false, size: 64k}
devices:
  - {name: d, path: $1}
include:
  - {pattern: randread, bs: 4k, requests: 4}
Y
}
for p in /proc/self/comm /proc/self /sys/kernel; do
	[ -e "$p" ] || continue
	suite "$p" psync
	expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/set$$" --quiet
	grep -q "pseudo filesystem" "$T/err" && ok "'$p' refused" || not_ok "'$p': $(cat "$T/err")"
	[ ! -e "$T/set$$" ] && ok "no set made for '$p'" || not_ok "set made for '$p'"
	rm -rf "$T/set$$"
done
suite /dev/null psync
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/setc" --quiet
grep -q "character device" "$T/err" && ok "character device refused for psync" ||
	not_ok "/dev/null with psync: $(cat "$T/err")"
suite /dev/null null
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/setn" --quiet
ok "character device accepted with engine null"
tap_end
