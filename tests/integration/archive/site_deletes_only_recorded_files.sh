#!/bin/sh
# A site rebuild deletes only files it recorded (name and sha256) that
# still have the recorded hash: a user's my-notes.txt in SITE/sets/<set>/
# (or beside the pages) survives rebuilds and the set leaving the archive;
# a report.csv the user edited survives its set's removal while the
# untouched report.html goes; and names a tampered .iomatrix-site.json
# lists (pages or files, with wrong hashes, or climbing out) are never
# deleted.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 4 --cells 2 --hosts web1 --seed 9 >/dev/null ||
	fail "generator failed"
S="$T/site"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none
set1=$(ls "$T/a" | sed -n 1p); set2=$(ls "$T/a" | sed -n 2p)
printf 'mine\n' >"$S/sets/$set1/my-notes.txt"
printf 'mine\n' >"$S/suites/my-notes.txt"
printf 'mine\n' >"$S/my-root.txt"
mkdir -p "$S/../outside"; printf 'mine\n' >"$T/outside/victim.txt"

# a rebuild that rewrites every page (new title)
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none --title "again"
for f in "sets/$set1/my-notes.txt" suites/my-notes.txt my-root.txt; do
	[ "$(cat "$S/$f" 2>/dev/null)" = mine ] && ok "rebuild keeps $f" || not_ok "rebuild deleted $f"
done

# set2 leaves the archive after the user edited its report.csv
printf 'my edit\n' >>"$S/sets/$set2/report.csv"
mv "$T/a/$set2" "$T/gone2"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none --title "again"
grep -q "my edit" "$S/sets/$set2/report.csv" 2>/dev/null && ok "an edited report.csv of a removed set stays" ||
	not_ok "edited report.csv deleted"
[ ! -e "$S/sets/$set2/report.html" ] && ok "its unchanged report.html is removed" ||
	not_ok "stale report.html left"

# set1 leaves the archive: its folder keeps the user's notes
mv "$T/a/$set1" "$T/gone1"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none --title "again"
[ "$(cat "$S/sets/$set1/my-notes.txt" 2>/dev/null)" = mine ] && ok "removed set's folder keeps my-notes.txt" ||
	not_ok "my-notes.txt deleted with the set"
[ ! -e "$S/sets/$set1/report.html" ] && ok "removed set's report.html is gone" || not_ok "report.html left"

# a tampered manifest names the user's files as stale pages and files
python3 - "$S/.iomatrix-site.json" "$T/outside/victim.txt" <<'PY' || fail "python3"
import hashlib, json, sys
p, victim = sys.argv[1], sys.argv[2]
m = json.load(open(p))
for name in ("my-root.txt", "suites/my-notes.txt", "sets/../my-root.txt", victim,
             "../outside/victim.txt", "devices/x.html"):
    m["pages"][name] = "0" * 64
    m.setdefault("files", {})[name] = "0" * 64
m["pages"]["sets/%s/report.html" % "planted"] = "0" * 64
json.dump(m, open(p, "w"))
PY
mkdir -p "$S/sets/planted"; printf 'mine\n' >"$S/sets/planted/notes.txt"
printf '%064d  notes.txt\n' 0 >"$S/sets/planted/.iomatrix-files"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none --title "again"
for f in my-root.txt suites/my-notes.txt sets/planted/notes.txt; do
	[ "$(cat "$S/$f" 2>/dev/null)" = mine ] && ok "tampered manifest: $f kept" || not_ok "tampered manifest: $f deleted"
done
[ "$(cat "$T/outside/victim.txt" 2>/dev/null)" = mine ] && ok "tampered manifest: file outside kept" ||
	not_ok "tampered manifest: file outside deleted"
python3 "$ROOT/tests/report/check_site.py" "$S" >"$T/links" 2>&1 && ok "the site's links still resolve" ||
	{ cat "$T/links"; not_ok "link check"; }
tap_end
