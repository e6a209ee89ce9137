#!/bin/sh
# A site's set pages are made by two processes when 16 or more are due
# (sitebuild.c set_reports): every page the child made is the page one
# process makes, byte for byte (each is removed and made again alone,
# which one process does).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
export SOURCE_DATE_EPOCH=1800000000
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 9 --cells 2 --hosts web1,web2 --seed 6 \
	--sums >/dev/null || fail "generator"
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site" --charts none
grep -q "18 sets (18 read afresh), 1 suite; 22 of 22 pages written" "$T/out" &&
	ok "18 set pages due: all written" || not_ok "$(cat "$T/out")"
n=0
for d in "$T/site"/sets/*/; do
	n=$((n + 1))
	[ $((n % 4)) = 2 ] || continue   # the 2nd, 6th, ...: the child made them
	cp "$d/report.html" "$T/first.html"
	cp "$d/report.csv" "$T/first.csv"
	rm "$d/report.html"
	expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site" --charts none
	grep -q "; 1 of 22 pages written" "$T/out" || not_ok "not alone: $(cat "$T/out")"
	cmp -s "$T/first.html" "$d/report.html" && cmp -s "$T/first.csv" "$d/report.csv" &&
		ok "set page $n: made in two processes, the same bytes as alone" ||
		not_ok "set page $n differs"
done
tap_end
