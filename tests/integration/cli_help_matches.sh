#!/bin/sh
# `iomatrix --help` lists, for every command, exactly the options that the
# usage lines of `iomatrix COMMAND --help` name.
. "$(dirname "$0")/../lib.sh"
expect_exit 0 "$IOMATRIX" --help
# continuation lines (indented by six) belong to the line above
awk '/^      /{ sub(/^ +/, " "); printf "%s", $0; next } { if (NR > 1) print ""; printf "%s", $0 } END { print "" }' \
	"$T/out" >"$T/top"
awk 'length > 79' "$T/out" | grep -q . && not_ok "a --help line is wider than 79 columns" || ok "fits 79 columns"
cmds=$(sed -n 's/^  iomatrix \([a-z]*\) .*/\1/p' "$T/top" | sort -u)
[ -n "$cmds" ] || fail "no commands in --help"
opts() { grep -o -- '\(^\|[[ ]\)-[-a-z]*[a-z]' | tr -d '[ ' | sort -u | tr '\n' ' '; }
for c in $cmds; do
	top=$(grep "^  iomatrix $c " "$T/top" | opts)
	expect_exit 0 "$IOMATRIX" "$c" --help
	# the usage lines: from "usage:" to the first blank line
	sub=$(sed -n '/^usage:/,/^$/p' "$T/out" | opts)
	[ "$top" = "$sub" ] && ok "$c: $top" || not_ok "$c: --help says '$top', '$c --help' says '$sub'"
done
tap_end
