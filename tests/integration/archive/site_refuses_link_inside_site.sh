#!/bin/sh
# A link planted inside the site in place of a folder the site writes or
# cleans (SITE/sets/<set>, SITE/devices/<slug>, SITE/devices, SITE/.cache)
# is refused with exit 2 before anything is written: the folder it points
# to keeps every byte (no report.html written there, no file deleted
# there), also when the set is gone from the archive (the rebuild would
# clean its folder), and the site itself is left exactly as it was.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 3 --cells 2 --hosts web1 --seed 7 >/dev/null ||
	fail "generator failed"
charts=none; command -v gnuplot >/dev/null 2>&1 && charts=svg
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site" --charts $charts
set1=$(ls "$T/a" | head -n 1)
dev=$(cd "$T/site/devices" && ls -d */ 2>/dev/null | head -n 1); dev=${dev%/}
[ -n "$dev" ] || { mkdir -p "$T/site/devices/none"; dev=none; }
snap() { (cd "$1" && find . -printf '%p %y %s %T@\n' | sort; find . -type f -exec sha256sum {} + | sort) >"$2"; }
outside() {
	rm -rf "$T/outside"; mkdir -p "$T/outside"
	for f in report.html report.csv w1.dat notes.txt .iomatrix-files; do
		printf 'precious %s\n' "$f" >"$T/outside/$f"
	done
}
n=0
check() { # name charts: exit 2, says link, outside and site untouched
	snap "$T/outside" "$T/out-before"
	snap "$T/site" "$T/site-before"
	n=$((n + 1))   # a new title: every page would be rewritten
	"$IOMATRIX" site "$T/a" -o "$T/site" --charts "$2" --title "check $n" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && grep -q "symbolic link" "$T/err" && ok "$1: exit 2, says: $(head -n 1 "$T/err")" ||
		not_ok "$1: exit $rc: $(cat "$T/err")"
	snap "$T/outside" "$T/out-after"
	cmp -s "$T/out-before" "$T/out-after" && ok "$1: the folder outside keeps every byte" ||
		not_ok "$1: outside changed: $(diff "$T/out-before" "$T/out-after" | head -n 5 | tr '\n' ' ')"
	snap "$T/site" "$T/site-after"
	cmp -s "$T/site-before" "$T/site-after" && ok "$1: nothing in the site touched" ||
		not_ok "$1: site changed: $(diff "$T/site-before" "$T/site-after" | head -n 5 | tr '\n' ' ')"
}
for c in none svg; do
	[ $c = svg ] && [ $charts = none ] && continue
	outside; mv "$T/site/sets/$set1" "$T/keep"; ln -s "$T/outside" "$T/site/sets/$set1"
	check "sets/<set> is a link (charts $c)" $c
	rm "$T/site/sets/$set1"; mv "$T/keep" "$T/site/sets/$set1"

	outside; mv "$T/site/devices/$dev" "$T/keep"; ln -s "$T/outside" "$T/site/devices/$dev"
	check "devices/<slug> is a link (charts $c)" $c
	rm "$T/site/devices/$dev"; mv "$T/keep" "$T/site/devices/$dev"
done
outside; mv "$T/site/devices" "$T/keep"; ln -s "$T/outside" "$T/site/devices"
check "devices/ is a link" none
rm "$T/site/devices"; mv "$T/keep" "$T/site/devices"
outside; mv "$T/site/.cache" "$T/keep"; ln -s "$T/outside" "$T/site/.cache"
check ".cache/ is a link" none
rm "$T/site/.cache"; mv "$T/keep" "$T/site/.cache"
# the set leaves the archive: the rebuild would clean its folder
outside; mv "$T/site/sets/$set1" "$T/keep"; ln -s "$T/outside" "$T/site/sets/$set1"
mv "$T/a/$set1" "$T/gone"
check "a link in place of a removed set's folder" none
tap_end
