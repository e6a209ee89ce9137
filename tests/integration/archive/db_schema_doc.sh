#!/bin/sh
# docs/database.md's table of every table, column, unit and meaning is the
# one `iomatrix index --schema` prints from the tables the code creates
# (report/archive/archdb_schema.c), so the page cannot drift from the
# file: every table and view of a new index is on the page, and every
# column of every table.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
expect_exit 0 "$IOMATRIX" index --schema
cp "$T/out" "$T/schema"
python3 - "$ROOT/docs/database.md" "$T/schema" <<'PY' && ok "the page's schema is index --schema's, byte for byte" ||
import sys
page, gen = open(sys.argv[1]).read(), open(sys.argv[2]).read()
a = page.index("\n", page.index("<!-- schema:")) + 1
b = page.index("<!-- end of schema -->")
sys.exit(0 if page[a:b].strip("\n") == gen.strip("\n") else 1)
PY
	not_ok "docs/database.md differs from 'iomatrix index --schema' (paste its output between the schema markers)"
mkdir -p "$T/a"
expect_exit 0 "$IOMATRIX" index "$T/a"
python3 - "$T/a/index.sqlite" "$T/schema" <<'PY' && ok "every table, view and column of a new index is on the page" ||
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
doc = open(sys.argv[2]).read()
missing = []
for (name, typ) in db.execute("SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view')"):
    if "### `%s`" % name not in doc:
        missing.append(name)
    if typ == "table":
        for col in db.execute("PRAGMA table_info(%s)" % name):
            if "| `%s` |" % col[1] not in doc:
                missing.append(name + "." + col[1])
print(missing) if missing else None
sys.exit(1 if missing else 0)
PY
	not_ok "not on the page"
expect_exit 0 "$IOMATRIX" query "pragma user_version" --archive "$T/a" --format csv
grep -q "Schema version $(tail -n 1 "$T/out") (\`PRAGMA user_version\`)" "$ROOT/docs/database.md" &&
	ok "the page names the schema version the file has" || not_ok "user_version $(cat "$T/out")"
tap_end
