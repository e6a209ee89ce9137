#!/bin/sh
# SIGINT mid-run: exit 130 within a second or so, the set is readable and
# marked interrupted with the finished cells kept, no scratch file is left;
# --resume runs only the missing cells and ends complete.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-sigint
defaults:
  engine: psync
  direct: false
  size: 1MiB
  runtime: 400ms
devices:
  - name: d
    path: /nonexistent
matrix:
  pattern: [randread, randwrite, read, write, randrw, rewrite]
Y
# SIGINT in the middle of the second cell: the test hook
# (bench/util/testhook.h) pauses every cell two intervals (200 ms) into
# its measurement, and the second pause gets the signal (the test waited
# for the first cell file and slept before)
mkfifo "$T/hook" || fail "mkfifo"
IOMATRIX_TEST_HOOK="interval:2+,fifo=$T/hook" \
	"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" >"$T/out" 2>"$T/err" &
pid=$!
( while line=$(hook_wait "$T/hook") && [ -n "$line" ]; do
	echo "$line" >>"$T/pauses"
	[ "$(wc -l <"$T/pauses")" = 2 ] && date +%s%N >"$T/t0" && kill -INT $pid
	hook_go "$T/hook"
done ) &
loop=$!
wait $pid; rc=$?
t1=$(date +%s%N)
timeout 5 sh -c ': >"$1"' _ "$T/hook" # an empty line ends the loop
wait $loop
t0=$(cat "$T/t0" 2>/dev/null || echo "$t1")
[ "$(wc -l <"$T/pauses")" = 2 ] && [ -f "$T/set/cells/0001.json" ] && ok "interrupted in the second cell" ||
	not_ok "pauses: $(tr '\n' ' ' <"$T/pauses" 2>/dev/null)"
[ $rc = 130 ] && ok "exit 130" || not_ok "exit $rc: $(cat "$T/err")"
ms=$(( (t1 - t0) / 1000000 ))
[ $ms -lt 3000 ] && ok "stopped in $ms ms" || not_ok "took $ms ms to stop"
st=$(jq -r .status "$T/set/manifest.json")
[ "$st" = interrupted ] && ok "set marked interrupted" || not_ok "status $st"
n=$(jq '.cells | length' "$T/set/manifest.json")
[ "$n" -ge 1 ] && [ "$n" -lt 6 ] && ok "$n finished cells kept" || not_ok "$n cells in index"
for f in "$T/set"/cells/*.json; do jq empty "$f" || not_ok "$f unreadable"; done
[ -z "$(ls "$T/scratch")" ] && ok "no scratch files left" || not_ok "left: $(ls "$T/scratch")"
grep -q -- "--resume" "$T/err" && ok "message says how to resume" || not_ok "no resume hint"

expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --resume "$T/set" --quiet
[ "$(cat "$T/out")" = "$T/set" ] && ok "resume prints the set" || not_ok "resume stdout '$(cat "$T/out")'"
[ "$(jq -r .status "$T/set/manifest.json")" = complete ] && ok "resumed set complete" || not_ok "not complete"
[ "$(jq '.cells | length' "$T/set/manifest.json")" = 6 ] && ok "all 6 cells" || not_ok "cells"
[ "$(jq '[.cells[].id] == [1,2,3,4,5,6]' "$T/set/manifest.json")" = true ] && ok "index in order" || not_ok "index order"
[ "$(jq '.resumed_at | length' "$T/set/manifest.json")" = 1 ] && ok "resume recorded" || not_ok "resumed_at"
[ -z "$(ls "$T/scratch")" ] && ok "no scratch files after resume" || not_ok "left: $(ls "$T/scratch")"
# nothing left to do: a second resume runs no cell and stays complete
expect_exit 0 "$IOMATRIX" run --resume "$T/set" --quiet
[ "$(jq -r .status "$T/set/manifest.json")" = complete ] && ok "resume of a complete set is a no-op" || not_ok "second resume"
tap_end
