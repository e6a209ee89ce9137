#!/bin/sh
# Every file in tests/bad-suites/ has exactly one problem: validate exits 2,
# prints exactly one error line holding the text of its .expect file (with
# line:col), and nothing on stdout.  Also: a file over 1 MiB, and plan/export
# refuse bad suites the same way without writing anything.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
n=0
for f in tests/bad-suites/*.yaml; do
	n=$((n + 1))
	e=${f%.yaml}.expect
	[ -f "$e" ] || { not_ok "$f has no .expect"; continue; }
	want=$(cat "$e")
	"$IOMATRIX" validate "$f" >"$T/out" 2>"$T/err"; rc=$?
	lines=$(wc -l <"$T/err")
	if [ $rc = 2 ] && [ ! -s "$T/out" ] && [ "$lines" = 1 ] &&
	   grep -qF -- "$f$want" "$T/err"; then
		ok "$(basename "$f")"
	else
		not_ok "$(basename "$f"): exit $rc, $lines lines, want '$f$want', got: $(head -n 3 "$T/err")"
	fi
done
[ $n -ge 20 ] && ok "$n bad suites" || not_ok "only $n bad suites"

# larger than 1 MiB: refused before parsing
{ printf 'suite: big\n'; i=0; while [ $i -lt 1100 ]; do printf '# %01020d\n' 0; i=$((i + 1)); done; } >"$T/big.yaml"
"$IOMATRIX" validate "$T/big.yaml" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "larger than 1 MiB" "$T/err" && ok "file over 1 MiB refused" || not_ok "big file: rc=$rc $(cat "$T/err")"

# plan and export refuse too, and export writes nothing
"$IOMATRIX" plan tests/bad-suites/01-unknown-key.yaml >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ ! -s "$T/out" ] && grep -q "did you mean 'iodepth'" "$T/err" && ok "plan refuses a bad suite" || not_ok "plan rc=$rc"
"$IOMATRIX" export fio tests/bad-suites/01-unknown-key.yaml -o "$T/fio" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && [ ! -e "$T/fio" ] && ok "export refuses a bad suite, writes nothing" || not_ok "export rc=$rc"
# a missing file
"$IOMATRIX" validate "$T/nope.yaml" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "cannot open suite" "$T/err" && ok "missing file" || not_ok "missing file rc=$rc"
tap_end
