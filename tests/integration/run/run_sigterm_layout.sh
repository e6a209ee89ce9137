#!/bin/sh
# SIGTERM while the file set is being laid out stops the run within about a
# second: exit 130, set 'interrupted' with no cell, the partly written
# scratch file removed.  The test hook (bench/util/testhook.h) pauses the
# layout after 8 of its 64 MiB for the signal (a sleep needed 512 MiB to
# have a chance of landing in the layout, and could not tell a stop in the
# layout from one after it).
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-sigterm
defaults: {engine: psync, direct: false, size: 64MiB, runtime: 30s}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k}
Y
mkfifo "$T/hook" || fail "mkfifo"
IOMATRIX_TEST_HOOK="layout_chunk:8+,fifo=$T/hook" \
	"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet >"$T/out" 2>"$T/err" &
pid=$!
# the layout pauses at its 8th MiB and at every one after it: the first
# pause gets the signal, and any later one means the layout went on
( while line=$(hook_wait "$T/hook") && [ -n "$line" ]; do
	echo "$line" >>"$T/pauses"
	[ "$(wc -l <"$T/pauses")" = 1 ] && ls "$T/scratch" >"$T/during" && date +%s%N >"$T/t0" && kill -TERM $pid
	hook_go "$T/hook"
done ) &
loop=$!
wait $pid; rc=$?
t1=$(date +%s%N)
timeout 5 sh -c ': >"$1"' _ "$T/hook" # an empty line ends the loop
wait $loop
[ "$(cat "$T/pauses" 2>/dev/null)" = "layout_chunk 8" ] && [ -s "$T/during" ] && ok "SIGTERM in the layout, which stopped there" ||
	not_ok "pauses in the layout: $(tr '\n' ' ' <"$T/pauses" 2>/dev/null | cut -c1-80)"
ms=$(( (t1 - $(cat "$T/t0" 2>/dev/null || echo "$t1")) / 1000000 ))
[ $rc = 130 ] && ok "exit 130" || not_ok "exit $rc: $(cat "$T/err")"
[ $ms -lt 3000 ] && ok "stopped in $ms ms" || not_ok "took $ms ms"
[ "$(jq -r .status "$T/set/manifest.json")" = interrupted ] && ok "set interrupted" || not_ok "status"
[ "$(jq '.cells | length' "$T/set/manifest.json")" = 0 ] && ok "no unfinished cell written" || not_ok "cells written"
[ -z "$(ls "$T/scratch")" ] && ok "scratch file removed" || not_ok "left: $(ls -la "$T/scratch")"
tap_end
