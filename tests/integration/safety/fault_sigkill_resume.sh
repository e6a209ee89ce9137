#!/bin/sh
# SIGKILL in the middle of a run (no handler can run): the set left behind is
# readable JSON (manifest still 'running', every cell file in cells/
# complete), `report` reads it, and --resume runs the missing cells and ends
# 'complete' with every cell indexed.  (A run writes the manifest's index
# when it ends; until then the finished cells are the files in cells/.)
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-sigkill
defaults: {engine: "null", size: 1MiB, runtime: 150ms}
devices:
  - {name: d, path: /nonexistent}
matrix:
  pattern: [randread, randwrite, read, write, randrw, readwrite]
  bs: [4k, 64k]
Y
# SIGKILL once the third cell file is written: the test hook
# (bench/util/testhook.h) sends it, where the test polled cells/ before
indexed() { ls "$T/set/cells" 2>/dev/null | grep -c '^[0-9]*\.json$'; }
IOMATRIX_TEST_HOOK=cell:3:kill "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet \
	>"$T/out" 2>"$T/err"
rc=$?
[ $rc = 137 ] || fail "exit $rc, expected 137 (SIGKILL after the third cell): $(tail -n 3 "$T/err")"
m="$T/set/manifest.json"
jq empty "$m" 2>/dev/null && ok "manifest readable after SIGKILL" || not_ok "manifest unreadable: $(head -c 200 "$m")"
[ "$(jq -r .status "$m")" = running ] && ok "status still running" || not_ok "status $(jq -r .status "$m")"
n=$(indexed)
[ "$n" -ge 3 ] && [ "$n" -lt 12 ] && ok "$n cells written" || not_ok "$n cells written"
bad=0
for f in "$T/set"/cells/*.json; do
	jq -e '.status == "ok"' "$f" >/dev/null 2>&1 || { bad=1; not_ok "cell '$f' unreadable or half-written"; }
done
[ $bad = 0 ] && ok "every cell file is complete"
ls -a "$T/set" "$T/set/cells" | grep -q "^\.iomatrix-tmp\." && echo "# a temp file was left (resume removes it)"
# the killed set is a set: report reads every cell it has
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --format csv --charts none
col=$(head -n 1 "$T/rep/report.csv" | tr ',' '\n' | grep -n -x id | cut -d: -f1)
rows=$(tail -n +2 "$T/rep/report.csv" | cut -d, -f"${col:-0}" | sort -u | grep -c .)
[ "$rows" = "$n" ] && ok "report of the killed set has its $n cells" || not_ok "report has $rows cells, set $n"

expect_exit 0 "$IOMATRIX" run --resume "$T/set" --quiet
[ "$(jq -r .status "$m")" = complete ] && ok "resumed to complete" || not_ok "status $(jq -r .status "$m")"
[ "$(jq '[.cells[].id] == [range(1;13)]' "$m")" = true ] && ok "all 12 cells, in order" \
	|| not_ok "index: $(jq -c '[.cells[].id]' "$m")"
[ "$(ls "$T/set/cells" | grep -c '\.json$')" = 12 ] && ok "12 cell files" || not_ok "cell files: $(ls "$T/set/cells")"
[ -z "$(ls "$T/scratch")" ] && ok "no scratch files" || not_ok "scratch: $(ls "$T/scratch")"
tap_end
