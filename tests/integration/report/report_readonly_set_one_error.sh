#!/bin/sh
# `report` (and `compare`) on a set that cannot be written (its report/ or
# compare/ already there, from an earlier run) stops with one clear error
# before anything is drawn or written: exit 2 (bad input: write elsewhere with -o DIR), one line on
# stderr naming the directory and the fix, nothing on stdout that looks
# like a written report, every file as it was.  Root ignores mode bits, so
# as root the set is a read-only bind mount (or chattr +i); skip when
# neither is possible.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 2 >/dev/null || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none
expect_exit 0 "$IOMATRIX" compare "$T/set" "$T/set"
ro="$T/set"
if [ "$(id -u)" = 0 ]; then
	mkdir "$T/ro"
	if mount --bind "$T/set" "$T/ro" 2>/dev/null && mount -o remount,bind,ro "$T/ro" 2>/dev/null; then
		ro="$T/ro"
		trap 'umount "$T/ro" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
	elif chattr +i "$T/set/report" 2>/dev/null && chattr +i "$T/set/compare" 2>/dev/null; then
		umount "$T/ro" 2>/dev/null
		trap 'chattr -i "$T/set/report" "$T/set/compare" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
	else
		umount "$T/ro" 2>/dev/null
		skip "neither a read-only bind mount nor chattr +i is possible here"
	fi
else
	chmod a-w "$T/set/report" "$T/set/compare"
	trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT INT TERM
fi
(cd "$T/set" && find report compare -type f -exec sha256sum {} + | sort) >"$T/before"
for charts in none svg; do
	expect_exit 2 "$IOMATRIX" report "$ro" --charts "$charts"
	n=$(grep -c . "$T/err")
	[ "$n" = 1 ] && ok "charts $charts: one error line: $(cat "$T/err")" ||
		not_ok "charts $charts: $n stderr lines: $(cat "$T/err")"
	grep -q -- "-o DIR" "$T/err" && grep -q "$ro/report" "$T/err" &&
		ok "charts $charts: names the directory and the fix" || not_ok "charts $charts: message: $(cat "$T/err")"
	[ ! -s "$T/out" ] && ok "charts $charts: nothing on stdout claims a report" ||
		not_ok "charts $charts: stdout: $(cat "$T/out")"
done
expect_exit 2 "$IOMATRIX" compare "$ro" "$ro"
n=$(grep -c . "$T/err")
[ "$n" = 1 ] && grep -q "$ro/compare" "$T/err" && ok "compare: one error line: $(cat "$T/err")" ||
	not_ok "compare: $n stderr lines: $(cat "$T/err")"
grep -q "^written:" "$T/out" && not_ok "compare: stdout claims it wrote" || ok "compare: nothing claims a write"
(cd "$T/set" && find report compare -type f -exec sha256sum {} + | sort) >"$T/after"
cmp -s "$T/before" "$T/after" && ok "the set's report/ and compare/ are untouched" || not_ok "report/ or compare/ changed"
tap_end
