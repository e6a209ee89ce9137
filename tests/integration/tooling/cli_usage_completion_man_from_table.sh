#!/bin/sh
# Each command's option table (bench/util/optspec.h) is the one list of its
# options: the "usage:" lines of `iomatrix COMMAND --help`, the command's
# lines in `iomatrix --help`, its section of the man page (a .TP paragraph
# per option) and the bash
# completion of "iomatrix COMMAND -" all name exactly the table's options
# (as `iomatrix --complete` reports them), the help text describes each
# and the parser knows each.
. "$(dirname "$0")/../../lib.sh"
need_cmd bash
cd "$ROOT" || fail "no root"
opts() { grep -o -- '\(^\|[[ ]\)-[-a-z]*[a-z]' | tr -d '[ ' | sort -u | tr '\n' ' '; }
# continuation lines (indented) belong to the line above
joined() { awk '/^      /{ sub(/^ +/, " "); printf "%s", $0; next } { if (NR > 1) print ""; printf "%s", $0 } END { print "" }'; }
comp() { # words... -> COMPREPLY, one per line, through the installed script
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iomatrix; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$ROOT/completion/iomatrix.bash" "$@"
}

expect_exit 0 "$IOMATRIX" --help
awk 'length > 79' "$T/out" | grep -q . && not_ok "a --help line is wider than 79 columns" || ok "--help fits 79 columns"
joined <"$T/out" >"$T/top"
cmds=$(sed -n 's/^  iomatrix \([a-z]*\) .*/\1/p' "$T/top" | sort -u)
[ -n "$cmds" ] || fail "no commands in --help"
sh man/mkman.sh "$IOMATRIX" 0.0 >"$T/iomatrix.1" || fail "mkman failed"
mkdir -p "$T/cwd" "$T/results"
for c in $cmds; do
	table=$("$IOMATRIX" --complete -- "$c" - | opts)
	[ "$c" = agent ] || [ -n "$table" ] || { not_ok "$c: no option table (iomatrix --complete -- $c -)"; continue; }
	top=$(grep "^  iomatrix $c " "$T/top" | opts)
	expect_exit 0 "$IOMATRIX" "$c" --help
	usage=$(sed -n '/^usage:/,/^$/p' "$T/out" | opts)
	man=$(sed -n "/^\\.SS \"iomatrix $c\"/,/^\\.fi/p" "$T/iomatrix.1" | sed -e 's/\\-/-/g' |
		sed -n '/^usage:/,/^$/p' | opts)
	bashc=$(comp "$IOMATRIX" "$c" - | opts)
	# and the text below the usage lines says what each one does (OPT
	# followed by no letter or '-'; matched in the shell, not a grep each)
	body=$(sed '1,/^$/d' "$T/out")
	for o in $table; do
		case "$body " in *"$o"[!a-z-]*) ;; *) not_ok "$c --help does not describe '$o'" ;; esac
	done
	[ "$usage" = "$table" ] && ok "$c usage: $table" || not_ok "$c: table '$table', usage '$usage'"
	[ "$top" = "$table" ] && ok "$c --help synopsis" || not_ok "$c: table '$table', --help '$top'"
	[ "$man" = "$table" ] && ok "$c man page" || not_ok "$c: table '$table', man page '$man'"
	# and each option is a paragraph of its own there (.TP, its tag bold)
	tags=" $(sed -n "/^\\.SS \"iomatrix $c\"/,/^\\.SS/p" "$T/iomatrix.1" |
		sed -n '/^\.TP$/{n;s/^\.B "\(.*\)"$/\1/p;}' | sed -e 's/\\-/-/g' -e 's/,/ /g' | tr '\n' ' ') "
	for o in $table; do
		case "$tags" in *" $o "*) ;; *) not_ok "$c: '$o' has no .TP paragraph of the man page ($tags)" ;; esac
	done
	[ "$bashc" = "$table" ] && ok "$c completion" || not_ok "$c: table '$table', completion '$bashc'"
	# the parser takes every option of the table (without its value: a
	# usage error, but not an unknown option); nothing is run or written
	for o in $table; do
		err=$(cd "$T/cwd" && IOMATRIX_RESULTS="$T/results" "$IOMATRIX" "$c" "$o" </dev/null 2>&1 >/dev/null)
		case $err in *"unknown option"*) not_ok "$c: the parser does not know '$o'" ;; esac
	done
done
left=$(find "$T/cwd" "$T/results" -mindepth 1)
[ -z "$left" ] && ok "the parser checks wrote nothing" || not_ok "files written: $left"
tap_end
