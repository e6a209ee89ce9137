#!/bin/sh
# --resume checks the scale it reads from the set as --scale is checked:
# 1e400, -1, 0 and "2" are refused with exit 2 and a message about the
# set (not about a --scale flag nobody gave); the set is left untouched.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-scale
defaults: {engine: psync, direct: false, size: 64KiB, runtime: 20ms}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k}
  - {pattern: read, bs: 4k}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
python3 - "$T/set/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["cells"] = m["cells"][:1]
m["status"] = "interrupted"
json.dump(m, open(sys.argv[1], "w"))
PY
for v in 1e400 -1 0 '"2"'; do
	sed "s/\"scale\": *[^,}]*/\"scale\": $v/" "$T/set/manifest.json" >"$T/m" && cp "$T/m" "$T/set/manifest.json"
	cp "$T/set/manifest.json" "$T/before.json"
	timeout 30 "$IOMATRIX" run --resume "$T/set" --quiet >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc = 2 ] && grep -q "'scale' is not a factor" "$T/err" && ! grep -q -- "--scale" "$T/err"; then
		ok "scale $v refused"; else not_ok "scale $v: exit $rc: $(cat "$T/err")"; fi
	cmp -s "$T/before.json" "$T/set/manifest.json" && ok "scale $v: set untouched" || not_ok "scale $v: manifest changed"
done
tap_end
