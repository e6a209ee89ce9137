#!/bin/sh
# The site's manifest (.iomatrix-site.json) is believed whole or not at
# all.  A second build over the same archive writes no page (incremental),
# and the manifest names each set by its folder, never by a path.  A
# well-formed manifest that records suites/stale.html with its hash has
# it removed (the control: the test sees a believed manifest).  With that
# same entry and one thing wrong (a file outside the site by ../ or by an
# absolute path, a page's hash not hex, a newer version, no version, a
# set named by a path, a name listed twice) the manifest is not used:
# every page is written again, stale.html stays, stderr says why, and
# nothing outside the site is written or deleted.  (On the code before,
# which skipped odd entries and believed the rest, stale.html went with
# each of them: 9 of 13 checks failed before the version cases.)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 3 --cells 2 --hosts web1 --seed 9 >/dev/null ||
	fail "generator failed"
S="$T/site"
M="$S/.iomatrix-site.json"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none
grep -q "; 6 of 6 pages written" "$T/out" && ok "first build writes every page" ||
	not_ok "first build: $(tail -n 1 "$T/out")"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none
grep -q "; 0 of 6 pages written" "$T/out" && ok "second build skips every page" ||
	not_ok "second build: $(tail -n 1 "$T/out")"
python3 - "$M" "$T/a" <<'PY' && ok "version 1, sets named by their folders" || not_ok "manifest: $(head -c 300 "$M")"
import json, os, sys
m = json.load(open(sys.argv[1]))
assert m["version"] == 1, m.get("version")
assert sorted(m["sets"]) == sorted(os.listdir(sys.argv[2])), list(m["sets"])
PY
cp "$M" "$T/good.json"
mkdir -p "$T/outside"
printf 'mine\n' >"$T/outside/victim.txt"
snap() { (cd "$T/outside" && find . -printf '%p %s %T@\n' | sort) >"$1"; }
snap "$T/outside.before"

# tamper MODE: the good manifest with suites/stale.html recorded by its
# hash, and one thing wrong (MODE ok: nothing)
tamper() {
	printf 'stale\n' >"$S/suites/stale.html"
	python3 - "$T/good.json" "$M" "$1" "$T/outside/victim.txt" <<'PY' || fail "python3"
import hashlib, json, sys
src, dst, mode, victim = sys.argv[1:]
m = json.load(open(src))
h = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()
m["files"]["suites/stale.html"] = hashlib.sha256(b"stale\n").hexdigest()
if mode == "dotdot":
    m["files"]["../outside/victim.txt"] = h(victim)
elif mode == "absolute":
    m["files"][victim] = h(victim)
elif mode == "badhash":
    m["pages"]["index.html"] = "not a sha256"
elif mode == "newer":
    m["version"] = 2
elif mode == "noversion":
    del m["version"]
elif mode == "setpath":
    m["sets"] = {"/" + k: v for k, v in m["sets"].items()}
text = json.dumps(m, indent=1)
if mode == "twice":
    k = '"suites/stale.html": '
    text = text.replace(k, k + '"%s", %s' % ("0" * 64, k), 1)
open(dst, "w").write(text)
PY
}

tamper ok
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none
[ ! -e "$S/suites/stale.html" ] && ok "a believed manifest: its recorded stale file is removed" ||
	not_ok "control: stale.html left by a good manifest"
grep -q "; 0 of 6 pages written" "$T/out" && [ ! -s "$T/err" ] && ok "and no page is written again" ||
	not_ok "control: $(tail -n 1 "$T/out") $(cat "$T/err")"

for mode in dotdot absolute badhash newer noversion setpath twice; do
	case $mode in
	dotdot | absolute) why="not a name inside the site" ;;
	badhash) why="has no sha256" ;;
	newer) why="newer version 2" ;;
	noversion) why="no version" ;;
	setpath) why="sets: '/" ;;
	twice) why="names one entry twice" ;;
	esac
	tamper $mode
	expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none
	[ "$(cat "$S/suites/stale.html" 2>/dev/null)" = stale ] && grep -q "; 6 of 6 pages written" "$T/out" &&
		ok "$mode: not believed, every page written again, nothing removed" ||
		not_ok "$mode: $(tail -n 1 "$T/out"), stale.html $(cat "$S/suites/stale.html" 2>&1)"
	grep -q "\.iomatrix-site\.json: not used (.*$why" "$T/err" && ok "$mode: stderr says why" ||
		not_ok "$mode: stderr '$(cat "$T/err")'"
done
snap "$T/outside.after"
cmp -s "$T/outside.before" "$T/outside.after" && [ "$(cat "$T/outside/victim.txt")" = mine ] &&
	ok "nothing outside the site written or deleted" || not_ok "outside changed"

# the rebuilt manifest is believed again
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$S" --charts none
grep -q "; 0 of 6 pages written" "$T/out" && [ ! -s "$T/err" ] && ok "the next build believes the new manifest" ||
	not_ok "after: $(tail -n 1 "$T/out") $(cat "$T/err")"
python3 "$ROOT/tests/report/check_site.py" "$S" >"$T/links" 2>&1 && ok "the site's links resolve" ||
	{ cat "$T/links"; not_ok "link check"; }
tap_end
