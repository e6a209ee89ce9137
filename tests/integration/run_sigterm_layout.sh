#!/bin/sh
# SIGTERM while the file set is being laid out (or just after) stops the run
# within about a second: exit 130, set 'interrupted' with no cell, the
# partly written scratch file removed.
. "$(dirname "$0")/../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-sigterm
defaults: {engine: psync, direct: false, size: 512MiB, runtime: 30s}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k}
Y
"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ -z "$(ls "$T/scratch")" ] && [ $i -lt 50 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
t0=$(date +%s%N)
kill -TERM $pid
wait $pid; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ $rc = 130 ] && ok "exit 130" || not_ok "exit $rc: $(cat "$T/err")"
[ $ms -lt 3000 ] && ok "stopped in $ms ms" || not_ok "took $ms ms"
[ "$(jq -r .status "$T/set/manifest.json")" = interrupted ] && ok "set interrupted" || not_ok "status"
[ "$(jq '.cells | length' "$T/set/manifest.json")" = 0 ] && ok "no unfinished cell written" || not_ok "cells written"
[ -z "$(ls "$T/scratch")" ] && ok "scratch file removed" || not_ok "left: $(ls -la "$T/scratch")"
tap_end
