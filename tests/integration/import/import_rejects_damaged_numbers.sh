#!/bin/sh
# Numbers an importer cannot trust are errors, not quiet results: a
# sysbench log cut inside "total time: 12.0007s" (it imported as 1 s with
# no latency), and fio JSON with a negative latency or percentile (the
# report showed a negative p99).  Nothing is written in either case.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
log="$ROOT/tests/data/sysbench/rndrd-bs4096-t16.log"
line=$(grep -n 'total time:' "$log" | head -n 1 | cut -d: -f1)
head -n $((line - 1)) "$log" >"$T/cut.log"
grep 'total time:' "$log" | head -n 1 | sed 's/\(total time: *[0-9]\).*/\1/' | tr -d '\n' >>"$T/cut.log"
expect_exit 2 "$IOMATRIX" import sysbench "$T/cut.log" -o "$T/s1"
grep -q "cut short" "$T/err" && [ ! -e "$T/s1" ] && ok "cut sysbench log refused" || not_ok "cut log: $(cat "$T/err")"
for what in lat_min lat_pct; do
	python3 - "$ROOT/tests/data/fio/randread-4k-qd16.json" "$T/neg.json" "$what" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["jobs"][0]["read"]
if sys.argv[3] == "lat_min":
    r["lat_ns"]["min"] = -5
else:
    p = r["clat_ns"]["percentile"]
    p[sorted(p)[-3]] = -12345
json.dump(d, open(sys.argv[2], "w"))
PY
	expect_exit 2 "$IOMATRIX" import fio "$T/neg.json" -o "$T/f-$what"
	grep -q "negative" "$T/err" && [ ! -e "$T/f-$what" ] && ok "fio with negative $what refused" || not_ok "$what: $(cat "$T/err")"
done
tap_end
