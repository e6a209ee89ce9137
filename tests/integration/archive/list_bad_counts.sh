#!/bin/sh
# list checks every count it reads from a manifest before using it:
# cells_total 1e400, -5 or 2.5 and index entries without a valid id show
# as '?' or are counted as bad entries, never as -2147483648 or "8/-5".
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir "$T/arch"
for t in 1e400 -5 2.5 '"many"'; do
	d="$T/arch/2026-11-30T0000${#t}Z_t_$(echo "$t" | tr -dc 'a-z0-9')"
	python3 "$ROOT/tests/report/gen_synthetic.py" "$d" --cells 2 >/dev/null || fail "generator failed"
	python3 - "$d/manifest.json" "$t" <<'PY'
import json, sys, re
p, tot = sys.argv[1], sys.argv[2]
m = json.load(open(p))
m["cells_total"] = "@TOT@"
m["cells"] += [{"id": -3, "status": "ok"}, {"id": 1e300, "status": "ok"}, {"status": "ok"}, {"id": "x"}]
open(p, "w").write(json.dumps(m).replace('"@TOT@"', tot))
PY
done
expect_exit 0 "$IOMATRIX" list "$T/arch"
grep -q -- '-2147483648\|/-5\|/2\b' "$T/out" && not_ok "a bad count printed as a number: $(cat "$T/out")" || ok "no bad count printed"
n=$(grep -c '4/? (bad cells_total) (4 bad index entries)' "$T/out")
[ "$n" = 4 ] && ok "each set: 4/? with 4 bad index entries" || not_ok "got: $(cat "$T/out")"
tap_end
