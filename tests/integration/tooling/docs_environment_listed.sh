#!/bin/sh
# Every environment variable that the program reads by name is a user's,
# named in the manual page's ENVIRONMENT section, except the test hook
# (IOMATRIX_TEST_HOOK: not for users, not in the page) and PATH.
# IOMATRIX_TRACE, the IO log, was read but not in the page: this test
# failed on it; GITHUB_STEP_SUMMARY (compare) is read too, not only
# IOMATRIX_* names.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
# getenv("NAME") and getenv(MACRO) with #define MACRO "NAME"
vars=$(find cmd bench report -name '*.[ch]' | xargs awk '
	/#[ \t]*define[ \t]+[A-Z_]+[ \t]+"IOMATRIX_[A-Z_]+"/ { m = $0; sub(/^[^"]*"/, "", m); sub(/".*/, "", m); def[$2] = m }
	{ l = $0
	  while (match(l, /getenv\([A-Za-z_"]+\)/)) {
		a = substr(l, RSTART + 7, RLENGTH - 8); l = substr(l, RSTART + RLENGTH)
		if (a ~ /^"[A-Z_]+"$/) { gsub(/"/, "", a); if (a != "PATH") seen[a] } else used[a]
	  } }
	END { for (a in used) if (a in def) seen[def[a]]; for (v in seen) print v }' | sort)
for v in IOMATRIX_TRACE GITHUB_STEP_SUMMARY; do
	echo "$vars" | grep -qx "$v" || fail "the reader of $v was not found: $vars"
done
sh man/mkman.sh "$IOMATRIX" 0.0 > "$T/iomatrix.1" || fail "mkman failed"
sed -n '/^\.SH ENVIRONMENT/,/^\.SH [^E]/p' "$T/iomatrix.1" > "$T/env"
[ -s "$T/env" ] || fail "the page has no ENVIRONMENT section"
for v in $vars; do
	if [ "$v" = IOMATRIX_TEST_HOOK ]; then
		grep -q "$v" "$T/iomatrix.1" && not_ok "the page names the test hook" ||
			ok "the test hook is not in the page"
		continue
	fi
	grep -q "^\.B $v\$" "$T/env" && ok "$v is in the page's ENVIRONMENT" ||
		not_ok "$v is read but not in the page's ENVIRONMENT"
done
tap_end
