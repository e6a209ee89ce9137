#!/bin/sh
# A set that a run is still writing cannot be resumed at the same time
# (two writers would interleave cells): exit 2 with a message; once the
# first run is over, the set is complete and untouched by the attempt.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-locked
defaults: {engine: "null", size: 1MiB, runtime: 50ms}
devices:
  - {name: d, path: /nonexistent}
matrix:
  pattern: [randread, randwrite, read, write, randrw, readwrite]
Y
# the first run pauses after its first cell (the test hook,
# bench/util/testhook.h) while the resume is tried: mid-run for sure,
# where a sleep could land after the run had ended
mkfifo "$T/hook" || fail "mkfifo"
IOMATRIX_TEST_HOOK="cell:1,fifo=$T/hook" \
	"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet >/dev/null 2>"$T/err1" &
pid=$!
line=$(hook_wait "$T/hook")
[ "$line" = "cell 1" ] || not_ok "the run did not pause after its first cell: '$line'"
expect_exit 2 "$IOMATRIX" run --resume "$T/set" --quiet
grep -q "being written by another iomatrix run" "$T/err" && ok "concurrent resume refused" \
	|| not_ok "message: $(cat "$T/err")"
hook_go "$T/hook"
wait $pid; rc=$?
[ $rc = 0 ] && ok "first run completes" || not_ok "first run exit $rc: $(cat "$T/err1")"
[ "$(jq -r .status "$T/set/manifest.json")" = complete ] && ok "set complete" || not_ok "status"
[ "$(jq '.resumed_at // [] | length' "$T/set/manifest.json")" = 0 ] && ok "no resume recorded" || not_ok "resume recorded"
tap_end
