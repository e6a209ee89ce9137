#!/bin/sh
# verify of a results directory that holds no set yet (it
# exited 2, "neither a result set nor a directory of sets"): "DIR: no sets"
# on stdout, exit 0; files beside (an index, dot files) change nothing.  A
# directory whose folders are not sets is still a mistake (exit 2), and
# so is one that does not exist.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/results" "$T/other/notaset"
: >"$T/results/.lock"
: >"$T/results/index.sqlite"
expect_exit 0 "$IOMATRIX" verify "$T/results"
[ "$(cat "$T/out")" = "$T/results: no sets" ] && ok "empty results: 'no sets', exit 0" \
	|| not_ok "stdout: $(cat "$T/out")"
[ -s "$T/err" ] && not_ok "stderr: $(cat "$T/err")" || ok "nothing on stderr"
expect_exit 2 "$IOMATRIX" verify "$T/other"
grep -q "is neither a result set nor a directory of sets" "$T/err" && ok "folders that are not sets: exit 2" \
	|| not_ok "other: $(cat "$T/err")"
expect_exit 2 "$IOMATRIX" verify "$T/missing"
ok "a missing directory: exit 2"
tap_end
