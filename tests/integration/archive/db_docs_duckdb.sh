#!/bin/sh
# docs/database.md's DuckDB example (Node.js, @duckdb/node-api) runs as
# written on an archive's index.  Skipped, with the reason, where node or
# @duckdb/node-api is missing, or where DuckDB cannot fetch its sqlite
# extension (it downloads it from DuckDB's own server on first use, which
# this machine and CI cannot reach: npm is the only registry here).
# DUCKDB_NODE_MODULES=DIR names a node_modules holding @duckdb/node-api.
. "$(dirname "$0")/../../lib.sh"
need_cmd node
mod=
for d in "${DUCKDB_NODE_MODULES:-}" "$ROOT/tests/browser/node_modules" "$(npm root -g 2>/dev/null)"; do
	[ -n "$d" ] && [ -d "$d/@duckdb/node-api" ] && { mod=$d; break; }
done
[ -n "$mod" ] || skip "@duckdb/node-api not installed (npm install -g @duckdb/node-api)"
. "$ROOT/tests/db_docs_lib.sh"
db_docs_archive
db_docs_examples duckdb
ln -s "$mod" "$T/node_modules"
cp "$T/ex/duckdb/1" "$T/ex.mjs"
node "$T/ex.mjs" >"$T/out" 2>"$T/err"
rc=$?
grep -q "Failed to download extension" "$T/err" && skip "DuckDB cannot download its sqlite extension here (no network but npm)"
[ $rc = 0 ] && grep -q "device" "$T/out" && ok "duckdb: $(head -n 2 "$T/out" | tr '\n' ' ')" ||
	not_ok "$(cat "$T/err" "$T/out" | head -5)"
tap_end
