#!/bin/sh
# The archive's index is derived and never believed:
#   - an index.sqlite that came with a copied or received archive is not
#     read (query refuses it, history reads the sets) and `index` rebuilds it;
#   - numbers tampered with in our own index (scale -1e999, cells counts of
#     1e300, a negative IOPS, a control character in a name, DEL, NUL or
#     0x1f deep in a text, a row moved to another path) never reach a page: each such row fails the bounds of a
#     set's own numbers and the set is read from its files, so history and
#     site give the bytes they give without an index;
#   - a cell rewritten in place under its own name after `index` is read
#     from its files, not from the row;
#   - a file that is not ours (garbage, an extra trigger or view) is
#     rebuilt by `index`, and a link planted at index.sqlite is replaced,
#     its target left alone.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
export SOURCE_DATE_EPOCH=1800000000
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 3 --cells 2 --hosts web1,web2 --seed 3 --sums \
	>/dev/null || fail "generator"
expect_exit 0 "$IOMATRIX" index "$T/a"
snap() { # DIR OUT: history and a site of DIR
	mkdir -p "$2"
	"$IOMATRIX" history "$1" --format json >"$2/history" 2>"$2/history.err"
	rm -rf "$T/site"
	"$IOMATRIX" site "$1" -o "$T/site" --charts none >/dev/null 2>"$2/site.err"
	mv "$T/site" "$2/site"
}
same() { diff -r "$2" "$3" >"$T/diff" 2>&1 && ok "$1" || not_ok "$1: $(head -n 6 "$T/diff")"; }

# a copied archive (as received): its index is not this archive's
cp -a "$T/a" "$T/b"
expect_exit 2 "$IOMATRIX" query "select count(*) from sets" --archive "$T/b"
grep -q "made for another archive or machine" "$T/err" && ok "query refuses a received index" ||
	not_ok "query: $(cat "$T/err")"
snap "$T/b" "$T/b-received"
mv "$T/b/index.sqlite" "$T/b-index"
snap "$T/b" "$T/b-none"
same "history and site of a received archive: as without an index" "$T/b-none" "$T/b-received"
mv "$T/b-index" "$T/b/index.sqlite"
expect_exit 0 "$IOMATRIX" index "$T/b"
grep -q "(6 read, 0 unchanged, 0 dropped); made anew" "$T/out" && ok "index rebuilds it" || not_ok "$(cat "$T/out")"
expect_exit 0 "$IOMATRIX" query "select count(*) from sets" --archive "$T/b"

# numbers tampered with in our own index
snap "$T/a" "$T/a-good"
python3 - "$T/a/index.sqlite" <<'PY' || fail "tamper"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ids = [r[0] for r in db.execute("SELECT set_id FROM sets ORDER BY path")]
db.execute("UPDATE sets SET scale = -1e999 WHERE set_id = ?", (ids[0],))
db.execute("UPDATE sets SET cells_done = 1e300, cells_total = -1 WHERE set_id = ?", (ids[1],))
db.execute("UPDATE cell_metrics SET mean = -5 WHERE set_id = ? AND metric = 'iops'", (ids[2],))
db.execute("UPDATE devices SET name = 'ssd' || char(27) || '[2J' WHERE set_id = ?", (ids[3],))
db.execute("UPDATE sets SET path = '../outside' WHERE set_id = ?", (ids[4],))
db.execute("UPDATE cell_metrics SET mean = 1e300 WHERE set_id = ? AND metric = 'lat_p99'", (ids[5],))
db.commit()
PY
snap "$T/a" "$T/a-tampered"
same "tampered rows never reach history or the site: the bytes of the files" "$T/a-good" "$T/a-tampered"
grep -rqE -- "-inf|inf |-2147483648|1e\+300|\x1b" "$T/a-tampered" && not_ok "a tampered number reached a page" ||
	ok "no -inf, -2147483648, 1e300 or escape in any page"

# control bytes past a text's first 8 bytes (the check reads 8 at a
# time): DEL in a label, NUL inside a signature, the identity key's
# separator (0x1f) in a label, where no separator stands
rm -f "$T/a/index.sqlite"*
expect_exit 0 "$IOMATRIX" index "$T/a"
python3 - "$T/a/index.sqlite" <<'PY' || fail "tamper 2"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ids = [r[0] for r in db.execute("SELECT set_id FROM sets ORDER BY path")]
db.execute("UPDATE cells SET label = label || char(127) || 'abcdefghij' WHERE set_id = ?", (ids[0],))
db.execute("UPDATE cells SET workload = substr(workload, 1, 11) || char(0) || substr(workload, 12) "
           "WHERE set_id = ?", (ids[1],))
db.execute("UPDATE cells SET label = label || char(31) || '0123456789' WHERE set_id = ?", (ids[2],))
db.commit()
PY
snap "$T/a" "$T/a-tampered2"
same "DEL, NUL and 0x1f inside a row's text: the set read from its files" "$T/a-good" "$T/a-tampered2"

# not ours: garbage, an extra trigger, a link
printf 'not a database' >"$T/a/index.sqlite"
rm -f "$T/a/index.sqlite-wal" "$T/a/index.sqlite-shm"
snap "$T/a" "$T/a-garbage"
same "a garbage index.sqlite: read as no index" "$T/a-good" "$T/a-garbage"
expect_exit 0 "$IOMATRIX" index "$T/a"
grep -q "made anew" "$T/out" && ok "garbage rebuilt" || not_ok "$(cat "$T/out")"
python3 - "$T/a/index.sqlite" <<'PY' || fail "trigger"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TRIGGER t AFTER INSERT ON sets BEGIN DELETE FROM meta; END")
db.execute("CREATE VIEW v AS SELECT 1")
db.commit()
PY
expect_exit 2 "$IOMATRIX" query "select count(*) from sets" --archive "$T/a"
grep -q "tables are not this version's" "$T/err" && ok "an index with an extra trigger and view is not read" ||
	not_ok "$(cat "$T/err")"
expect_exit 0 "$IOMATRIX" index "$T/a"
expect_exit 0 "$IOMATRIX" query "select count(*) from sqlite_schema where name in ('t', 'v')" --archive "$T/a" --format csv
[ "$(tail -n 1 "$T/out")" = 0 ] && ok "rebuilt without them" || not_ok "$(cat "$T/out")"
# a cell rewritten in place under its own name after the index read it
# (same inode, the directories' times unchanged): history, list and site
# read the set from its files (the stat of every file of the set and of
# its cells/), and give the bytes they give without an index
cp -a "$T/a" "$T/c" && rm -f "$T/c/index.sqlite"*
expect_exit 0 "$IOMATRIX" index "$T/c"
cell=$(ls "$T"/c/*/cells/*.json | head -n 1)
python3 - "$cell" <<'PY' || fail "rewrite in place"
import json, sys
f = sys.argv[1]
d = json.load(open(f))
d["params"]["label"] = d["params"]["label"] + " EDITED"
with open(f, "r+") as o:  # the same file: truncated and written, not replaced
    o.truncate(0)
    o.write(json.dumps(d))
PY
snap "$T/c" "$T/c-indexed"
"$IOMATRIX" list "$T/c" >"$T/c-indexed/list" 2>&1
mv "$T/c/index.sqlite" "$T/c-index" && rm -f "$T/c/index.sqlite-"*
snap "$T/c" "$T/c-none"
"$IOMATRIX" list "$T/c" >"$T/c-none/list" 2>&1
same "a cell rewritten in place: history, list and site as without an index" "$T/c-none" "$T/c-indexed"

echo precious >"$T/victim"
rm -f "$T/a/index.sqlite"*
ln -s "$T/victim" "$T/a/index.sqlite"
snap "$T/a" "$T/a-link"
same "a link at index.sqlite: not followed by the readers" "$T/a-good" "$T/a-link"
expect_exit 0 "$IOMATRIX" index "$T/a"
[ "$(cat "$T/victim")" = precious ] && [ -f "$T/a/index.sqlite" ] && [ ! -L "$T/a/index.sqlite" ] &&
	ok "index replaces the link, its target left alone" || not_ok "link: $(ls -l "$T/a")"
tap_end
