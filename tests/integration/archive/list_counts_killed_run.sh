#!/bin/sh
# A run killed after 4 of its 6 cells: `list` counts the cells on disk
# (4/6 running), not the manifest's index, which a run writes only when it
# ends (it said 0/6).  The kill comes from the test hook cell:4:kill
# (SIGKILL right after the 4th cell file), so no clock is raced.  Also: a
# finished set still counts from its index, and a file spelled 00005.json
# is not a cell (the one cell-file-name grammar, cells.h).
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch" "$T/arch"
cat >"$T/s.yaml" <<'Y'
suite: t-killed
defaults: {engine: "null", size: 1MiB, requests: 64}
devices:
  - {name: d, path: /nonexistent}
matrix:
  pattern: [randread, randwrite, read]
  bs: [4k, 64k]
Y
IOMATRIX_TEST_HOOK=cell:4:kill "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" \
	--out "$T/arch/2026-12-01T000000Z_t-killed_h" --quiet >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 137 ] || [ "$rc" -gt 128 ] && ok "run killed (exit $rc)" || not_ok "run was not killed: exit $rc $(cat "$T/err")"
set_dir="$T/arch/2026-12-01T000000Z_t-killed_h"
[ "$(ls "$set_dir/cells" | grep -c '^[0-9]*\.json$')" = 4 ] && ok "4 cell files on disk" \
	|| not_ok "cell files: $(ls "$set_dir/cells")"
[ "$(jq -r .status "$set_dir/manifest.json")" = running ] && ok "manifest says running" \
	|| not_ok "status $(jq -r .status "$set_dir/manifest.json")"
expect_exit 0 "$IOMATRIX" list "$T/arch"
grep -q ' 4/6 .*running' "$T/out" && ok "list: 4/6 running" || not_ok "list said: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" list "$T/arch" --format json
[ "$(jq '.[0].cells_done' "$T/out")" = 4 ] && ok "list --format json: cells_done 4" \
	|| not_ok "json: $(cat "$T/out")"
# a name that is not the writer's spelling of an id is not a cell
cp "$set_dir/cells/0004.json" "$set_dir/cells/00005.json"
expect_exit 0 "$IOMATRIX" list "$T/arch"
grep -q ' 4/6 .*running' "$T/out" && ok "00005.json is not a cell to list" || not_ok "list said: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" report "$set_dir" -o "$T/rep" --format csv --charts none
col=$(head -n 1 "$T/rep/report.csv" | tr ',' '\n' | grep -n -x id | cut -d: -f1)
ids=$(tail -n +2 "$T/rep/report.csv" | cut -d, -f"${col:-0}" | sort -un | tr '\n' ' ')
[ "$ids" = "1 2 3 4 " ] && ok "report reads cells 1-4, not 00005.json" || not_ok "report cells: $ids"
rm "$set_dir/cells/00005.json"
# resumed to the end: the index counts, and still 6 (not 4 + 6)
expect_exit 0 "$IOMATRIX" run --resume "$set_dir" --quiet
expect_exit 0 "$IOMATRIX" list "$T/arch"
grep -q ' 6/6 .*complete' "$T/out" && ok "after resume: 6/6 complete" || not_ok "list said: $(cat "$T/out")"
tap_end
