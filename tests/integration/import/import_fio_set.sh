#!/bin/sh
# `import fio` turns real fio 3.33 outputs (json, json+, several jobs,
# group_reporting, status-interval) into a complete schema-v1 result set:
# manifest with source {kind, files, version, command}, plan.json, suite.yaml,
# one cell per job; the default directory is RESULTS/<UTC>_fio_<name>; the
# same job in two files becomes two repetitions; report and compare read it.
. "$(dirname "$0")/../../lib.sh"
D="$ROOT/tests/data/fio"

expect_exit 0 "$IOMATRIX" import fio "$D/multijob-global.json" "$D/randrw-75-jsonplus.json" \
	"$D/group-reporting-numjobs4-jsonplus.json" -o "$T/set"
[ "$(cat "$T/out")" = "$T/set" ] && ok "prints the set directory" || not_ok "stdout: $(cat "$T/out")"
for f in manifest.json plan.json suite.yaml cells/0001.json cells/0004.json; do
	[ -f "$T/set/$f" ] && ok "$f written" || not_ok "$f missing"
done
[ ! -e "$T/set/cells/0005.json" ] && ok "one cell per job (4)" || not_ok "more than 4 cells"
m="$T/set/manifest.json"
grep -q '"kind":[[:space:]]*"fio"' "$m" && ok "source kind fio" || not_ok "source kind"
grep -q '"version":[[:space:]]*"fio-3.33"' "$m" && ok "source version fio-3.33" || not_ok "source version"
grep -q '"command":[[:space:]]*"fio .*--name=seqread-1m' "$m" && ok "source command" || not_ok "source command"
grep -q '"status":[[:space:]]*"complete"' "$m" && ok "status complete" || not_ok "status"
grep -q '"scheme":[[:space:]]*"loglin64"' "$T/set/cells/0003.json" && ok "json+ bins stored as histogram" \
	|| not_ok "no histogram in the json+ cell"
ls -a "$T" | grep -q '\.importing\.' && not_ok "temporary directory left behind" || ok "no temporary directory left"

# default directory name
mkdir "$T/results"
IOMATRIX_RESULTS="$T/results" "$IOMATRIX" import fio "$D/randread-4k-qd16.json" >"$T/out" 2>"$T/err"
rc=$?
dir=$(cat "$T/out")
case "$dir" in
"$T/results/"20[0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-9][0-9][0-9][0-9][0-9][0-9]Z_fio_randread-4k-qd16)
	[ $rc = 0 ] && ok "default dir RESULTS/<UTC>_fio_<name>" || not_ok "rc=$rc" ;;
*) not_ok "default dir: '$dir' (rc=$rc)" ;;
esac

# the same job twice: one cell, two repetitions
expect_exit 0 "$IOMATRIX" import fio "$D/randread-4k-qd16.json" "$D/randread-4k-qd16.json" -o "$T/twice"
grep -q '"rep":[[:space:]]*2' "$T/twice/cells/0001.json" && [ ! -e "$T/twice/cells/0002.json" ] \
	&& ok "same job in two files: two repetitions of one cell" || not_ok "repetitions"

# the generated suite.yaml re-measures the imported cells: it validates
expect_exit 0 "$IOMATRIX" import fio "$D"/*.json -o "$T/all"
"$IOMATRIX" validate "$T/all/suite.yaml" >"$T/out" 2>"$T/err" && ok "generated suite.yaml validates" \
	|| not_ok "generated suite.yaml: $(head -n 3 "$T/err")"
expect_exit 0 "$IOMATRIX" import csv "$ROOT/tests/data/seed-003-published.csv" -o "$T/csv"
"$IOMATRIX" validate "$T/csv/suite.yaml" >"$T/out" 2>"$T/err" && ok "csv import's suite.yaml validates (device names made safe)" \
	|| not_ok "csv suite.yaml: $(head -n 3 "$T/err")"

# report and compare treat it like a native set
"$IOMATRIX" report "$T/set" -o "$T/rep" --charts none >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && [ -s "$T/rep/report.md" ] && ok "report reads the imported set" \
	|| not_ok "report rc=$rc: $(head -n 3 "$T/err")"
"$IOMATRIX" compare "$T/twice" "$dir" -o "$T/cmp" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && ok "compare reads two imported sets" || not_ok "compare rc=$rc: $(head -n 3 "$T/err")"
tap_end
