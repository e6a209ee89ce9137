#!/bin/sh
# tests/fuzz/README.md has a row for every fuzz target (tests/fuzz/fuzz_*.c)
# and no row for a target that does not exist, and the regression replay
# (tests/unit/test_fuzz_regress.c) includes every target.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT/tests/fuzz" || fail "no tests/fuzz"
files=$(ls fuzz_*.c | sed 's/\.c$//' | sort | tr '\n' ' ')
rows=$(sed -n 's/^| `\(fuzz_[a-z_]*\)` |.*/\1/p' README.md | sort | tr '\n' ' ')
[ -n "$files" ] || fail "no fuzz targets"
[ "$rows" = "$files" ] && ok "README rows: $rows" || not_ok "README rows '$rows', targets '$files'"
for t in $files; do
	grep -q "\"\\.\\./fuzz/$t\\.c\"" "$ROOT/tests/unit/test_fuzz_regress.c" \
		|| not_ok "test_fuzz_regress.c does not include $t.c"
done
ok "every target is replayed by test_fuzz_regress.c"
tap_end
