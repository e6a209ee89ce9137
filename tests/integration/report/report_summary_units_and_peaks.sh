#!/bin/sh
# Summary sentences compare blocks of 64 KiB and more in MB/s and smaller
# blocks in IOPS; a device's best IOPS and best MB/s on one workload name it
# once ("both on ..."), on two workloads name each; and a mean is not
# called a peak (a plateau sentence may name a faster first second).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/a.json" <<'EOS'
[{"pattern":"randread","bs":4096,"hdd":[200,0.02],"ssd":[20000,0.02]},
 {"pattern":"read","bs":1048576,"hdd":[150,0.02],"ssd":[500,0.02]},
 {"pattern":"write","bs":131072,"qd":32,"hdd":[1530,0.02],"ssd":[3000,0.02]}]
EOS
python3 "$ROOT/tests/report/gen_pair.py" "$T/a" "$T/a.json" || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/a" --charts none --format md --baseline hdd
S=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/a/report/report.md")
echo "$S" | grep -q 'On 1M sequential reads at QD1, ssd did 3.33x the MB/s of hdd' \
	&& ok "1M compared in MB/s" || not_ok "1M: $S"
echo "$S" | grep -q '1M sequential reads[^.]*the IOPS' && not_ok "1M in IOPS: $S" || ok "1M not in IOPS"
echo "$S" | grep -q 'on 4K random reads at QD1, ssd did 100x the IOPS of hdd' \
	&& ok "4K compared in IOPS" || not_ok "4K: $S"
# the hdd's best IOPS (1,530) and best MB/s (201) are both the 128K write
echo "$S" | grep -q "The best means of hdd were 1,530 IOPS and 201 MB/s, both on 128K sequential writes at QD32\." \
	&& ok "one workload named once" || not_ok "hdd: $S"
n=$(echo "$S" | grep "^- The best means of hdd" | grep -o '128K sequential writes' | wc -l)
[ "$n" = 1 ] && ok "no repeated workload" || not_ok "named $n times"
# the ssd's best IOPS and MB/s are on two workloads: each named
echo "$S" | grep -q "The best means of ssd were 20,000 IOPS on 4K random reads at QD1 and 524 MB/s on 1M sequential reads at QD1\." \
	&& ok "two workloads, each named" || not_ok "ssd: $S"
echo "$S" | grep -q 'peaked' && not_ok "a mean called a peak" || ok "no 'peaked' for a mean"
tap_end
