#!/bin/sh
# Sets of one folder name in three archive directories: the site gives
# each its own page (the first keeps the name, the others a slug with a
# hash of their path), the index links all three, and each page is its
# own set's report.  The names are found in a hash table of the slugs,
# not by comparing each set with every earlier one.
. "$(dirname "$0")/../../lib.sh"
cat >"$T/dup.yaml" <<'Y'
suite: dup
defaults:
  engine: null
  size: 16MiB
  runtime: 100ms
devices:
  - {name: d, path: f1}
matrix:
  pattern: [randread]
  bs: [4k]
Y
for a in A B C; do
	mkdir -p "$T/$a"
	(cd "$T" && "$IOMATRIX" run dup.yaml --out "$a/same" --progress=none >/dev/null 2>&1) ||
		fail "run $a failed"
done
expect_exit 0 "$IOMATRIX" site "$T/A" "$T/B" "$T/C" -o "$T/S"
n=$(ls "$T/S/sets" | grep -c '^same')
[ "$n" = 3 ] && ok "three pages for three sets named 'same'" || not_ok "pages: $(ls "$T/S/sets")"
[ -d "$T/S/sets/same" ] && ok "the first keeps its name" || not_ok "no sets/same: $(ls "$T/S/sets")"
links=$(grep -o 'sets/same[^"/]*/report.html' "$T/S/index.html" | sort -u | wc -l)
[ "$links" = 3 ] && ok "the index links all three" || not_ok "links: $links"
for d in "$T/S/sets"/same*; do
	set=$(grep -o -- "--out [ABC]/same" "$d/report.html" | head -n 1)
	[ -n "$set" ] && echo "$set" >>"$T/owners" || not_ok "$(basename "$d"): names no set"
done
[ "$(sort -u "$T/owners" | wc -l)" = 3 ] && ok "each page is its own set's report" ||
	not_ok "owners: $(cat "$T/owners")"
tap_end
