#!/bin/sh
# Without gnuplot on PATH the report still writes every table and says how
# to install gnuplot; --charts none never looks for it.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 2 >/dev/null || fail "generator failed"
mkdir "$T/emptybin"

PATH="$T/emptybin" expect_exit 0 "$IOMATRIX" report "$T/set"
grep -q 'apt-get install gnuplot-nox' "$T/err" && ok "says how to install gnuplot" || not_ok "no install hint"
for f in report.md report.html report.csv report.json; do
	[ -s "$T/set/report/$f" ] && ok "$f still written" || not_ok "$f missing"
done
grep -q 'gnuplot is not installed' "$T/set/report/report.md" && ok "report notes skipped charts" \
	|| not_ok "no note in report"
grep -q '^| hdd |' "$T/set/report/report.md" && ok "tables present" || not_ok "tables"

rm -rf "$T/set/report"
PATH="$T/emptybin" expect_exit 0 "$IOMATRIX" report "$T/set" --charts none
[ ! -d "$T/set/report/charts" ] && ok "--charts none makes no charts" || not_ok "charts dir made"
grep -q gnuplot "$T/err" && not_ok "--charts none mentioned gnuplot" || ok "--charts none is quiet"
tap_end
