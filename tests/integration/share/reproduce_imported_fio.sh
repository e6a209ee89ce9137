#!/bin/sh
# reproduce of a set imported from fio JSON runs the fio job's own
# parameters: fio 3.33's randread-4k-qd16.json (libaio, direct=1,
# rw=randread, bs=4k, iodepth=16, size=32m, runtime=2) becomes a set whose
# suite.yaml the reproduction runs, here at --scale 0.05 so it takes 100 ms.
# The new cell has the job's pattern, block size, queue depth, engine and
# direct IO; the scaled size and runtime, and the fingerprint fio did not
# record, are named among the differences; one repetition a side gives no
# verdict but "too few repetitions" (never "reproduced").  A fio document
# without job options cannot be re-run: exit 2 listing what is missing.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
"$IOMATRIX" import fio "$ROOT/tests/data/fio/randread-4k-qd16.json" -o "$T/fio" >/dev/null 2>&1 ||
	fail "import fio failed"
mkdir -p "$T/d"
"$IOMATRIX" run --help >/dev/null 2>&1 || fail "no iomatrix"
"$IOMATRIX" reproduce "$T/fio" --device iomx-fio="$T/d/ssd.dat" --scale 0.05 --out "$T/rep" \
	--quiet >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 2 ] && grep -q "O_DIRECT" "$T/err"; then
	skip "the scratch filesystem refuses O_DIRECT: $(cat "$T/err")"
fi
[ $rc = 0 ] && ok "reproduce exit 0" || { cat "$T/err"; not_ok "exit $rc"; tap_end; }
p=$(jq -c '.params | [.pattern, .bs_bytes, .iodepth, .jobs, .engine, .direct, .label]' "$T/rep/cells/0001.json")
[ "$p" = '["randread",4096,16,1,"libaio",true,"randread4k"]' ] &&
	ok "the reproduction ran fio's job: $p" || not_ok "params: $p"
[ "$(jq -r .reproduces.set "$T/rep/manifest.json")" = fio ] && ok "manifest names the imported set" ||
	not_ok "reproduces: $(jq -c .reproduces "$T/rep/manifest.json")"
grep -q "^  too few repetitions iomx-fio: 4K random read, QD16, size 32M, 2s run (randread4k), IOPS: original 79,000" "$T/err" &&
	ok "one repetition a side: too few to judge" || not_ok "verdict: $(cat "$T/err")"
grep -q "^Reproduced" "$T/err" && not_ok "claims reproduced on one repetition" || ok "no 'Reproduced' claim"
grep -q "^  parameter size_bytes: 33554432 in the original, 1048576 in the reproduction" "$T/err" &&
	grep -q "^  not recorded by the original, so not comparable: kernel, CPU model" "$T/err" &&
	ok "differences: the scaled size, the fingerprint fio lacks" || not_ok "differences: $(cat "$T/err")"

# fio JSON without "job options": what a re-run needs is missing
jq 'del(.jobs[0]["job options"]) | del(.["global options"])' \
	"$ROOT/tests/data/fio/randread-4k-qd16.json" >"$T/noopts.json"
"$IOMATRIX" import fio "$T/noopts.json" -o "$T/noopts" >/dev/null 2>&1 || fail "import of noopts failed"
expect_exit 2 "$IOMATRIX" reproduce "$T/noopts" --device iomx-fio="$T/d/x.dat" --out "$T/rep2"
grep -q "cell 1 (.*): fio's job options (the JSON has no \"job options\")" "$T/err" && [ ! -e "$T/rep2" ] &&
	ok "no job options: exit 2 listing what is missing" || not_ok "noopts: $(cat "$T/err")"
tap_end
