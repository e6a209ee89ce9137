#!/bin/sh
# verify finds what changed and names it: one changed byte in a cell file,
# a missing plan.json, an extra file, a file replaced by a link, a changed
# report file (report/ has its own list, reported apart as derived output,
# as compare/ is) — each named, exit 1; an intact set
# beside a damaged one still says intact; a set written before checksums
# says "no checksums" and exits 0 (not an error).
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<Y
suite: t-verify
defaults: {engine: null, size: 1MiB}
devices:
  - {name: d, path: $T/scratch}
matrix: {pattern: [randread, randwrite], bs: [4k]}
Y
IOMATRIX_RESULTS="$T/r" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/r/a"
IOMATRIX_RESULTS="$T/r" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/r/b"
expect_exit 0 "$IOMATRIX" verify "$T/r/a" "$T/r/b"
[ "$(grep -c intact "$T/out")" = 2 ] && ok "two fresh sets: intact, exit 0" || not_ok "$(cat "$T/out")"

# one byte of cells/0002.json: '"' of the first key becomes "'"
f="$T/r/a/cells/0002.json"
python3 - "$f" <<'P'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
b[b.index(b'"')] = ord("'"); open(p, 'wb').write(bytes(b))
P
expect_exit 1 "$IOMATRIX" verify "$T/r/a"
grep -q "^  changed cells/0002.json$" "$T/out" && ok "a changed byte is found and named" || not_ok "$(cat "$T/out")"
grep -q "FAILED" "$T/out" && ok "the set is FAILED" || not_ok "no FAILED"
grep -q "cells/0001.json" "$T/out" && not_ok "an intact file named" || ok "only the changed file named"
(cd "$T/r/a" && sha256sum -c SHA256SUMS >/dev/null 2>&1) && not_ok "sha256sum -c passed" || ok "sha256sum -c agrees"
expect_exit 1 "$IOMATRIX" verify "$T/r"
grep -q "/b: intact" "$T/out" && grep -q "/a: FAILED" "$T/out" && ok "DIR: each set judged on its own" || not_ok "$(cat "$T/out")"

rm "$T/r/b/plan.json"; echo x >"$T/r/b/notes.txt"
rm "$T/r/b/suite.yaml"; ln -s /etc/hostname "$T/r/b/suite.yaml"
expect_exit 1 "$IOMATRIX" verify "$T/r/b"
grep -q "^  missing plan.json$" "$T/out" && ok "missing file named" || not_ok "missing: $(cat "$T/out")"
grep -q "^  extra notes.txt$" "$T/out" && ok "extra file named" || not_ok "extra: $(cat "$T/out")"
grep -q "^  changed suite.yaml$" "$T/out" && ok "a link in place of a file is changed" || not_ok "link: $(cat "$T/out")"

# report/ has its own list
IOMATRIX_RESULTS="$T/r" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/r/c"
expect_exit 0 "$IOMATRIX" report "$T/r/c" --charts none --format md
echo >>"$T/r/c/report/report.md"
expect_exit 1 "$IOMATRIX" verify "$T/r/c"
grep -q "^    changed report/report.md$" "$T/out" && ok "a changed report file is named" || not_ok "report: $(cat "$T/out")"
grep -q "^$T/r/c: intact (" "$T/out" && grep -q "^  derived report/: FAILED$" "$T/out" \
	&& ok "a changed report is derived output, told apart from the measurement" \
	|| not_ok "report apart: $(cat "$T/out")"
IOMATRIX_RESULTS="$T/r" expect_exit 0 "$IOMATRIX" list
grep -q " complete  *$T/r/c$" "$T/out" && ! grep -q "FAILS VERIFY: $T/r/c:" "$T/out" \
	&& ok "list judges the measurement, not its report" || not_ok "list: $(cat "$T/out")"

# compare OLD NEW writes NEW/compare/ with its own list (it
# made the new set fail verify with "extra compare/...")
expect_exit 0 "$IOMATRIX" report "$T/r/c" --charts none --format md
IOMATRIX_RESULTS="$T/r" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/r/d"
"$IOMATRIX" compare "$T/r/c" "$T/r/d" >"$T/cmp" 2>&1
[ -f "$T/r/d/compare/compare.md" ] && [ -f "$T/r/d/compare/SHA256SUMS" ] \
	&& ok "compare writes NEW/compare/ with its own SHA256SUMS" || not_ok "compare: $(cat "$T/cmp")"
expect_exit 0 "$IOMATRIX" verify "$T/r/d"
grep -q "^$T/r/d: intact (" "$T/out" && grep -q "^  derived compare/: intact (" "$T/out" \
	&& ok "after compare the new set verifies intact, compare/ apart" || not_ok "verify after compare: $(cat "$T/out")"
grep -q "extra compare/" "$T/out" && not_ok "compare/ counted as an extra file" || ok "compare/ is no extra file"
echo >>"$T/r/d/compare/compare.md"
expect_exit 1 "$IOMATRIX" verify "$T/r/d"
grep -q "^    changed compare/compare.md$" "$T/out" && grep -q "^$T/r/d: intact (" "$T/out" \
	&& ok "a changed comparison is named, apart from the measurement" || not_ok "changed compare: $(cat "$T/out")"

# a hostile list: a path out of the set, an absolute one, a bad line
IOMATRIX_RESULTS="$T/r" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/r/h"
echo secret >"$T/outside"
h=$(sha256sum "$T/outside" | cut -d' ' -f1)
printf '%s  ../../outside\n%s  %s\nnot a line\n' "$h" "$h" "$T/outside" >>"$T/r/h/SHA256SUMS"
expect_exit 1 "$IOMATRIX" verify "$T/r/h"
[ "$(grep -c "a name outside the set ('/' first, '..') or a directory ('/' last) at SHA256SUMS:" "$T/out")" = 2 ] &&
	[ "$(grep -c "malformed line at SHA256SUMS:" "$T/out")" = 1 ] && ok "paths out of the set are said so and a bad line malformed, not followed" \
	|| not_ok "hostile list: $(cat "$T/out")"

# a set from before checksums
IOMATRIX_RESULTS="$T/r" expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/old"
rm "$T/old/SHA256SUMS"
expect_exit 0 "$IOMATRIX" verify "$T/old"
grep -q "no checksums" "$T/out" && ok "an old set: no checksums, exit 0" || not_ok "old: $(cat "$T/out")"
expect_exit 2 "$IOMATRIX" verify "$T/nonexistent"
ok "a missing operand exits 2"
tap_end
