#!/bin/sh
# valgrind (memcheck) over the main paths: a run of a tiny suite with the
# null engine and the psync engine, `report` of its set (md, html, csv, json;
# no charts, gnuplot is not ours), `plan`, `validate`, `list`, `compare` and
# the three importers: no leak, no invalid access.  Skipped when valgrind is missing or the binary is built with ASan
# (the two do not mix; the ASan pass checks the same paths).
. "$(dirname "$0")/../../lib.sh"
need_cmd valgrind
[ "${IOMATRIX_SANITIZED:-}" = 1 ] && skip "binary built with sanitizers (IOMATRIX_SANITIZED=1)"
if command -v ldd >/dev/null 2>&1 && ldd "$IOMATRIX" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	skip "binary built with sanitizers"
fi
if command -v nm >/dev/null 2>&1 && nm "$IOMATRIX" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	skip "binary built with sanitizers"
fi
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-valgrind
title: "valgrind <check> & \"quotes\""
defaults: {engine: "null", size: 1MiB, requests: 200, repeat: 2}
devices:
  - {name: d, path: /nonexistent}
matrix:
  pattern: [randread, write, randrw]
  bs: [4k, 64k]
include:
  - {pattern: randread, bs: 4k, engine: psync, direct: false, requests: 50}
Y
vg() { # name cmd...
	name=$1; shift
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--show-leak-kinds=definite,indirect --error-exitcode=99 \
		--log-file="$T/vg-$name.log" "$@" >"$T/out-$name" 2>"$T/err-$name"
	rc=$?
	if [ $rc = 99 ] || grep -q "ERROR SUMMARY: [1-9]\|definitely lost\|Invalid \(read\|write\)" "$T/vg-$name.log"; then
		not_ok "$name: valgrind errors"
		head -n 40 "$T/vg-$name.log" | sed 's/^/    /'
	elif [ $rc != 0 ]; then
		not_ok "$name: exit $rc: $(tail -n 3 "$T/err-$name")"
	else
		ok "$name: valgrind clean"
	fi
}
vg validate "$IOMATRIX" validate "$T/s.yaml"
vg plan "$IOMATRIX" plan "$T/s.yaml" --format json
vg run "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
[ -f "$T/set/manifest.json" ] || fail "no result set: $(cat "$T/err-run")"
vg report "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none
[ -s "$T/rep/report.md" ] && ok "report written" || not_ok "no report.md"
vg list "$IOMATRIX" list "$T"
vg compare "$IOMATRIX" compare "$T/set" "$T/set" -o "$T/cmp"
vg import-fio "$IOMATRIX" import fio "$ROOT/tests/data/fio/randrw-75-jsonplus.json" -o "$T/imp-fio"
vg import-sysbench "$IOMATRIX" import sysbench "$ROOT/tests/data/sysbench/rndrw-bs4096-t4.log" -o "$T/imp-sb"
vg import-csv "$IOMATRIX" import csv "$ROOT/tests/data/seed-003-published.csv" -o "$T/imp-csv"
vg report-imported "$IOMATRIX" report "$T/imp-fio" -o "$T/rep-fio" --charts none
tap_end
