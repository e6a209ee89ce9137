#!/bin/sh
# Every importer takes decimal numbers only: an iops of 0x10 in a CSV
# imported as 16 (strtod reads hex, exponents, signs and blanks), a fio
# job option iodepth "+16" as 16.  Now each is refused with its position,
# exit 2, and nothing is written; the same rows in decimals import.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
printf 'device,pattern,bs,iops,lat_ms,mb_s\nssd,rndrd,4k,0x10,1,0.4\nhdd,rndrd,4k,100,1e0,0.4\n' >"$T/h.csv"
expect_exit 2 "$IOMATRIX" import csv "$T/h.csv" -o "$T/set"
grep -q "^$T/h.csv:2:14: bad iops '0x10'; expected a plain decimal" "$T/err" &&
	grep -q "^$T/h.csv:3:18: bad lat_ms '1e0'" "$T/err" && [ ! -e "$T/set" ] &&
	ok "csv: 0x10 and 1e0 refused at their positions, nothing written" || not_ok "csv: $(cat "$T/err")"
printf 'device,pattern,bs,iops,lat_ms,mb_s\nssd,rndrd,4k,16,1,0.4\nhdd,rndrd,4k,100,1,0.4\n' >"$T/d.csv"
expect_exit 0 "$IOMATRIX" import csv "$T/d.csv" -o "$T/set"
ok "csv: the same rows in decimals import"
python3 - "$ROOT/tests/data/fio/randread-4k-qd16.json" "$T/plus.json" <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
j["jobs"][0]["job options"]["iodepth"] = "+16"
json.dump(j, open(sys.argv[2], "w"))
P
expect_exit 2 "$IOMATRIX" import fio "$T/plus.json" -o "$T/fset"
grep -q "^$T/plus.json:1:[0-9]*: job 'randread4k': bad iodepth '+16'" "$T/err" && [ ! -e "$T/fset" ] &&
	ok "fio: iodepth '+16' refused, nothing written" || not_ok "fio: $(cat "$T/err")"
tap_end
