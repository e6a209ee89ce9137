#!/bin/sh
# The function-length check passes on this tree, fails on a copy with a
# 151-line function (naming file and function), and does not count a long
# static const table or a 150-line function.
. "$(dirname "$0")/../../lib.sh"
sh "$ROOT/tests/check_function_length.sh" "$ROOT" >/dev/null || fail "the tree itself has a function over 150 lines"
mkdir -p "$T/bench" "$T/report"
body() { i=0; while [ $i -lt "$1" ]; do echo "	n += $i;"; i=$((i + 1)); done; }
{
	echo "static const int table[] = {"; body 300 | sed 's/.*/	1,/'; echo "};"
	echo; echo "static int fits(int n)"; echo "{"; body 149; echo "	return n;"; echo "}"
} > "$T/report/ok.c"
sh "$ROOT/tests/check_function_length.sh" "$T" >/dev/null || fail "a table or a 150-line function counted as too long"
{
	echo "static int too_long(int n,"; echo "		    int m)"; echo "{"; body 150; echo "	return n + m;"; echo "}"
} > "$T/bench/long.c"
out=$(sh "$ROOT/tests/check_function_length.sh" "$T" 2>&1) && fail "a 151-line function passed"
echo "$out" | grep -q 'long.c:3: too_long is 151 lines' || fail "message does not name file, line and function: $out"
rm "$T/bench/long.c"
# a file of 1,001 lines of short functions: too long as a file
i=0; while [ $i -lt 143 ]; do printf 'static int f%d(void)\n{\n\treturn %d;\n}\n\n\n\n' $i $i; i=$((i + 1)); done > "$T/bench/big.c"
[ "$(wc -l < "$T/bench/big.c")" = 1001 ] || fail "big.c is not 1,001 lines"
out=$(sh "$ROOT/tests/check_function_length.sh" "$T" 2>&1) && fail "a 1,001-line file passed"
echo "$out" | grep -q 'big.c is 1001 lines (limit 1000)' || fail "message does not name the file: $out"
exit 0
