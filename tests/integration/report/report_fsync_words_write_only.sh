#!/bin/sh
# fsync wording only on workloads that write: a read test with fsync=100
# (fio ignores it: there is nothing to sync) is not titled "fsync every
# 100", a write test with it is; and the imported sysbench set, whose one
# best workload holds both the best IOPS and MB/s, names its long
# parameter list once in the summary, not twice.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/a.json" <<'EOS'
[{"pattern":"randread","bs":4096,"fsync":100,"hdd":[200,0.02],"ssd":[20000,0.02]},
 {"pattern":"randwrite","bs":4096,"fsync":100,"hdd":[150,0.02],"ssd":[500,0.02]}]
EOS
python3 "$ROOT/tests/report/gen_pair.py" "$T/a" "$T/a.json" || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/a" --charts none --format md --baseline hdd
R="$T/a/report/report.md"
grep -q '^### 4K random write, fsync every 100$' "$R" && ok "write test: fsync every 100" \
	|| not_ok "write title: $(grep '^### ' "$R")"
grep -q '^### 4K random read.*fsync' "$R" && not_ok "read test says fsync: $(grep '^### ' "$R")" \
	|| ok "read test: no fsync words"
grep -q '^### 4K random read$' "$R" && ok "read title plain" || not_ok "read title: $(grep '^### ' "$R")"
grep -q 'random reads[^.]*fsync' "$R" && not_ok "a sentence gives a read test an fsync" || ok "no fsync in read sentences"

D="$ROOT/tests/data/sysbench"
expect_exit 0 "$IOMATRIX" import sysbench "$D"/rndrd-bs4096-t16.log "$D"/seqrd-bs16384-t1.log \
	"$D"/seqrewr-bs16384-t16.log --device vda -o "$T/sb"
expect_exit 0 "$IOMATRIX" report "$T/sb" --charts none --format md
S=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/sb/report/report.md")
line=$(echo "$S" | grep '^- The best means of vda')
n=$(echo "$line" | grep -o 'stop rule not recorded' | wc -l)
[ "$n" = 1 ] && ok "sysbench parameters said once" || not_ok "said $n times: $line"
echo "$line" | grep -q 'both on 16K sequential rewrites (QD1, 16 jobs, end fsync, 4 files' \
	&& ok "the rewrite keeps its end fsync" || not_ok "sysbench: $line"
grep -q '^### 4K random read, QD1, 16 jobs, 4 files.*(RND4K' "$T/sb/report/report.md" \
	&& ok "sysbench read: no end fsync" || not_ok "sysbench read: $(grep '^### 4K' "$T/sb/report/report.md")"
tap_end
