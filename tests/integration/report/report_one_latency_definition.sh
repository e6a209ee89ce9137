#!/bin/sh
# One definition per number: the report's mean latency
# and p99 are of every IO of all repetitions together (the cell's
# summary.lat_ns_merged), the table, the summary and the charts alike, and
# `run`'s per-cell line prints the same two numbers.  A cell whose two
# repetitions differ (1000 IOs at 100 us, then 100 IOs at 1 ms): the mean
# of all IOs is 182 us (the one that meets Little's law with the mean
# IOPS), the mean of the repetitions' means 550 us; the merged p99 is
# 1.5 ms, the mean of the repetitions' p99s 1.1 ms.  The other side: a
# single repetition prints its own numbers, with no note about merging.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/a.json" <<'EOS'
[{"pattern":"randread","bs":4096,"hdd":[200,0.02],"ssd":[20000,0.02]}]
EOS
python3 "$ROOT/tests/report/gen_pair.py" "$T/a" "$T/a.json" || fail "generator failed"
python3 - "$T/a/cells/0002.json" <<'EOS' || fail "cannot edit the cell"
import json, sys
p = sys.argv[1]
c = json.load(open(p))
reps = c["repetitions"][:2]
for r, (ios, mean, p99) in zip(reps, [(1000, 100e3, 200e3), (100, 1000e3, 2000e3)]):
    r["runtime_ns"] = 10**9
    r["read"].update(ios=ios, bytes=ios * 4096, iops=ios, bw_bytes_s=ios * 4096.0)
    r["read"]["lat_ns"] = {"min": 1e3, "max": 5e6, "mean": mean, "stddev": 1.0,
                           "percentiles": {"50.000000": mean, "99.000000": p99}}
c["repetitions"] = reps
c["params"]["repeat"] = 2
def st(a, b):
    m = (a + b) / 2
    return {"n": 2, "mean": m, "stddev": abs(a - b) / 2 ** 0.5, "min": min(a, b), "max": max(a, b),
            "cv": 0.5, "ci95": 12.706 * abs(a - b) / 2}
c["summary"] = {"read": {"iops": st(1000, 100), "bw_bytes_s": st(4096e3, 4096e2),
                         "lat_mean_ns": st(100e3, 1000e3), "lat_p99_ns": st(200e3, 2000e3)},
                "lat_ns_merged": {"read": {"min": 1e3, "max": 5e6, "mean": 2e8 / 1100, "stddev": 1.0,
                                           "percentiles": {"50.000000": 1.1e5, "99.000000": 1.5e6}}}}
json.dump(c, open(p, "w"))
EOS
expect_exit 0 "$IOMATRIX" report "$T/a" --charts none --format md --baseline hdd
R="$T/a/report/report.md"
grep -q '^| ssd | .* | 0\.182 [^|]*| 1\.50 [^|]*|$' "$R" \
	&& ok "table: mean 0.182 ms and p99 1.50 ms, of every IO together" \
	|| not_ok "table: $(grep '^| ssd' "$R")"
grep -q 'mean and p99 latency are of every IO of the repetitions together' "$R" \
	&& ok "the table says what its latency is" || not_ok "no note"
grep -q 'ssd .* at 182 µs' "$R" && ok "the summary's mean is the table's" \
	|| not_ok "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$R")"
grep -q '0\.550\|550 µs\|1\.10 ' "$R" && not_ok "a mean of the repetitions' means or p99s is printed" \
	|| ok "no second definition printed"
# report.csv and report.json carry the same numbers beside the means over
# the repetitions
expect_exit 0 "$IOMATRIX" report "$T/a" --charts none --format csv,json --baseline hdd -o "$T/a2"
python3 - "$T/a2/report.csv" "$T/a2/report.json" <<'EOS' && ok "csv and json: lat_all_* = the table's, latency_kind total" || not_ok "csv/json"
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")) if r["device"] == "ssd"]
r = rows[0]
ok = abs(float(r["lat_all_mean_ns"]) - 2e8 / 1100) < 1 and float(r["lat_all_p99_ns"]) == 1.5e6 \
    and abs(float(r["lat_mean_ns_mean"]) - 550e3) < 1 and r["latency_kind"] == "total"
j = json.dumps(json.load(open(sys.argv[2])))
ok = ok and '"lat_all_p99_ns": 1500000' in j and '"latency_kind": "total"' in j
sys.exit(0 if ok else 1)
EOS
# one repetition: its own numbers, no note about merging
grep -q '^| hdd | .*\(n = 3\)\?' "$R" || true
python3 "$ROOT/tests/report/gen_pair.py" "$T/b" /dev/stdin <<'EOS' || fail "generator failed"
[{"pattern":"randread","bs":4096,"hdd":[200,0.02],"ssd":[20000,0.02],"reps":1}]
EOS
expect_exit 0 "$IOMATRIX" report "$T/b" --charts none --format md --baseline hdd
grep -q 'of every IO of the repetitions together' "$T/b/report/report.md" \
	&& not_ok "single runs get the merging note" || ok "single runs: no merging note"
grep -q '^| ssd | 20,000 | 81\.9 | 50\.0 | 100 |$' "$T/b/report/report.md" \
	&& ok "single run: its own mean and p99" || not_ok "single: $(grep '^| ssd' "$T/b/report/report.md")"
# run's per-cell line prints the table's two numbers
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: onedef
devices:
  - name: tmp
    path: $T/d
defaults: {engine: psync, size: 1MiB, requests: 3000, repeat: 3, direct: false}
matrix: {pattern: [randread]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/run"
LINE=$(grep '^cell 1/1' "$T/err")
python3 - "$T/run/cells/0001.json" "$LINE" <<'EOS' && ok "run line = lat_ns_merged mean and p99" || not_ok "run line: $LINE"
import json, re, sys
c = json.load(open(sys.argv[1]))
m = c["summary"]["lat_ns_merged"]["read"]
g = re.search(r"lat mean ([0-9.]+) us  p99 ([0-9.]+) us", sys.argv[2])
sys.exit(0 if g and abs(float(g.group(1)) - round(m["mean"] / 1e3, 1)) < 0.051
         and abs(float(g.group(2)) - round(m["percentiles"]["99.000000"] / 1e3, 1)) < 0.051 else 1)
EOS
tap_end
