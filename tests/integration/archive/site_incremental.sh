#!/bin/sh
# iomatrix site is incremental: after one new set only the pages it touches
# are rewritten (index, its device page and charts, its suite page, its own
# report) and every other file keeps its modification time; a rerun with
# nothing new writes nothing and, with the archive's index, reads no set
# from its files; a removed set's pages go away.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
GEN="$ROOT/tests/report/gen_archive.py"
python3 "$GEN" "$T/a" --sets 6 --cells 2 --hosts web1,web2 --seed 4 --sums || fail "generator failed"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site"
grep -q "(12 read afresh)" "$T/out" && ok "no index: every set read from its files" ||
	not_ok "first build: $(tail -n 1 "$T/out")"
# the archive's index holds the records the site used to cache itself
expect_exit 0 "$IOMATRIX" index "$T/a"

stamps() { (cd "$T/site" && find . -type f ! -path './.cache/*' ! -name '.iomatrix-site.json' \
	! -name gnuplot.log -printf '%T@ %p\n' | sort -k2) >"$1"; }
stamps "$T/before"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site"
grep -q "(0 read afresh).* 0 of " "$T/out" && ok "nothing new: nothing read, nothing written" ||
	not_ok "rerun: $(tail -n 1 "$T/out")"
stamps "$T/again"
cmp -s "$T/before" "$T/again" && ok "rerun leaves every file as it was" || not_ok "rerun touched files"

# one more set of web1
python3 "$GEN" "$T/a" --sets 1 --first 7 --cells 2 --hosts web1 --seed 5 --sums || fail "generator failed"
new=$(ls "$T/a" | grep web1 | tail -n 1)
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site"
grep -q "(1 read afresh)" "$T/out" && ok "only the new set is read (the index has not seen it)" ||
	not_ok "$(tail -n 1 "$T/out")"
stamps "$T/after"
changed=$(join -1 2 -2 2 "$T/before" "$T/after" | awk '$2 != $3 { print $1 }' | sort)
added=$(join -1 2 -2 2 -v 2 "$T/before" "$T/after" | awk '{ print $1 }' | sort)
web1=$(cd "$T/site" && ls devices/web1-ssd-*.html)
web2=$(cd "$T/site" && ls devices/web2-ssd-*.html)
suite=$(cd "$T/site" && ls suites/*.html)
echo "$changed" | grep -qx "./index.html" && ok "index rewritten" || not_ok "index not rewritten"
echo "$changed" | grep -qx "./$web1" && ok "web1's page rewritten" || not_ok "web1 page not rewritten"
echo "$changed" | grep -qx "./$suite" && ok "the suite page rewritten" || not_ok "suite page not rewritten"
echo "$added" | grep -qx "./sets/$new/report.html" && ok "the new set's report added" || not_ok "no report for $new"
if command -v gnuplot >/dev/null 2>&1; then
	echo "$changed" | grep -q "^./${web1%.html}/w1.svg$" && ok "web1's charts redrawn" || not_ok "web1 charts"
fi
other=$(echo "$changed" | grep -v -x -e "./index.html" -e "./$web1" -e "./$suite" | grep -v "^./${web1%.html}/")
[ -z "$other" ] && ok "nothing else rewritten (web2's page, its charts, the old reports)" ||
	not_ok "also rewritten: $(echo "$other" | tr '\n' ' ')"
echo "$changed" | grep -q "$web2" && not_ok "web2 rewritten" || ok "web2's page keeps its time"

# a set removed from the archive: its pages go, the rest follows
rm -rf "$T/a/$new"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site"
[ ! -e "$T/site/sets/$new" ] && ! grep -q "$new" "$T/site/index.html" && ok "a removed set's pages are gone" ||
	not_ok "removed set still there"
python3 "$ROOT/tests/report/check_site.py" "$T/site" >"$T/links" 2>&1 && ok "links still resolve" ||
	{ cat "$T/links"; not_ok "link check after removal"; }
tap_end
