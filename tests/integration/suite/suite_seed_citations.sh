#!/bin/sh
# The seed suites cite the write-up they reproduce by title and author
# (not by a path only this project's workspace has), and the durations in
# their "(plan: ...)" comments are what `iomatrix plan` estimates, at full
# size ("at full size") and at --scale 0.01 ("at 0.01").
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
for f in suites/seed-*.yaml; do
	n=$(basename "$f" .yaml)
	grep -q 'shared/seeds' "$f" && not_ok "$n points at ../shared/seeds" || ok "$n: no workspace path"
	grep -q '^# Source: ' "$f" && ok "$n cites its source" || not_ok "$n: no '# Source:' line"
	c=$(sed -n '/(plan:/,/)/p' "$f" | tr '\n' ' ')
	full=$(echo "$c" | sed -n 's/.*(plan: \([0-9hms]*\)[^,;]*at full size.*/\1/p')
	small=$(echo "$c" | sed -n 's/.*[ ,]\([0-9hms]*\) at 0\.01.*/\1/p')
	if [ -n "$full" ]; then
		"$IOMATRIX" plan "$f" | grep -q "estimated duration $full " && ok "$n: full size $full as plan says" \
			|| not_ok "$n: comment says $full, plan says $("$IOMATRIX" plan "$f" | grep -o 'estimated duration [^ ]*')"
	fi
	if [ -n "$small" ]; then
		"$IOMATRIX" plan "$f" --scale 0.01 | grep -q "estimated duration $small " \
			&& ok "$n: --scale 0.01 $small as plan says" \
			|| not_ok "$n: comment says $small at 0.01, plan says $("$IOMATRIX" plan "$f" --scale 0.01 | grep -o 'estimated duration [^ ]*')"
	fi
done
tap_end
