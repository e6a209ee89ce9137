#!/bin/sh
# Numbers the one cell validator refuses are refused
# by the import itself (exit 2, the file and the cause, nothing written),
# not written for `report` to call "treated as failed" later: fio iops, bw
# and a percentile of 1e308, total_ios of 1e30, p1 = 1000 s beside a max
# of 5.5 ms, percentile keys nan / -3 / 1e400; sysbench reads/s 1e308 or
# 1e20, events 1e23, latency min above max, total time 1e300 s, reads/s
# 0x10 and a second reads/s line.  The untouched files still import.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
fio="$ROOT/tests/data/fio/randread-4k-qd16.json"
sb="$ROOT/tests/data/sysbench/rndrd-bs4096-t16.log"
mkdir -p "$T/sets"
refused() { # kind file name what-the-message-says
	expect_exit 2 "$IOMATRIX" import "$1" "$2" -o "$T/sets/$3"
	if grep -q "$(basename "$2")" "$T/err" && grep -q -- "$4" "$T/err" && [ ! -e "$T/sets/$3" ] &&
	   [ -z "$(ls -A "$T/sets")" ]; then
		ok "$1 $3 refused, nothing written"
	else
		not_ok "$1 $3: rc/message/leftovers: $(cat "$T/err") $(ls -A "$T/sets")"
	fi
}
for w in iops bw ios pct p1 nan neg3 1e400; do
	python3 - "$fio" "$T/f-$w.json" "$w" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["jobs"][0]["read"]; p = r["clat_ns"]["percentile"]; w = sys.argv[3]
if w == "iops": r["iops"] = 1e308
elif w == "bw": r["bw_bytes"] = 1e308
elif w == "ios": r["total_ios"] = 1e30
elif w == "pct": p["99.990000"] = 1e308
elif w == "p1": p["1.000000"] = 1e12
else: p[{"nan": "nan", "neg3": "-3", "1e400": "1e400"}[w]] = 5000
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
done
refused fio "$T/f-iops.json" iops "'iops' is 1e+308"
refused fio "$T/f-bw.json" bw "'bw_bytes_s' is 1e+308"
refused fio "$T/f-ios.json" ios "a count past 2^64"
refused fio "$T/f-pct.json" pct "1e+308"
refused fio "$T/f-p1.json" p1 "p1.000000 is 1000000000000 ns, above max"
refused fio "$T/f-nan.json" nan "percentile key 'nan'"
refused fio "$T/f-neg3.json" neg3 "percentile key '-3'"
refused fio "$T/f-1e400.json" 1e400 "percentile key '1e400'"

edit() { # name sed-expression
	sed "$2" "$sb" >"$T/s-$1.log"
	cmp -s "$sb" "$T/s-$1.log" && fail "edit $1 changed nothing"
}
edit r1e308 's|67970.51|1e308|'
edit r1e20 's|67970.51|100000000000000000000.00|'
edit events 's|events: *100000$|events:              100000000000000000000000|'
edit minmax 's|min: *0.02|min:                                    99.00|'
edit time 's|1.4703s|1e300s|'
edit hex 's|67970.51|0x10|'
edit dup '/reads\/s:/{p;s|67970.51|16.00|}'
refused sysbench "$T/s-r1e308.log" r1e308 "bad number for reads/s"
refused sysbench "$T/s-r1e20.log" r1e20 "'iops' is 1e+20"
refused sysbench "$T/s-events.log" events "'events' is 1e+23"
refused sysbench "$T/s-minmax.log" minmax "min, mean and max are out of order"
refused sysbench "$T/s-time.log" time "bad number for total time"
refused sysbench "$T/s-hex.log" hex "bad number for reads/s: '0x10'"
refused sysbench "$T/s-dup.log" dup "a second 'reads/s' line"

expect_exit 0 "$IOMATRIX" import fio "$fio" -o "$T/good-fio"
expect_exit 0 "$IOMATRIX" import sysbench "$sb" -o "$T/good-sb"
expect_exit 0 "$IOMATRIX" report "$T/good-fio" "$T/good-sb" -o "$T/rep"
grep -q "treated as failed" "$T/err" && not_ok "report: $(cat "$T/err")" || ok "the untouched files import and report"
tap_end
