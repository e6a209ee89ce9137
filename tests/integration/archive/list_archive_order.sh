#!/bin/sh
# `iomatrix list`: one line per set, newest first, sets one level down
# included, the repository's own reference/ and examples/ sets only with
# --all, a corrupt manifest listed as such, interrupted sets show cells
# done/total, a SCALE column, and --format json.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$@" >/dev/null || fail "generator failed"; }

R="$T/results"
mkdir -p "$R/reference"
gen "$R/2026-11-30T024012Z_mid_h" --started 2026-11-30T02:40:12Z --suite mid --cells 2
gen "$R/2026-12-01T000000Z_new_h" --started 2026-12-01T00:00:00Z --suite new --cells 2
gen "$R/reference/2025-01-01T000000Z_old_h" --started 2025-01-01T00:00:00Z --suite old \
	--status interrupted --missing 1 --cells 2
mkdir "$R/2026-11-29T000000Z_bad_h"
printf '{"schema_version": 1, "sta' >"$R/2026-11-29T000000Z_bad_h/manifest.json"
mkdir "$R/not-a-set"

expect_exit 0 "$IOMATRIX" list "$R"
grep -q '^(1 example and reference set of this repository not shown' "$T/out" \
	&& ok "reference sets hidden by default" || not_ok "hidden note: $(tail -n 1 "$T/out")"
grep -q 'reference/2025' "$T/out" && not_ok "reference set listed without --all" || ok "reference set not listed"
expect_exit 0 "$IOMATRIX" list "$R" --all
head -n 1 "$T/out" | grep -q '^DATE *SUITE *HOST *DEVICES *SCALE *CELLS *STATUS *PATH' \
	&& ok "header" || not_ok "header: $(head -n 1 "$T/out")"
order=$(tail -n +2 "$T/out" | awk '{print $2}' | tr '\n' ' ')
[ "$order" = "new mid ? old " ] && ok "newest first" || not_ok "order: $order"
grep -q 'corrupt manifest.*2026-11-29T000000Z_bad_h' "$T/out" && ok "corrupt manifest listed" \
	|| not_ok "corrupt manifest"
grep -q ' 3/4 .*interrupted.*reference/2025' "$T/out" && ok "interrupted set: done/total" \
	|| not_ok "interrupted line: $(grep old "$T/out")"
grep -q 'not-a-set' "$T/out" && not_ok "listed a non-set" || ok "non-set directories skipped"
[ "$(wc -l <"$T/out")" = 5 ] && ok "one line per set" || not_ok "lines: $(wc -l <"$T/out")"

expect_exit 0 "$IOMATRIX" list "$R" --all --format json
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); assert [x["suite"] for x in a] == ["new","mid",None,"old"], a; assert "error" in a[2] and a[2]["cells_done"] is None, a[2]; assert a[0]["scale"] == 1 and a[0]["rehearsal"] is False' "$T/out" \
	&& ok "--format json" || not_ok "json: $(head -c 300 "$T/out")"

expect_exit 2 "$IOMATRIX" list "$T/nope"
grep -q "cannot read" "$T/err" && ok "missing dir exits 2" || not_ok "missing dir message"
mkdir "$T/empty"
expect_exit 0 "$IOMATRIX" list "$T/empty"
grep -q "no result sets" "$T/out" && ok "empty archive said" || not_ok "empty archive"
tap_end
