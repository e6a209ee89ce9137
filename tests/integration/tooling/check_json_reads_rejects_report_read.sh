#!/bin/sh
# tests/check_json_reads.sh: report code outside render/ and the listed
# edges reads no cJSON.  It passes on this tree; on a planted tree it
# refuses a cJSON_GetObjectItemCaseSensitive in report/compare, a
# cJSON_ArrayForEach in report/model and a ->valuestring in a header,
# naming each file and line, and an edge listed that reads nothing (in a
# copy of the check with an edge planted); a
# read under report/render/, a comment that names cJSON_Parse and writing
# (cJSON_AddStringToObject) pass.
. "$(dirname "$0")/../../lib.sh"
expect_exit 0 sh "$ROOT/tests/check_json_reads.sh" "$ROOT"
ok "this tree reads no cJSON outside render/ and the edges"

D=$T/t
mkdir -p "$D/report/render" "$D/report/compare" "$D/report/model" "$D/report/archive"
# the edges of the real list (its lines 'report/...<TAB>why'), each reading
for f in $(sed -n 's|^\(report/[^	]*\)	.*|\1|p' "$ROOT/tests/check_json_reads.sh"); do
	mkdir -p "$D/$(dirname "$f")"
	printf 'int f(const cJSON *o) { return cJSON_IsString(o); }\n' >"$D/$f"
done
cat >"$D/report/render/out.c" <<'C'
int w(const cJSON *ctx) { return cJSON_GetObjectItemCaseSensitive(ctx, "css") != 0; }
C
cat >"$D/report/compare/fine.c" <<'C'
/* the manifest was cJSON_Parse'd by the set reader */
	/* and cJSON_IsString'ed
	 * cJSON_GetArraySize there too */
void a(cJSON *o) { cJSON_AddStringToObject(o, "k", "v"); }
C
expect_exit 0 sh "$ROOT/tests/check_json_reads.sh" "$D"
ok "render/, comments and writing pass"

cat >"$D/report/compare/bad.c" <<'C'
void a(cJSON *o)
{
	if (!cJSON_GetObjectItemCaseSensitive(o, "css"))
		cJSON_AddStringToObject(o, "css", "x");
}
C
cat >"$D/report/model/loop.c" <<'C'
int n(const cJSON *a) { const cJSON *e; int k = 0; cJSON_ArrayForEach(e, a) k++; return k; }
C
printf 'static inline const char *s(const cJSON *v) { return v->valuestring; }\n' \
	>"$D/report/model/m.h"
expect_exit 1 sh "$ROOT/tests/check_json_reads.sh" "$D"
for f in report/compare/bad.c:3 report/model/loop.c:1 report/model/m.h:1; do
	grep -q "check-json-reads: $f:" "$T/out" && ok "names $f" || not_ok "$f not named: $(cat "$T/out")"
done
grep -q "fine.c\|render/out.c" "$T/out" && not_ok "a comment or render/ refused" ||
	ok "only the reads are named"

rm "$D/report/compare/bad.c" "$D/report/model/loop.c" "$D/report/model/m.h"
# a copy of the check with an edge of its own: read there, the edge passes
# (a read listed with its why); reading nothing, it is a stale exemption
awk '{ print } /^edges=.$/ { printf "report/archive/edge.c\tparses a planted record from disk\n" }' \
	"$ROOT/tests/check_json_reads.sh" >"$T/check.sh"
grep -q '^report/archive/edge.c	' "$T/check.sh" || fail "the edge was not planted in the copy"
printf 'int f(const cJSON *o) { return cJSON_IsString(o); }\n' >"$D/report/archive/edge.c"
expect_exit 0 sh "$T/check.sh" "$D"
ok "a listed edge may read"
expect_exit 1 sh "$ROOT/tests/check_json_reads.sh" "$D"
grep -q "check-json-reads: report/archive/edge.c:1:" "$T/out" &&
	ok "the same read without its edge is refused" || not_ok "unlisted read: $(cat "$T/out")"
printf 'int f(void) { return 0; }\n' >"$D/report/archive/edge.c"
expect_exit 1 sh "$T/check.sh" "$D"
grep -q "report/archive/edge.c is listed as an edge but reads no cJSON" "$T/out" &&
	ok "a stale edge is refused" || not_ok "stale edge: $(cat "$T/out")"
tap_end
