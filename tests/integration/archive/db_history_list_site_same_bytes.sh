#!/bin/sh
# history, list and site give the same bytes with the archive's index as
# without it, on one archive: the real sets of tests/data/db-archive, a
# synthetic series with a change point and a kernel change, a set that
# fails verification, one without SHA256SUMS, and hostile device names
# (a device named "x'); drop table sets; --" among them, stored and shown
# verbatim).  Then the sets change under the index (a cell edited in
# place, a set removed, one added): the index is not believed for them
# and the bytes stay the same.  And the index is really read: the site
# reads from their files only the sets it cannot take from it.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
export SOURCE_DATE_EPOCH=1800000000   # the set pages say when they were made
A=$T/a
cp -a "$ROOT/tests/data/db-archive/sets" "$A"
python3 "$ROOT/tests/report/gen_archive.py" "$A" --sets 8 --cells 3 --hosts web1,web2 \
	--step-at 5 --seed 3 --sums >/dev/null || fail "generator"
python3 "$ROOT/tests/report/gen_archive.py" "$A" --sets 2 --first 20 --cells 2 --hosts evil \
	--names-json '["x'"'"'); drop table sets; --", "<b>é</b> | `md`"]' --seed 5 --sums \
	>/dev/null || fail "generator"
bad=$(ls -d "$A"/*_nightly_web1 | head -n 2 | tail -n 1)
sed -i 's/"ios": \([0-9]\)/"ios": 9\1/' "$bad/cells/0001.json"        # fails verify
nosums=$(ls -d "$A"/*_nightly_web2 | head -n 1)
rm "$nosums/SHA256SUMS"

outputs() { # DIR: every command's stdout and stderr, and the site, into DIR
	mkdir -p "$1"
	for f in text json csv; do
		"$IOMATRIX" history "$A" --format "$f" >"$1/history.$f" 2>"$1/history.$f.err"
	done
	"$IOMATRIX" history "$A" --device web1:ssd --metric lat_p99 >"$1/history.one" 2>&1
	"$IOMATRIX" list "$A" >"$1/list.text" 2>"$1/list.err"
	"$IOMATRIX" list "$A" --format json >"$1/list.json" 2>&1
	"$IOMATRIX" list "$A" --all >"$1/list.all" 2>&1
	rm -rf "$T/site"
	"$IOMATRIX" site "$A" -o "$T/site" --charts none >"$1/site.out" 2>"$1/site.err"
	mv "$T/site" "$1/site"
	sed -i 's/([0-9]* read afresh)//' "$1/site.out"
}
same() { # WHAT A B
	if diff -r "$2" "$3" >"$T/diff" 2>&1; then ok "$1: the same bytes"
	else not_ok "$1 differ: $(head -n 8 "$T/diff")"; fi
}
outputs "$T/files"
expect_exit 0 "$IOMATRIX" index "$A"
outputs "$T/index"
same "history, list and site with and without the index" "$T/files" "$T/index"
expect_exit 0 "$IOMATRIX" site "$A" -o "$T/site2" --charts none
n=$(ls -d "$A"/*/ | wc -l)
grep -q "$n sets (1 read afresh)" "$T/out" && ok "the site took every set but the one without SHA256SUMS from the index" ||
	not_ok "site: $(cat "$T/out")"
grep -q "x'); drop table sets; --" "$T/index/history.text" && grep -q "x'); drop table sets; --" "$T/index/list.text" &&
	ok "the hostile device name shown verbatim" || not_ok "hostile name not in history/list"
expect_exit 0 "$IOMATRIX" query "SELECT name FROM devices WHERE name LIKE 'x''%' LIMIT 1" --archive "$A" --format csv
[ "$(tail -n 1 "$T/out")" = "x'); drop table sets; --" ] && ok "stored verbatim: query gives it back" ||
	not_ok "query: $(cat "$T/out")"
grep -q "$(basename "$bad"): changed cells/0001.json" "$T/index/history.text" &&
	ok "the failing set is left out and named" ||
	not_ok "no failing set in history"

# the sets change under the index
changed=$(ls -d "$A"/*_nightly_web1 | tail -n 1)
sed -i 's/"iops": \([0-9]\)/"iops": 7\1/' "$changed/cells/0002.json"
rm -rf "$(ls -d "$A"/*_nightly_web2 | tail -n 1)"
python3 "$ROOT/tests/report/gen_archive.py" "$A" --sets 1 --first 9 --cells 3 --hosts web1 --seed 9 \
	--sums >/dev/null || fail "generator"
outputs "$T/index2"
rm "$A/index.sqlite"* 
outputs "$T/files2"
same "after a set changed, one went and one came" "$T/files2" "$T/index2"
grep -q "$(basename "$changed"): changed cells/0002.json" "$T/index2/history.text" &&
	grep -q "FAILS VERIFY: .*$(basename "$changed")" "$T/index2/list.text" &&
	ok "the set edited after indexing fails verification with the index too" || not_ok "edited set"
tap_end
