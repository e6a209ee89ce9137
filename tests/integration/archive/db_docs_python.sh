#!/bin/sh
# docs/database.md's Python examples (its sqlite3 module; pandas) run as
# written on an archive's index.  pandas is Debian's python3-pandas: where
# the python3 on PATH lacks it, /usr/bin/python3 is tried; without it the
# pandas example is skipped with the reason.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/db_docs_lib.sh"
db_docs_archive
db_docs_examples python
python3 "$T/ex/python/1" >"$T/out" 2>"$T/err" && grep -q "IOPS$" "$T/out" &&
	ok "python sqlite3: $(head -n 1 "$T/out")" || not_ok "$(cat "$T/err" "$T/out")"
db_docs_examples pandas
py=
for p in python3 /usr/bin/python3; do
	"$p" -c 'import pandas' 2>/dev/null && { py=$p; break; }
done
if [ -z "$py" ]; then
	echo "ok - # SKIP pandas: not installed (Debian: python3-pandas)"
else
	"$py" "$T/ex/pandas/1" >"$T/out" 2>"$T/err" && grep -q "RND4K Q1T1 randread" "$T/out" &&
		ok "pandas: $(head -n 1 "$T/out" | cut -c1-60)" || not_ok "$(cat "$T/err" "$T/out")"
fi
tap_end
