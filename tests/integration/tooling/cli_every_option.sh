#!/bin/sh
# Every option of every command, from the tables themselves (`iomatrix
# --dump-options`, util/optspec.h), so an option added later is covered
# without a line here: each spelling (name and aliases) is taken as
# "--opt V" and "--opt=V" (long spellings) and both parse to the same
# thing; a flag given "=x" says it takes no value; an option without its
# value (at the end, or "--opt=") names the value it needs; a misspelt
# option (two letters swapped) gets "did you mean" with the option; a value
# of the wrong kind and one out of range are refused naming the option,
# the value and what it takes.  Each refusal is exit 2.
# The hundreds of command lines are parsed in one process (`iomatrix
# --parse-lines`: each by its command's table, nothing run); that each
# command parses by that same table is checked apart, one real run per
# command with the test hook's parse_only (the command prints what it
# parsed and exits before it reads or writes anything), whose output must
# be the batch's for the same line.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/cwd"
cd "$T/cwd" || fail "no cwd"
export IOMATRIX_RESULTS="$T/results"

"$IOMATRIX" --dump-options >"$T/dump" 2>"$T/dump.err" || fail "no --dump-options: $(cat "$T/dump.err")"
rows=$(wc -l <"$T/dump")
[ "$rows" -ge 70 ] && ok "$rows options in the tables" || not_ok "only $rows options dumped"

# The command lines (tab-separated words) and, line for line, what each
# must give: "ok NAME" (exit 0, NAME parsed), "same N" (exit 0, as line N),
# "err TEXT" (exit 2 with TEXT), "near SPELLINGS" (exit 2, a spelling of
# the option suggested).
awk -F'\t' -v req="$T/req" -v expf="$T/exp" '
function line(words, want) { print words > req; print want > expf; n++ }
function typo(s,   i, a, b) { # the first two different letters swapped
	for (i = 3; i < length(s); i++) {
		a = substr(s, i, 1); b = substr(s, i + 1, 1)
		if (a != b && a != "-" && b != "-")
			return substr(s, 1, i - 1) b a substr(s, i + 2)
	}
	return s "x"
}
{
	cmd = $1; nsp = split($2, sp, " "); value = $3; bad = $4; outside = $5
	base = $6; gsub(/ /, "\t", base)
	pre = cmd (base == "" ? "" : "\t" base)
	name = sp[1]
	for (i = 1; i <= nsp; i++) {
		s = sp[i]; long = s ~ /^--/
		if (value == "-") {
			line(pre "\t" s, "ok " name)
			if (long) line(pre "\t" s "=x", "err '\''" name "'\'' takes no value; give it alone, without '\''=x'\''")
		} else {
			if (i == 1) {
				line(pre "\t" s "\t" value, "ok " name)
				first = n
			} else {
				line(pre "\t" s "\t" value, "same " first)
			}
			if (long) line(pre "\t" s "=" value, "same " first)
			need = "err '\''" name "'\'' needs a value: '\''" name " "
			line(pre "\t" s, need)
			if (long) line(pre "\t" s "=", need)
		}
		if (s ~ /^--../) line(pre "\t" typo(s), "near " $2)
	}
	if (bad != "-") line(pre "\t" name "\t" bad, "err iomatrix: bad " name " '\''" bad "'\'': it takes ")
	if (outside != "-") line(pre "\t" name "\t" outside, "err iomatrix: bad " name " '\''" outside "'\'': it takes ")
}' "$T/dump"
"$IOMATRIX" --parse-lines <"$T/req" >"$T/got" 2>"$T/got.err" || fail "--parse-lines: $(cat "$T/got.err")"
[ "$(wc -l <"$T/got")" = "$(wc -l <"$T/req")" ] || fail "--parse-lines answered $(wc -l <"$T/got") of $(wc -l <"$T/req") lines"

# Each answer against its expectation; the failures, one per line.
awk -F'\t' -v expf="$T/exp" -v req="$T/req" '
{
	got[NR] = $0; rc = $1; text = substr($0, 3)
	getline want < expf; getline words < req
	kind = substr(want, 1, index(want, " ") - 1); arg = substr(want, index(want, " ") + 1)
	okay = 0
	if (kind == "ok")
		okay = rc == 0 && (index(text " ", " " arg " ") || index(text, " " arg "="))
	else if (kind == "same")
		okay = rc == 0 && $0 == got[arg + 0]
	else if (kind == "err")
		okay = rc == 2 && index(text, arg)
	else if (kind == "near") {
		okay = 0
		if (rc == 2 && match(text, /did you mean '\''[^'\'']*'\''/)) {
			s = substr(text, RSTART + 14, RLENGTH - 15)
			okay = index(" " arg " ", " " s " ") > 0
		}
	}
	if (!okay) { gsub(/\t/, " ", words); print words "  ->  " $0 "  (want " want ")" }
}' "$T/got" >"$T/fails"
total=$(wc -l <"$T/req")
[ -s "$T/fails" ] && not_ok "$(wc -l <"$T/fails") of $total command lines: $(head -n 20 "$T/fails")" ||
	ok "$total command lines over $rows options: both spellings, aliases, flags with a value, no value, typos, bad values"

# Each command parses by the table the batch used: its first option with
# its value, run for real with parse_only, prints what the batch printed.
for cmd in $(cut -f1 "$T/dump" | uniq); do
	n=$(awk -F'\t' -v c="$cmd" '$1 == c { print NR; exit }' "$T/req")
	words=$(sed -n "${n}p" "$T/req")
	set -f
	IFS_OLD=$IFS IFS=$(printf '\t')
	# shellcheck disable=SC2086
	set -- $words
	IFS=$IFS_OLD
	set +f
	IOMATRIX_TEST_HOOK=parse_only=1 "$IOMATRIX" "$@" >"$T/real" 2>"$T/real.err"
	rc=$?
	[ $rc = 0 ] && [ "0	$(cat "$T/real")" = "$(sed -n "${n}p" "$T/got")" ] ||
		not_ok "$cmd: the command parses otherwise: $* -> rc=$rc $(cat "$T/real" "$T/real.err")"
done
ok "every command parses by its table (one real run each)"

# the dump and the completion are one table: each command's options
tab=$(printf '\t')
for cmd in $(cut -f1 "$T/dump" | uniq); do
	a=$(awk -F"$tab" -v c="$cmd" '$1 == c { split($2, w, " "); print w[1] }' "$T/dump" | sort | tr '\n' ' ')
	b=$("$IOMATRIX" --complete -- "$cmd" - | sort | tr '\n' ' ')
	[ "$a" = "$b" ] || not_ok "$cmd: dump '$a', completion '$b'"
done
[ -z "$(ls -A "$T/cwd")" ] && [ ! -e "$T/results" ] && ok "nothing written" ||
	not_ok "written: $(ls -A "$T/cwd")"
tap_end
