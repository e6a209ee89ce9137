#!/bin/sh
# Every `iomatrix query` example of docs/database.md runs as written (the
# named questions: best 4K QD1 random read, p99 since a date, the kernel
# under which a series moved, all sets of a host, the report's numbers)
# and answers with rows: a Markdown table of a header, its rule and data.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/db_docs_lib.sh"
db_docs_archive
db_docs_examples query
i=1
while [ $i -le "$DB_DOCS_N" ]; do
	sed "s|^iomatrix |\"\$IOMATRIX\" |" "$T/ex/query/$i" >"$T/q.sh"
	IOMATRIX=$IOMATRIX sh "$T/q.sh" >"$T/out" 2>"$T/err"
	rc=$?
	rows=$(grep -c '^|' "$T/out")
	if [ $rc = 0 ] && [ "$rows" -ge 3 ]; then ok "example $i: $((rows - 2)) rows ($(sed -n 1p "$T/out" | cut -c1-60)...)"
	else not_ok "example $i: exit $rc, $(cat "$T/err" "$T/out" | head -5)"; fi
	i=$((i + 1))
done
[ "$DB_DOCS_N" -ge 5 ] && ok "$DB_DOCS_N query examples" || not_ok "only $DB_DOCS_N query examples"
tap_end
