#!/bin/sh
# The summary names the largest gap in each direction and says plainly when
# the result is mixed: the synthetic "ssd" below is 3x faster on reads and
# 2x slower on writes than the baseline; no workload is named twice.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 - "$T/set" <<'EOP' || fail "cannot write the set"
import json, os, sys, hashlib
d = sys.argv[1]
os.makedirs(d + "/cells")
cells, idx = [], []
work = [("randread", 4096, 1), ("randread", 4096, 32), ("read", 1048576, 1), ("write", 1048576, 1), ("randwrite", 4096, 1)]
speed = {"randread": 3.0, "read": 3.0, "write": 0.5, "randwrite": 0.5}
i = 0
for dev in ("hdd", "ssd"):
    for p, bs, qd in work:
        i += 1
        iops = 1000.0 * (speed[p] if dev == "ssd" else 1)
        dirn = "write" if "write" in p else "read"
        reps = []
        for r in range(3):
            v = iops * (1 + 0.01 * (r - 1))
            reps.append({"rep": r + 1, "runtime_ns": 10**9, dirn: {"ios": int(v), "bytes": int(v) * bs, "iops": v, "bw_bytes_s": v * bs, "lat_ns": {"min": 1e5, "max": 1e9, "mean": 1e9 / v * qd, "stddev": 1.0, "percentiles": {"50.000000": 1e9 / v * qd, "99.000000": 2e9 / v * qd}}}})
        def st(vals):
            m = sum(vals) / len(vals)
            return {"mean": m, "stddev": 0.01 * m, "min": min(vals), "max": max(vals), "cv": 0.01, "ci95": 0.025 * m, "n": len(vals)}
        summ = {dirn: {"iops": st([x[dirn]["iops"] for x in reps]), "bw_bytes_s": st([x[dirn]["bw_bytes_s"] for x in reps]),
                       "lat_mean_ns": st([x[dirn]["lat_ns"]["mean"] for x in reps]), "lat_p99_ns": st([x[dirn]["lat_ns"]["percentiles"]["99.000000"] for x in reps])}}
        params = {"device": dev, "path": "/x/" + dev, "pattern": p, "bs": bs, "iodepth": qd, "jobs": 1, "engine": "libaio", "direct": True,
                  "size": 1 << 30, "files": 1, "runtime_ns": 10**9, "repeat": 3, "rwmixread": 50, "data": "random", "label": ""}
        c = {"schema_version": 1, "id": i, "status": "ok", "error": None, "params": params, "repetitions": reps, "summary": summ}
        json.dump(c, open("%s/cells/%04d.json" % (d, i), "w"))
        idx.append({"id": i, "file": "cells/%04d.json" % i, "device": dev, "label": "", "status": "ok"})
m = {"schema_version": 1, "kind": "iomatrix-result-set", "status": "complete", "started_at": "2026-11-30T00:00:00Z",
     "finished_at": "2026-11-30T00:01:00Z", "scale": 1, "source": {"kind": "iomatrix"}, "host": {"hostname": "h"},
     "suite": {"name": "mixed", "sha256": hashlib.sha256(b"x").hexdigest()}, "devices": [{"name": "hdd", "path": "/x/hdd"}, {"name": "ssd", "path": "/x/ssd"}],
     "cells_total": i, "cells": idx}
json.dump(m, open(d + "/manifest.json", "w"))
EOP
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none --format md --baseline hdd
S=$(sed -n '/^## Summary/,/^Throughput is in/p' "$T/set/report/report.md")
echo "$S" | grep -q 'The result is mixed: ssd wins 3 of 5 workloads; hdd wins .*write.*by up to 2.00x' \
	&& ok "mixed sentence" || not_ok "mixed: $S"
echo "$S" | grep -q "largest gap in favour of ssd: on .*reads.*3.00x" && ok "largest ssd gap" || not_ok "ssd gap"
echo "$S" | grep -q "largest gap in favour of hdd: on .*writes.*2.00x" && ok "largest hdd gap" || not_ok "hdd gap"
echo "$S" | grep -q 'smallest gap' && not_ok "'smallest gap' is back" || ok "no one-sided 'smallest gap'"
# no workload named twice in the gap sentences
dups=$(echo "$S" | grep -o 'on [0-9][0-9KM]* [a-z ]*\(reads\|writes\)\( at QD[0-9]*\)\?,' | sort | uniq -d)
[ -z "$dups" ] && ok "no workload repeated" || not_ok "repeated: $dups"
tap_end
