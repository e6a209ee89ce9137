#!/bin/sh
# The binary answers --version/--help, every subcommand has --help, unknown
# commands exit 2 with a message on stderr.
. "$(dirname "$0")/../../lib.sh"

expect_exit 0 "$IOMATRIX" --version
grep -q '^iomatrix [0-9]' "$T/out" && ok "--version prints version" || not_ok "--version: $(cat "$T/out")"
grep -q 'git ' "$T/out" && ok "--version names the git commit" || not_ok "--version lacks commit"

expect_exit 0 "$IOMATRIX" --help
grep -q 'iomatrix run' "$T/out" && ok "--help lists run" || not_ok "--help"

"$IOMATRIX" >/dev/null 2>&1; [ $? = 2 ] && ok "no args exits 2" || not_ok "no args"
"$IOMATRIX" frobnicate >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "unknown command 'frobnicate'" "$T/err" && [ ! -s "$T/out" ] \
	&& ok "unknown command exits 2 on stderr" || not_ok "unknown command rc=$rc"

for c in run plan validate report compare list import export; do
	"$IOMATRIX" $c --help >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 0 ] && grep -qi "usage" "$T/out"; then ok "$c --help"
	else not_ok "$c --help (rc=$rc)"; fi
done
tap_end
