#!/bin/sh
# Warning lists are bounded: a set whose manifest holds 5000 bad index
# entries gives report a few warning lines ending in "... and N more",
# not 5000; an import with 5000 bad CSV rows prints at most 100 errors
# and "... and N more".
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 2 >/dev/null || fail "generator failed"
python3 - "$T/set/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["cells"] += [{"id": -i} for i in range(1, 5001)]
json.dump(m, open(sys.argv[1], "w"))
PY
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none
n=$(grep -c 'warning' "$T/err")
[ "$n" -le 25 ] && grep -q '\.\.\. and [0-9]* more warnings' "$T/err" && ok "report: $n warning lines, capped" ||
	not_ok "report printed $n warning lines"
{ echo "device,pattern,bs,iops,lat_ms,mib_s"; i=0; while [ $i -lt 5000 ]; do echo "d,rndrd,4k,x,1,1"; i=$((i + 1)); done; } >"$T/bad.csv"
expect_exit 2 "$IOMATRIX" import csv "$T/bad.csv" -o "$T/imp"
n=$(wc -l <"$T/err")
[ "$n" -le 103 ] && grep -q '^\.\.\. and [0-9]* more' "$T/err" && ok "import: $n error lines, capped" ||
	not_ok "import printed $n lines"
tap_end
