#!/bin/sh
# `import sysbench` on real sysbench 1.0.20 fileio logs: every mode, several
# runs in one log (seed 003's script), mode/bs/threads from the header or the
# command line, and a set that report reads.
. "$(dirname "$0")/../../lib.sh"
D="$ROOT/tests/data/sysbench"

expect_exit 0 "$IOMATRIX" import sysbench "$D"/rndrd-bs4096-t16.log "$D"/rndwr-bs16384-t16.log \
	"$D"/rndrw-bs4096-t4.log "$D"/seqrd-bs16384-t1.log "$D"/seqwr-bs4096-t2.log \
	"$D"/seqrewr-bs16384-t16.log --device vda -o "$T/set"
n=$(ls "$T/set/cells" | wc -l)
[ "$n" = 6 ] && ok "six logs, six cells" || not_ok "$n cells"
for p in randread randwrite randrw '"read"' '"write"' rewrite; do
	grep -q "\"pattern\":[[:space:]]*\"*${p#\"}" "$T/set/plan.json" && ok "pattern $p" || not_ok "no $p cell"
done
grep -q '"kind":[[:space:]]*"sysbench"' "$T/set/manifest.json" && grep -q '"version":[[:space:]]*"sysbench 1.0.20"' "$T/set/manifest.json" \
	&& ok "source sysbench 1.0.20" || not_ok "manifest source"
grep -q '"rwmixread":[[:space:]]*60' "$T/set/plan.json" && ok "rndrw ratio 1.5 -> 60 % reads" || not_ok "rwmixread"
grep -q '"95.000000"' "$T/set/cells/0001.json" && ok "95th percentile kept" || not_ok "95th percentile"

expect_exit 0 "$IOMATRIX" import sysbench "$D/seed003-script-fileio.log" -o "$T/script"
[ "$(ls "$T/script/cells" | wc -l)" = 6 ] && ok "script log: six runs" || not_ok "script log"
grep -q '"device":[[:space:]]*"iomx-sb"' "$T/script/plan.json" && ok "device from the script's directory line" || not_ok "device"

# only the figures saved: the command line supplies the rest
sed -n '/^File operations:/,$p' "$D/rndrd-bs4096-t16.log" >"$T/tail.log"
"$IOMATRIX" import sysbench "$T/tail.log" -o "$T/x" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "give --mode" "$T/err" && ok "missing mode: exit 2, says --mode" || not_ok "rc=$rc $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" import sysbench "$T/tail.log" --mode rndrd --bs 4k --threads 16 -o "$T/tail"
grep -q '"jobs":[[:space:]]*16' "$T/tail/plan.json" && ok "--threads used" || not_ok "--threads"
"$IOMATRIX" import sysbench "$D/rndrd-bs4096-t16.log" --mode seqwr -o "$T/y" >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "contradicts" "$T/err" && ok "--mode contradicting the log: exit 2" || not_ok "rc=$rc"

"$IOMATRIX" report "$T/set" -o "$T/rep" --charts none >"$T/out" 2>"$T/err"; rc=$?
[ $rc = 0 ] && ok "report reads the imported set" || not_ok "report rc=$rc: $(head -n 3 "$T/err")"
tap_end
