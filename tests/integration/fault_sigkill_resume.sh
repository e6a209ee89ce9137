#!/bin/sh
# SIGKILL in the middle of a run (no handler can run): the set left behind is
# readable JSON (manifest still 'running', every indexed cell file complete),
# and --resume runs the missing cells and ends 'complete' with every cell.
. "$(dirname "$0")/../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-sigkill
defaults: {engine: "null", size: 1MiB, runtime: 150ms}
devices:
  - {name: d, path: /nonexistent}
matrix:
  pattern: [randread, randwrite, read, write, randrw, readwrite]
  bs: [4k, 64k]
Y
"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet >"$T/out" 2>"$T/err" &
pid=$!
i=0
indexed() { jq '.cells | length' "$T/set/manifest.json" 2>/dev/null || echo 0; }
while [ "$(indexed)" -lt 3 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ "$(indexed)" -ge 3 ] || { kill -9 $pid; fail "no third cell after 10 s: $(cat "$T/err")"; }
kill -KILL $pid
wait $pid 2>/dev/null
m="$T/set/manifest.json"
jq empty "$m" 2>/dev/null && ok "manifest readable after SIGKILL" || not_ok "manifest unreadable: $(head -c 200 "$m")"
[ "$(jq -r .status "$m")" = running ] && ok "status still running" || not_ok "status $(jq -r .status "$m")"
n=$(jq '.cells | length' "$m")
[ "$n" -ge 3 ] && [ "$n" -lt 12 ] && ok "$n cells indexed" || not_ok "$n cells indexed"
bad=0
for f in $(jq -r '.cells[].file' "$m"); do
	jq -e '.status == "ok"' "$T/set/$f" >/dev/null 2>&1 || { bad=1; not_ok "indexed cell '$f' unreadable"; }
done
[ $bad = 0 ] && ok "every indexed cell file is complete"
for f in "$T/set"/cells/*.json; do
	jq empty "$f" 2>/dev/null || not_ok "half-written '$f'"
done

expect_exit 0 "$IOMATRIX" run --resume "$T/set" --quiet
[ "$(jq -r .status "$m")" = complete ] && ok "resumed to complete" || not_ok "status $(jq -r .status "$m")"
[ "$(jq '[.cells[].id] == [range(1;13)]' "$m")" = true ] && ok "all 12 cells, in order" \
	|| not_ok "index: $(jq -c '[.cells[].id]' "$m")"
[ "$(ls "$T/set/cells" | grep -c '\.json$')" = 12 ] && ok "12 cell files" || not_ok "cell files: $(ls "$T/set/cells")"
[ -z "$(ls "$T/scratch")" ] && ok "no scratch files" || not_ok "scratch: $(ls "$T/scratch")"
tap_end
