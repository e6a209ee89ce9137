#!/bin/sh
# The index holds a set in brief as typed columns (tables briefs and
# brief_devices), and list builds its JSON from them with the writer the
# walk uses (render.h set_brief_json):
#   - hostile strings in every field of a brief (escape, quote, backslash,
#     newline, tab, </script>, a comma in a device name): `list` and
#     `list --format json` give the same bytes with and without the index;
#   - list really reads those columns: a value changed in the index is what
#     it prints; a row that fails its checks (a verify state that is none,
#     more failed cells than done, a NUL) is not used: the set's files are;
#   - an index of schema version 2 is never read (history and list give
#     the files' bytes) and `index` rebuilds it as version 3.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
export SOURCE_DATE_EPOCH=1800000000
A=$T/a
python3 "$ROOT/tests/report/gen_archive.py" "$A" --sets 3 --cells 2 --hosts web1 \
	--names-json '["x, y", "z"]' --devices "ssd:ssd,hdd:hdd" --seed 4 --sums >/dev/null ||
	fail "generator"
evil=$(ls -d "$A"/*/ | head -n 1)
python3 - "$ROOT/tests/report" "$evil" <<'PY' || fail "hostile brief"
import json, sys
sys.path.insert(0, sys.argv[1])
from gen_archive import write_sums
d = sys.argv[2]
m = json.load(open(d + "/manifest.json"))
bad = "\x1b[2J \"q\" back\\slash\nnew\tline </script> é"
m["suite"]["name"] = "suite " + bad
m["suite"]["sha256"] = "sha " + bad
m["host"]["hostname"] = "host " + bad
m["source"]["kind"] = "tool " + bad
m["status"] = "complete " + bad

m["command"] = ["run", "a b.yaml", bad]
m["devices"][0]["name"] = "dev " + bad
json.dump(m, open(d + "/manifest.json", "w"))
write_sums(d)
PY

lists() { # DIR: list's and history's outputs into DIR, what they said into DIR.err
	mkdir -p "$1" "$1.err"
	"$IOMATRIX" list "$A" >"$1/text" 2>"$1.err/text"
	"$IOMATRIX" list "$A" --format json >"$1/json" 2>"$1.err/json"
	"$IOMATRIX" history "$A" --format json >"$1/history" 2>"$1.err/history"
}
same() { diff -r "$2" "$3" >"$T/diff" 2>&1 && ok "$1" || not_ok "$1: $(head -n 8 "$T/diff")"; }
lists "$T/files"
grep -q 'back\\\\slash\\nnew\\tline' "$T/files/json" && ok "the hostile fields are in list's JSON, escaped" ||
	not_ok "no hostile field: $(head -c 600 "$T/files/json")"
expect_exit 0 "$IOMATRIX" index "$A"
lists "$T/index"
same "hostile briefs: list, list --format json and history the same bytes with the index" \
	"$T/files" "$T/index"
expect_exit 0 "$IOMATRIX" query "SELECT count(*) FROM briefs WHERE command LIKE '%</script>%'" \
	--archive "$A" --format csv
[ "$(tail -n 1 "$T/out")" = 1 ] && ok "the brief's command stored as a typed column" || not_ok "$(cat "$T/out")"

# list reads the columns: a value changed in the index is what it prints
python3 - "$A/index.sqlite" <<'PY' || fail "change"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE briefs SET command = 'iomatrix run from-the-index.yaml'")
db.execute("UPDATE brief_devices SET name = 'dev-from-the-index' WHERE i = 1")
db.commit()
PY
expect_exit 0 "$IOMATRIX" list "$A" --format json
[ "$(grep -c 'from-the-index.yaml' "$T/out")" = 3 ] && [ "$(grep -c 'dev-from-the-index' "$T/out")" = 3 ] &&
	ok "list --format json is built from the index's columns" || not_ok "not from the index: $(head -c 400 "$T/out")"

# rows that fail their checks are not used: the files are
rm -f "$A"/index.sqlite*
expect_exit 0 "$IOMATRIX" index "$A"
python3 - "$A/index.sqlite" <<'PY' || fail "tamper"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ids = [r[0] for r in db.execute("SELECT set_id FROM sets ORDER BY path")]
db.execute("UPDATE briefs SET verify = 'fine, trust me' WHERE set_id = ?", (ids[0],))
db.execute("UPDATE briefs SET cells_failed = 7, cells_done = 2 WHERE set_id = ?", (ids[1],))
db.execute("UPDATE brief_devices SET name = CAST('a' || char(0) || 'b' AS BLOB) WHERE set_id = ?", (ids[2],))
db.commit()
PY
lists "$T/tampered"
same "briefs that fail their checks: list gives the files' bytes" "$T/files" "$T/tampered"

# an index of schema version 2 (its list_entries held the brief as JSON)
rm -f "$A"/index.sqlite*
expect_exit 0 "$IOMATRIX" index "$A"
python3 - "$A/index.sqlite" <<'PY' || fail "v2"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("DROP TABLE brief_devices")
db.execute("DROP TABLE briefs")
db.execute("ALTER TABLE list_entries ADD COLUMN brief TEXT")
db.execute("UPDATE list_entries SET brief = '{\"path\": \"/v2/says/so\"}', suite = 'v2-suite'")
db.execute("PRAGMA user_version = 2")
db.commit()
PY
lists "$T/v2"
same "a version 2 index: the files' bytes" "$T/files" "$T/v2"
expect_exit 0 "$IOMATRIX" index "$A"
grep -q "made anew" "$T/out" && ok "index rebuilds a version 2 file" || not_ok "$(cat "$T/out")"
expect_exit 0 "$IOMATRIX" query "pragma user_version" --archive "$A" --format csv
[ "$(tail -n 1 "$T/out")" = 3 ] && ok "as version 3" || not_ok "$(cat "$T/out")"
tap_end
