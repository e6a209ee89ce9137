#!/bin/sh
# Which directories of an archive history takes as sets, with and without
# its index (the scan learns whether a directory is a set from the stat
# its stamp makes, then walks one level below those that are none):
#   - a set directly in the archive, and one a level down (imports/x);
#   - not one two levels down (junk/deeper/x), nor under a dot directory,
#     nor through a link; a directory whose manifest.json is a directory
#     and that has no cells/ is no set;
#   - examples/ is the repository's own: left out and said so.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
export SOURCE_DATE_EPOCH=1800000000
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 3 --cells 2 --hosts web1 --seed 4 --sums \
	>/dev/null || fail "generator"
cd "$T/a" || fail "cd"
set -- $(ls -d 2*)
[ $# -eq 3 ] || fail "expected 3 sets: $*"
mkdir -p imports junk/deeper .hidden examples fake/manifest.json
mv "$1" imports/
mv "$2" junk/deeper/
cp -a "$3" .hidden/hidden_copy
cp -a "$3" examples/example_copy
ln -s "$T/a/$3" link_copy
cd - >/dev/null || fail "cd"
points() { # FILE: the sets of history's points, one a line, sorted
	python3 -c 'import json, sys
print("\n".join(sorted({p["set"] for s in json.load(open(sys.argv[1]))["series"] for p in s["points"]})))' "$1"
}
check() { # WHAT
	points "$T/out" >"$T/sets"
	printf '%s\n%s\n' "$1" "$3" | sort >"$T/want"
	cmp -s "$T/sets" "$T/want" && ok "$WHAT: the set at the top and the one in imports/" ||
		not_ok "$WHAT: $(tr '\n' ' ' <"$T/sets") (want $(tr '\n' ' ' <"$T/want"))"
	grep -q "1 example and reference set of this repository left out" "$T/err" &&
		ok "$WHAT: examples/ left out and said" || not_ok "$WHAT: $(cat "$T/err")"
}
WHAT="without an index"
expect_exit 0 "$IOMATRIX" history "$T/a" --format json
check "$@"
cp "$T/out" "$T/no-index.json"
expect_exit 0 "$IOMATRIX" index "$T/a"
WHAT="with the index"
expect_exit 0 "$IOMATRIX" history "$T/a" --format json
check "$@"
cmp -s "$T/out" "$T/no-index.json" && ok "the same bytes with and without the index" ||
	not_ok "history differs with the index"
tap_end
