#!/bin/sh
# How history checks its index rows (10,000 sets in a second is the
# goal), counted with strace:
#   - with the index current, no system call names a set by its full path
#     (the walk and the stamps look each set up relative to the archive's
#     descriptor), no JSON file is opened, and no directory is read through
#     fdopendir (its F_GETFL): the old scan made 6 full-path lookups and 4
#     fcntl a set;
#   - and the stamp still stats every file: the set whose cell was
#     rewritten in place is read from its files (opened by its path, its
#     JSON files read), and no other set is.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd strace
export SOURCE_DATE_EPOCH=1800000000
python3 "$ROOT/tests/report/gen_archive.py" "$T/a" --sets 3 --cells 2 --hosts web1,web2 --seed 5 --sums \
	>/dev/null || fail "generator"
expect_exit 0 "$IOMATRIX" index "$T/a"
A=$(cd "$T/a" && pwd -P)
(cd "$A" && ls -d */ | sed 's,/$,,') >"$T/sets"
[ "$(wc -l <"$T/sets")" -eq 6 ] || fail "expected 6 sets: $(cat "$T/sets")"
traced() { # OUT: history of $A under strace into OUT.st, its JSON into OUT.json,
	   # the calls that name a set by its full path into OUT.path
	# (LeakSanitizer cannot run under ptrace: the sanitizer build's leak
	# check is off for these two runs)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=%file,fcntl,getdents64 -o "$T/$1.st" \
		"$IOMATRIX" history "$A" --format json >"$T/$1.json" 2>"$T/$1.err" ||
		fail "history: $(cat "$T/$1.err")"
	sed "s,.*,\"$A/&," "$T/sets" | grep -F -f - "$T/$1.st" >"$T/$1.path"
}
traced current
n=$(wc -l <"$T/current.path")
[ "$n" -eq 0 ] && ok "index current: no set looked up by its full path" ||
	not_ok "$n calls name a set by its full path: $(head -n 3 "$T/current.path")"
json='openat([^)]*\.json", O_RDONLY'
n=$(grep -c "$json" "$T/current.st")
[ "$n" -eq 0 ] && ok "index current: no JSON file of a set opened" ||
	not_ok "$n JSON files opened: $(grep "$json" "$T/current.st" | head -n 3)"
n=$(grep -c "F_GETFL" "$T/current.st")
[ "$n" -eq 0 ] && ok "no directory read through fdopendir" || not_ok "$n F_GETFL calls"

# a cell rewritten in place under its own name: only its set is read
cell=$(ls "$A"/*/cells/*.json | head -n 1)
set=$(basename "$(dirname "$(dirname "$cell")")")
python3 - "$cell" <<'PY' || fail "rewrite in place"
import sys
f = sys.argv[1]
d = open(f).read()
with open(f, "r+") as o:  # the same file and bytes: only its times change
    o.truncate(0)
    o.write(d)
PY
traced rewritten
n=$(grep -c "$json" "$T/rewritten.st")
if [ "$n" -gt 0 ] && grep -qF "\"$A/$set\"" "$T/rewritten.path"; then
	ok "a cell rewritten in place: its set read from its files ($n JSON files opened)"
else
	not_ok "the rewritten cell's set was served from the index ($n JSON files opened)"
fi
n=$(grep -vcF "\"$A/$set" "$T/rewritten.path")
[ "$n" -eq 0 ] && ok "no other set read" || not_ok "$n calls name other sets: $(grep -vF "$set" "$T/rewritten.path" | head -n 3)"
cmp -s "$T/current.json" "$T/rewritten.json" && ok "the same JSON either way" ||
	not_ok "history differs after the same bytes were written again"
tap_end
