#!/bin/sh
# A received set cannot redirect report or compare output: a planted
# SET/report/charts link, SET/report link or SET/compare link is refused
# with exit 2 and the directory it points at is left exactly as it was
# (nothing deleted, nothing written).  -o DIR/charts is held to the same rule.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$1" --cells 2 >/dev/null || fail "generator failed"; }
victim() { # a directory full of a user's own files of every kind the report writes
	mkdir -p "$1"
	for f in a.png b.svg c.gp d.dat e.log report.md report.json .report.md.tmp; do
		printf 'user file %s\n' "$f" >"$1/$f"
	done
}
snap() { (cd "$1" && ls -lA --time-style=+%s . && cat ./* ./.[!.]* 2>/dev/null | sha256sum); }

gen "$T/set1"; victim "$T/v1"; before=$(snap "$T/v1")
mkdir "$T/set1/report"; ln -s "$T/v1" "$T/set1/report/charts"
expect_exit 2 "$IOMATRIX" report "$T/set1"
[ "$(snap "$T/v1")" = "$before" ] && ok "SET/report/charts link: target untouched" || not_ok "charts target changed"
grep -q "symbolic link" "$T/err" && ok "message names the link" || not_ok "message: $(cat "$T/err")"
[ ! -e "$T/set1/report/report.md" ] && ok "nothing half-written" || not_ok "report.md written anyway"

gen "$T/set2"; victim "$T/v2"; before=$(snap "$T/v2")
ln -s "$T/v2" "$T/set2/report"
expect_exit 2 "$IOMATRIX" report "$T/set2"
[ "$(snap "$T/v2")" = "$before" ] && ok "SET/report link: target untouched" || not_ok "report target changed"

gen "$T/old"; gen "$T/new"; victim "$T/v3"; before=$(snap "$T/v3")
ln -s "$T/v3" "$T/new/compare"
expect_exit 2 "$IOMATRIX" compare "$T/old" "$T/new"
[ "$(snap "$T/v3")" = "$before" ] && ok "SET/compare link: target untouched" || not_ok "compare target changed"

gen "$T/set4"; victim "$T/v4"; before=$(snap "$T/v4")
mkdir "$T/blog"; ln -s "$T/v4" "$T/blog/charts"
expect_exit 2 "$IOMATRIX" report "$T/set4" -o "$T/blog"
[ "$(snap "$T/v4")" = "$before" ] && ok "-o DIR with a charts link: target untouched" || not_ok "-o charts target changed"
tap_end
