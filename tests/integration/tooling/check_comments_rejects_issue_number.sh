#!/bin/sh
# tests/check_comments.sh: no comment in the product's code, tests, docs
# or suites cites an issue by its number.  It passes on this tree, and on a small planted
# tree it refuses "issue 35 §3" in a .c, "Issue #12" in a header and
# "issues 3" in a template, "issue 29 item 7" in a test and one in a
# doc, naming each file and line; prose that only
# says "issue" without a number passes.
. "$(dirname "$0")/../../lib.sh"
expect_exit 0 sh "$ROOT/tests/check_comments.sh" "$ROOT"
mkdir -p "$T/t/bench/x" "$T/t/report" "$T/t/templates" "$T/t/cmd" "$T/t/tests/integration" "$T/t/docs"
printf '/* a stop is an issue for the runner */\nint a;\n' >"$T/t/bench/x/a.c"
expect_exit 0 sh "$ROOT/tests/check_comments.sh" "$T/t"
printf '/* cliff from 4.9 GB/s (issue 35 §3) */\nint b;\n' >"$T/t/bench/x/b.c"
printf '/* see Issue #12 */\n' >"$T/t/report/c.h"
printf '{{! issues 3 and 4 }}\n' >"$T/t/templates/d.tmpl"
printf '#!/bin/sh\n# Issue 29 item 7: names\n' >"$T/t/tests/integration/e.sh"
printf 'Fixed in issue 12.\n' >"$T/t/docs/f.md"
expect_exit 1 sh "$ROOT/tests/check_comments.sh" "$T/t"
for f in "bench/x/b.c:1" "report/c.h:1" "templates/d.tmpl:1" "tests/integration/e.sh:2" "docs/f.md:1"; do
	grep -q "check-comments: $f:" "$T/out" && ok "names $f" || not_ok "$f not named: $(cat "$T/out")"
done
grep -qF "bench/x/a.c" "$T/out" && not_ok "prose without a number refused" || ok "prose without a number passes"
tap_end
