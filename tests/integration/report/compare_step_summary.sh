#!/bin/sh
# GITHUB_STEP_SUMMARY: compare appends its verdicts there as a Markdown
# table (two runs, two tables; none when the variable is unset); a file
# it cannot or must not write (a directory, a missing directory, a link
# planted at the path, a FIFO, a path inside a result set) is a warning
# on stderr, the exit code stays the verdicts' (0, or 3 with
# --fail-on-regression) and the comparison's files are still written.
# Before, compare wrote no summary: the first cases failed.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
G=$ROOT/tests/report/gen_synthetic.py
D=slow:ssd,same:ssd
python3 "$G" "$T/a" --devices $D --cells 1 --repeat 3 --seed 1 --noise 0.01 >/dev/null &&
python3 "$G" "$T/b" --devices $D --cells 1 --repeat 3 --seed 2 --noise 0.01 --perf slow=0.7 \
	>/dev/null || fail "generator failed"
S=$T/summary.md
cmp_sum() {  # cmp_sum WANT SUMMARY-PATH OUTDIR [ARGS]
	want=$1 sum=$2 out=$3; shift 3
	expect_exit "$want" env GITHUB_STEP_SUMMARY="$sum" "$IOMATRIX" compare "$T/a" "$T/b" -o "$out" "$@"
}

cmp_sum 0 "$S" "$T/c1"
cmp_sum 3 "$S" "$T/c2" --fail-on-regression
n=$(grep -c '^### iomatrix compare$' "$S")
[ "$n" = 2 ] && ok "two runs, two sections appended" || not_ok "$n sections: $(cat "$S")"
rows=$(grep -c '^| .* | .* | .* | .* | .* |$' "$S")
[ "$rows" = 6 ] && ok "each a header and one row per workload" || not_ok "$rows rows: $(cat "$S")"
[ "$(grep -c '^| \*\*regression\*\* | slow | 4K random read (RND4K Q1T1) | IOPS -' "$S")" = 2 ] &&
	[ "$(grep -c '^| no change | same | ' "$S")" = 2 ] && ok "verdict, device, workload, change" ||
	not_ok "rows: $(cat "$S")"
grep -q '^\*\*2 workloads compared: 1 regression, 0 improvements, 1 with no change' "$S" &&
	ok "the summary sentence" || not_ok "sentence: $(cat "$S")"
if command -v cmark-gfm >/dev/null 2>&1; then
	t=$(cmark-gfm -e table "$S" | grep -c '<table>')
	[ "$t" = 2 ] && ok "GFM renders two tables" || not_ok "$t tables"
fi
expect_exit 0 env -u GITHUB_STEP_SUMMARY "$IOMATRIX" compare "$T/a" "$T/b" -o "$T/c3"
[ "$(grep -c '^### iomatrix compare$' "$S")" = 2 ] && ok "unset: nothing appended" || not_ok "unset"
cmp_sum 0 "" "$T/c3"
ok "empty: ignored"

# what it must not or cannot write: a warning, the same exit code
mkdir "$T/dir" && mkfifo "$T/fifo" && echo mine >"$T/target" && ln -s "$T/target" "$T/link" ||
	fail "setup"
warned() {  # warned WHAT WORDS SUMMARY-PATH
	what=$1 words=$2 sum=$3
	for want in 0 3; do
		set -- ; [ "$want" = 3 ] && set -- --fail-on-regression
		rm -rf "$T/cw"
		timeout 60 env GITHUB_STEP_SUMMARY="$sum" "$IOMATRIX" compare "$T/a" "$T/b" -o "$T/cw" \
			"$@" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" = "$want" ] && grep -q "warning: .*$words" "$T/err" && [ -s "$T/cw/compare.md" ] &&
			grep -q '^written: ' "$T/out" && ok "$what: warned, exit $want, files written" ||
			not_ok "$what (want $want): exit $rc, $(cat "$T/err")"
	done
}
warned "a directory" "GITHUB_STEP_SUMMARY '$T/dir': Is a directory" "$T/dir"
warned "a missing directory" "No such file or directory" "$T/nodir/s.md"
warned "a link planted at it" "is a symbolic link" "$T/link"
[ "$(cat "$T/target")" = mine ] && ok "the link's target is untouched" || not_ok "target: $(cat "$T/target")"
warned "a FIFO" "not a regular file" "$T/fifo"
warned "inside a result set" "is inside the set '.*', a result set" "$T/b/summary.md"
[ ! -e "$T/b/summary.md" ] && ok "nothing created inside the set" || not_ok "summary.md in the set"
warned "inside the set's compare/" "is inside the set" "$T/b/compare/summary.md"
[ ! -e "$T/b/compare" ] && ok "not even compare/ made" || not_ok "$(ls -R "$T/b/compare")"
tap_end
