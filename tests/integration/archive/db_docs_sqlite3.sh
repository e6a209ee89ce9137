#!/bin/sh
# docs/database.md's sqlite3-shell example runs as written on an archive's
# index (skipped where the sqlite3 shell is not installed: Debian sqlite3).
. "$(dirname "$0")/../../lib.sh"
need_cmd sqlite3
. "$ROOT/tests/db_docs_lib.sh"
db_docs_archive
db_docs_examples sqlite3
sh "$T/ex/sqlite3/1" >"$T/out" 2>"$T/err" && [ "$(wc -l <"$T/out")" -ge 3 ] &&
	grep -q "^device" "$T/out" && ok "sqlite3: $(sed -n 3p "$T/out")" || not_ok "$(cat "$T/err" "$T/out")"
tap_end
