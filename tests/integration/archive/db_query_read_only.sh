#!/bin/sh
# iomatrix query only reads: every write, schema change, ATTACH, pragma
# that writes, transaction, or second statement is refused with exit 2 and
# the index is left byte for byte as it was; reading statements and the
# reading pragmas run.  --format md is a GitHub table with units in the
# header and the report's numbers (3 significant figures, thousands
# separators); csv, json and html carry the same rows.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 2 --cells 2 --hosts web1 --seed 3 --sums \
	>/dev/null || fail "generator"
expect_exit 0 "$IOMATRIX" index "$T/a"
sum() { cat "$T/a/index.sqlite" "$T/a/index.sqlite-wal" 2>/dev/null | sha256sum; }
before=$(sum)
q() { "$IOMATRIX" query "$1" --archive "$T/a" >"$T/out" 2>"$T/err"; }
for sql in "delete from sets" "DELETE FROM sets WHERE 1" "insert into meta values ('a', 'b')" \
	"update sets set scale = 2" "replace into meta values ('made_for', 'x')" "drop table sets" \
	"create table x (a)" "create temp table x (a)" "create view v as select 1" "alter table sets add c" \
	"attach '$T/other.db' as o" "detach main" "pragma user_version = 5" "pragma journal_mode = delete" \
	"pragma writable_schema = 1" "pragma foreign_keys = off" "vacuum" "vacuum into '$T/copy.db'" \
	"begin" "reindex" "analyze" "select 1; delete from sets" "with x as (select 1) delete from sets" \
	"select load_extension('/tmp/x.so')" "savepoint a" "insert into sets select * from sets"; do
	q "$sql"
	rc=$?
	if [ $rc = 2 ] && [ -s "$T/err" ] && [ ! -s "$T/out" ]; then ok "refused (exit 2): $sql"
	else not_ok "'$sql': exit $rc, out $(head -c 200 "$T/out"), err $(head -c 200 "$T/err")"; fi
done
[ "$(sum)" = "$before" ] && ok "the index is byte for byte as it was" || not_ok "the index changed"
[ ! -e "$T/other.db" ] && [ ! -e "$T/copy.db" ] && ok "no other file made" || not_ok "a file was made"
q "delete from sets"
grep -q "a query only reads" "$T/err" && ok "says why: $(cat "$T/err")" || not_ok "message: $(cat "$T/err")"
for sql in "select count(*) from sets" "pragma table_info(sets)" "pragma user_version" \
	"pragma index_list(cells)" \
	"with recursive n(i) as (select 1 union all select i + 1 from n where i < 3) select * from n"; do
	q "$sql" && [ -s "$T/out" ] && ok "reads: $sql" || not_ok "'$sql': $(cat "$T/err")"
done
expect_exit 2 "$IOMATRIX" query "select * from no_such_table" --archive "$T/a"
grep -q "no such table: no_such_table" "$T/err" && ok "an SQL error is exit 2 with SQLite's message" ||
	not_ok "$(cat "$T/err")"

# the formats
expect_exit 0 "$IOMATRIX" query "SELECT device, direction, iops, bw_bytes_s, lat_mean_ns, n FROM report_numbers
	ORDER BY iops DESC LIMIT 2" --archive "$T/a" --format md
head -n 2 "$T/out" >"$T/head"
printf '%s\n' '| device | direction | iops (IOPS) | bw\_bytes\_s (bytes/s) | lat\_mean\_ns (ns) | n |' \
	'|---|---|---:|---:|---:|---:|' | cmp -s - "$T/head" && ok "md: units in the header, numbers right-aligned" ||
	not_ok "md header: $(cat "$T/head")"
sed -n 3p "$T/out" | grep -Eq '^\| ssd \| (read|write) \| [0-9]{1,3}(,[0-9]{3})* \| [0-9]{1,3}(,[0-9]{3})* \| [0-9.,]+ \| 3 \|$' &&
	ok "md: 3 significant figures with thousands separators: $(sed -n 3p "$T/out")" || not_ok "md row: $(sed -n 3p "$T/out")"
python3 - "$T/out" <<'PY' && ok "md: every significant figure is 3" || not_ok "md figures"
import re, sys
for line in open(sys.argv[1]).read().splitlines()[2:]:
    iops = line.split("|")[3].strip().replace(",", "")
    digits = iops.rstrip("0") if "." not in iops else iops.replace(".", "").lstrip("0")
    if len(digits.strip("0")) > 3: sys.exit("too many figures: " + iops)
PY
expect_exit 0 "$IOMATRIX" query "SELECT path, scale FROM sets ORDER BY path" --archive "$T/a" --format json
python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(0 if len(r) == 2 and r[0]["scale"] == 1 else 1)' \
	"$T/out" && ok "json: an array of objects, numbers as numbers" || not_ok "json: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" query "SELECT path, 'a,\"b' AS t FROM sets ORDER BY path" --archive "$T/a" --format csv
[ "$(sed -n 2p "$T/out")" = "$(ls "$T/a" | grep -v index | head -n 1),\"a,\"\"b\"" ] && ok "csv: RFC 4180 quoting" ||
	not_ok "csv: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" query "SELECT 35583 / 1000.0 AS a, 0.1 + 0.2 AS b, 1.0 / 3 AS c" --archive "$T/a" --format csv
[ "$(sed -n 2p "$T/out")" = "35.583,0.30000000000000004,0.3333333333333333" ] &&
	ok "csv: every digit a double holds, and no more (35.583, not 35.582999999999998)" ||
	not_ok "csv digits: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" query "SELECT '<b>' AS h" --archive "$T/a" --format html
grep -q '<td>&lt;b&gt;</td>' "$T/out" && ok "html: cells escaped" || not_ok "html: $(cat "$T/out")"
expect_exit 2 "$IOMATRIX" query "SELECT 1" --archive "$T/a" --format yaml
tap_end
