#!/bin/sh
# Device names are the user's ("a", "throttled") and stand in the summary
# as names: never "The a is faster", "the a's favour", "The throttled's best
# means".  The synthetic "throttled" is 3x faster on reads and 2x slower on
# writes than "a", so every comparative sentence is written.
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
for dev in ("a", "throttled"):
    for p, bs, qd in work:
        i += 1
        iops = 1000.0 * (speed[p] if dev == "throttled" else 1)
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
     "suite": {"name": "mixed", "sha256": hashlib.sha256(b"x").hexdigest()}, "devices": [{"name": "a", "path": "/x/a"}, {"name": "throttled", "path": "/x/throttled"}],
     "cells_total": i, "cells": idx}
json.dump(m, open(d + "/manifest.json", "w"))
EOP
expect_exit 0 "$IOMATRIX" report "$T/set" --charts none --format md --baseline a -o "$T/rep"
S=$(sed -n '/^## Summary/,/^## /p' "$T/rep/report.md")
echo "$S" | grep -q 'The result is mixed: throttled wins 3 of 5 workloads; a wins .*by up to 2.00x' &&
	ok "mixed: the names stand alone" || not_ok "mixed: $(echo "$S" | grep mixed)"
echo "$S" | grep -q "The largest gap in favour of throttled: on .*, throttled did 3.00x the .* of a\." &&
	echo "$S" | grep -q "The largest gap in favour of a: on .*, a did 2.00x the .* of throttled\." &&
	ok "gaps: in favour of NAME, NAME did Nx the X of NAME" || not_ok "gaps: $(echo "$S" | grep gap)"
echo "$S" | grep -q "The best means of throttled were" && echo "$S" | grep -q "The best means of a were" &&
	ok "best means of NAME" || not_ok "means: $(echo "$S" | grep means)"
echo "$S" | grep -qi "the a \|the a's\|the throttled\|throttled's\|a's " && not_ok "a name used as a noun: $(echo "$S" | grep -i "the a \|the a's\|the throttled\|throttled's\|a's ")" ||
	ok "no name behind 'the' or before \"'s\""
# one device only: no comparative sentence at all, and still no noun
python3 - "$T/set" "$T/one" <<'EOP'
import json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
shutil.copytree(src, dst)
m = json.load(open(dst + "/manifest.json"))
keep = [c for c in m["cells"] if c["device"] == "throttled"]
for c in m["cells"]:
    if c["device"] != "throttled":
        os.remove(dst + "/" + c["file"])
m["cells"], m["devices"], m["cells_total"] = keep, [d for d in m["devices"] if d["name"] == "throttled"], len(keep)
json.dump(m, open(dst + "/manifest.json", "w"))
EOP
expect_exit 0 "$IOMATRIX" report "$T/one" --charts none --format md -o "$T/rep1"
S1=$(sed -n '/^## Summary/,/^## /p' "$T/rep1/report.md")
echo "$S1" | grep -q "faster\|in favour of\|mixed" && not_ok "a comparison with one device: $S1" || ok "one device: no comparison"
echo "$S1" | grep -q "The best means of throttled were" && ! echo "$S1" | grep -qi "throttled's" &&
	ok "one device: best means of throttled" || not_ok "one device: $S1"
tap_end
