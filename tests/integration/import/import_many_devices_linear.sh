#!/bin/sh
# Import scales linearly: a CSV with N devices and fio output with N jobs
# (each on its own file, so its own device) import quickly (N=2000 here to
# keep make test short; IMPORT_N=10000 for the issue's figure).
# Device naming used to recurse over every earlier device (exponential:
# 32 devices took more than 10 s) and fio import compared each job with
# every earlier one.  The timeout is a hang guard, not a benchmark: the
# elapsed times are printed.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd timeout
# 2 x 2,000 cell files made and removed: on ext4 that was 1.2 s of kernel
# CPU per import, 0.05 s on tmpfs
tmpfs_T
N=${IMPORT_N:-2000}
cd "$ROOT" && python3 - "$T" "$N" <<'PY'
import json, sys
t, n = sys.argv[1], int(sys.argv[2])
with open(t + "/many.csv", "w") as f:
    f.write("device,pattern,bs,iops,lat_ms,mib_s\n")
    for i in range(n):
        # names that fold to the same suite name, to exercise clashes
        f.write('"disk %d %s",rndrd,4k,%d,0.5,1.0\n' % (i // 2, '(x)' if i % 2 else '[x]', 1000 + i))
d = json.load(open("tests/data/fio/randread-4k-qd16.json"))
job = d["jobs"][0]
job["jobname"] = "j@@N@@"
job["job options"]["filename"] = "/mnt/d@@N@@/f.dat"
d["jobs"] = []
d.pop("disk_util", None)
# the job as text once, its number put in n times (a deepcopy and a dump
# of each job cost most of this test's CPU)
head, tail = json.dumps(d).rsplit('"jobs": []', 1)
one = json.dumps(job)
with open(t + "/many.json", "w") as f:
    f.write(head + '"jobs": [' + ", ".join(one.replace("@@N@@", str(i)) for i in range(n)) + "]" + tail)
PY
[ -s "$T/many.json" ] || fail "generator failed"
s0=$(date +%s.%N)
expect_exit 0 timeout 60 "$IOMATRIX" import csv "$T/many.csv" -o "$T/csvset"
s1=$(date +%s.%N)
n=$(ls "$T/csvset/cells" | wc -l)
[ "$n" = $N ] && ok "csv: $N devices imported ($(echo "$s1 - $s0" | bc) s)" || not_ok "csv: $n cells"
names=$(grep -c '^  - name:' "$T/csvset/suite.yaml")
uniq=$(grep '^  - name:' "$T/csvset/suite.yaml" | sort -u | wc -l)
[ "$names" = $N ] && [ "$uniq" = $N ] && ok "csv: $N distinct suite device names" || not_ok "csv: $names names, $uniq distinct"
head -n 41 "$T/many.csv" >"$T/forty.csv"
expect_exit 0 timeout 20 "$IOMATRIX" import csv "$T/forty.csv" -o "$T/forty"
expect_exit 0 "$IOMATRIX" validate "$T/forty/suite.yaml"
ok "csv: 40 devices (20 clashing names) give a suite that validates"
s0=$(date +%s.%N)
expect_exit 0 timeout 60 "$IOMATRIX" import fio "$T/many.json" -o "$T/fioset"
s1=$(date +%s.%N)
n=$(ls "$T/fioset/cells" | wc -l)
[ "$n" = $N ] && ok "fio: $N jobs imported ($(echo "$s1 - $s0" | bc) s)" || not_ok "fio: $n cells"
tap_end
