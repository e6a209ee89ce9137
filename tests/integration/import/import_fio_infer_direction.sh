#!/bin/sh
# fio's JSON holds only the options given: a real fio 2.2.10 random-write
# output with no "job options" (15,624.7 write IOPS) used to import with
# exit 0 as "4K sequential read, 0 IOPS".  The direction now comes from the
# sections that did IO, with write IOPS, bandwidth and mean latency exact,
# and the cell says what was inferred and which defaults were assumed; a
# job whose options name rw says nothing of it; reads and writes infer a
# mix at the data's read share; the queue depth comes from iodepth_level and
# the block size from the bytes per IO; a job whose sections all show zero IO is
# refused (exit 2, the job's position, nothing written).
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
F="$ROOT/tests/data/fio/fio-2.2.10-randwrite-no-job-options.json"
expect_exit 0 "$IOMATRIX" import fio "$F" -o "$T/set"
c="$T/set/cells/0001.json"
w() { jq -r ".repetitions[0].write$1" "$c"; }
[ "$(jq -r .params.pattern "$c")" = write ] && ok "pattern write, inferred" || not_ok "pattern $(jq -r .params.pattern "$c")"
[ "$(w .iops)" = 15624.7 ] && ok "write IOPS 15624.7" || not_ok "iops $(w .iops)"
[ "$(w .bw_bytes_s)" = 63998976 ] && ok "bw 62499 KiB/s = 63998976 B/s" || not_ok "bw $(w .bw_bytes_s)"
[ "$(w .lat_ns.mean)" = 8148430 ] && [ "$(w .lat_total_ns.mean)" = 8182260 ] &&
	ok "mean latency exact (clat 8148.43 us, lat 8182.26 us)" || not_ok "means $(w .lat_ns.mean) $(w .lat_total_ns.mean)"
[ "$(jq -r '.repetitions[0].read // "none" | type' "$c")" != object ] && ok "no read direction" || not_ok "a read direction"
jq -r '.warnings[]' "$c" | grep -q "names no rw for this job, so its parameters are partly inferred from the output; pattern: writes, from the sections that did IO; sequential or random is not recorded" &&
	ok "the cell says the direction was inferred" || not_ok "warnings: $(jq -c .warnings "$c")"
# The depth from iodepth_level (100 % at >=64; IOPS x latency
# says ~128 in flight), not fio's default 1; bs from the bytes per IO; each
# inferred key says where it came from (ioengine and direct are given)
[ "$(jq -r .params.iodepth "$c")" = 64 ] && ok "iodepth 64 (iodepth_level's >=64), not 1" \
	|| not_ok "iodepth $(jq -r .params.iodepth "$c")"
[ "$(jq -r '.source.inferred_keys | keys | join(",")' "$c")" = bs,iodepth,pattern ] \
	&& ok "inferred: pattern, bs, iodepth" || not_ok "inferred_keys: $(jq -c .source.inferred_keys "$c")"
jq -r .source.inferred_keys.iodepth "$c" | grep -q "^64 or more, from fio's iodepth_level (100.0 % of IOs at depth 64 or more" &&
	ok "iodepth: said as a range, from iodepth_level" || not_ok "iodepth: $(jq -r .source.inferred_keys.iodepth "$c")"
jq -r .source.inferred_keys.bs "$c" | grep -q "^4096 bytes, the bytes per IO" &&
	ok "bs: from the bytes per IO" || not_ok "bs: $(jq -r .source.inferred_keys.bs "$c")"
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none -o "$T/rep"
# What was inferred is said as inferred wherever it is printed
grep -q "^### 4K write, pattern not recorded, QD 64 or more from fio's iodepth\\\\_level (randwrite-4k-qd128)$" "$T/rep/report.md" &&
	! grep -q "sequential read\|sequential write" "$T/rep/report.md" &&
	ok "the report calls it a write, pattern not recorded, QD from iodepth_level" \
	|| not_ok "report: $(grep '^###' "$T/rep/report.md")"
grep -q "both on 4K writes, pattern not recorded (QD 64 or more" "$T/rep/report.md" &&
	ok "the summary says the same" || not_ok "summary: $(grep 'best means' "$T/rep/report.md")"
grep -q "^| queue depth | 64 (inferred: 64 or more, from fio's iodepth" "$T/rep/report.md" &&
	grep -q "^| random offsets | not recorded" "$T/rep/report.md" &&
	ok "the Method says which values are inferred" || not_ok "method: $(grep '^| queue depth\|^| random off' "$T/rep/report.md")"
grep -q "NOT THE SAME: the import inferred pattern, bs, iodepth" "$T/rep/fio-commands.txt" &&
	ok "the fio command is marked a guess" || not_ok "fio: $(head -3 "$T/rep/fio-commands.txt")"
mkdir -p "$T/arch" && cp -r "$T/set" "$T/arch/"
expect_exit 0 "$IOMATRIX" history "$T/arch"
grep -q "randwrite-4k-qd128 write (pattern not recorded)" "$T/out" && ok "history: the series says it too" \
	|| not_ok "history: $(cat "$T/out")"
grep -q "| ssd | 15,600 |" "$T/rep/report.md" && ok "report: 15,600 IOPS" || not_ok "report row: $(grep '| ssd |' "$T/rep/report.md")"
grep -q "pattern: writes, from the sections that did IO" "$T/rep/report.md" && ok "the report says it was inferred" || not_ok "report lacks the inference"
# silent: the same output with its job options names rw; nothing inferred
expect_exit 0 "$IOMATRIX" import fio "$ROOT/tests/data/fio/fio-2.2.10-randwrite-4k-qd128.json" -o "$T/given"
c2="$T/given/cells/0001.json"
[ "$(jq -r .params.pattern "$c2")" = randwrite ] && ok "rw given: randwrite" || not_ok "given: $(jq -r .params.pattern "$c2")"
jq -r '.warnings[]' "$c2" | grep -q "inferred" && not_ok "inference claimed with rw given" || ok "rw given: nothing said inferred"
[ "$(jq -r '.source.inferred // "none"' "$c2")" = none ] && ok "rw given: no source.inferred" || not_ok "source.inferred with rw given"
# reads and writes without rw: a mix at the data's read share (128794 of 171709 IOs: 75 %)
jq 'del(.jobs[0]["job options"].rw, .jobs[0]["job options"].rwmixread)' "$ROOT/tests/data/fio/randrw-75-jsonplus.json" >"$T/mix.json"
expect_exit 0 "$IOMATRIX" import fio "$T/mix.json" -o "$T/mix"
[ "$(jq -r '[.params.pattern, .params.rwmixread] | join(",")' "$T/mix/cells/0001.json")" = readwrite,75 ] &&
	ok "reads and writes: readwrite at 75 % reads" || not_ok "mix: $(jq -c '.params | {pattern, rwmixread}' "$T/mix/cells/0001.json")"
jq -r '.warnings[]' "$T/mix/cells/0001.json" | grep -q "pattern: reads and writes, from the sections that did IO" &&
	ok "the mix is said inferred" || not_ok "mix warnings: $(jq -c .warnings "$T/mix/cells/0001.json")"
# every section zero: refused, with rw and without
sed -e 's/"io_bytes" : 3749928/"io_bytes" : 0/' -e 's/"bw" : 62499/"bw" : 0/' \
	-e 's/"iops" : 15624.70/"iops" : 0.00/' -e 's/"total_ios" : 937482/"total_ios" : 0/' "$F" >"$T/zero.json"
grep -q 937482 "$T/zero.json" && fail "zero.json still holds IOs"
expect_exit 2 "$IOMATRIX" import fio "$T/zero.json" -o "$T/zero"
grep -q "zero.json:14:[0-9]*: job 'randwrite-4k-qd128': its read, write and trim sections all show zero IO" "$T/err" &&
	ok "a job with zero IO is refused, at its name" || not_ok "zero: $(cat "$T/err")"
[ -e "$T/zero" ] && not_ok "a set was written" || ok "nothing written"
sed -e 's/"io_bytes" : 3749928/"io_bytes" : 0/' -e 's/"total_ios" : 937482/"total_ios" : 0/' \
	"$ROOT/tests/data/fio/fio-2.2.10-randwrite-4k-qd128.json" >"$T/zero2.json"
expect_exit 2 "$IOMATRIX" import fio "$T/zero2.json" -o "$T/zero2"
grep -q "all show zero IO" "$T/err" && ok "zero IO refused with rw given too" || not_ok "zero2: $(cat "$T/err")"
tap_end
