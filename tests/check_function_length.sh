#!/bin/sh
# check_function_length.sh - no product function over 150 lines, and no
# product .c file over 1,000 lines (one file, one concept, readable in a
# sitting).
#
# A function body runs from a line starting with '{' that follows a signature
# line (one ending in ')') to the next '}' at column 0; its length is the lines
# between the two braces.  Tables of data (static const arrays: their '{' ends
# a line with '=') never follow a ')' and are not counted.
# Exit 1 with one line per long function.  Argument: the tree to check
# (default: this repository).
root=${1:-$(dirname "$0")/..}
limit=150
find "$root/cmd" "$root/bench" "$root/report" -name '*.c' | sort | xargs awk -v limit="$limit" '
FNR == 1 { infn = 0; prev = ""; sig = "" }
{
	if (!infn && /^\{/ && prev ~ /\)[ \t]*$/) {
		infn = 1; start = FNR
	} else if (infn && /^\}/) {
		n = FNR - start - 1; nfn++
		if (n > limit) {
			name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
			printf "%s:%d: %s is %d lines (limit %d): split it\n", FILENAME, start, name, n, limit
			bad = 1
		}
		infn = 0
	}
	if ($0 !~ /^[ \t]*$/) prev = $0
	# the line that names the function: column 0, a name, an open paren
	if (!infn && /^[A-Za-z_].*[A-Za-z_0-9]\(/) sig = $0
}
END {
	if (!bad) printf "check-function-length: %d functions, none over %d lines\n", nfn, limit
	exit bad
}' || exit 1
# files: the same tree, one line per file over the limit
flimit=1000
long=$(find "$root/cmd" "$root/bench" "$root/report" -name '*.c' | sort | xargs wc -l |
	awk -v l="$flimit" '$2 != "total" && $1 > l { printf "%s is %d lines (limit %d): split it\n", $2, $1, l }')
if [ -n "$long" ]; then
	echo "$long"
	exit 1
fi
echo "check-file-length: no .c file over $flimit lines"
