#!/usr/bin/env python3
"""gen_pair.py OUT SPEC.json - a two-device result set (hdd, ssd) for the
summary tests, each workload with chosen means and 95 % intervals.

SPEC is a JSON list of workloads:
  {"pattern": "randread", "bs": 4096, "qd": 1, "fsync": 0,
   "hdd": [value, ci_frac], "ssd": [value, ci_frac], "reps": 3}
value is the IOPS summed over directions; ci_frac is the half-width of
the 95 % interval as a fraction of the mean.  reps (default 3) below 2
gives single runs (no interval).  The repetitions are spread so that
their Student-t 95 % interval is that wide (values evenly spaced about
the mean), so a reader computing from the repetitions (the report's ratio
intervals) sees the same spread as one reading the summary."""
import hashlib, json, os, sys

T975 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 8: 2.365, 10: 2.262}

def spread(m, frac, n):
    """n values with mean m whose 95 % interval is +-frac*m."""
    if n < 2:
        return [m] * n
    z = [i - (n - 1) / 2 for i in range(n)]
    sd = (sum(x * x for x in z) / (n - 1)) ** 0.5
    s = frac * m * n ** 0.5 / T975[n]
    return [m + s * x / sd for x in z]

def stat(m, frac, n):
    return {"mean": m, "stddev": frac * m / 2.5, "min": m * (1 - frac), "max": m * (1 + frac),
            "cv": frac / 2.5, "ci95": frac * m if n > 1 else 0, "n": n}

def main():
    out, spec = sys.argv[1], json.load(open(sys.argv[2]))
    os.makedirs(out + "/cells")
    idx, i = [], 0
    for dev in ("hdd", "ssd"):
        for w in spec:
            i += 1
            p, bs, qd, n = w["pattern"], w["bs"], w.get("qd", 1), w.get("reps", 3)
            iops, frac = w[dev]
            dirs = {"randrw": ["read", "write"], "rw": ["read", "write"]}.get(
                p, ["write"] if "write" in p else ["read"])
            summ, reps = {}, []
            for r in range(n):
                reps.append({"rep": r + 1, "runtime_ns": 10**9})
            for dn in dirs:
                v = iops / len(dirs)
                lat = 1e9 / v * qd
                summ[dn] = {"iops": stat(v, frac, n), "bw_bytes_s": stat(v * bs, frac, n),
                            "lat_mean_ns": stat(lat, frac, n), "lat_p99_ns": stat(2 * lat, frac, n)}
                for rep, x in zip(reps, spread(v, frac, n)):
                    rep[dn] = {"ios": int(x), "bytes": int(x) * bs, "iops": x, "bw_bytes_s": x * bs,
                               "lat_ns": {"min": 1e3, "max": 1e9, "mean": lat, "stddev": 1.0,
                                          "percentiles": {"50.000000": lat, "99.000000": 2 * lat}}}
            params = {"device": dev, "path": "/x/" + dev, "pattern": p, "bs_bytes": bs, "iodepth": qd,
                      "jobs": 1, "engine": "libaio", "direct": True, "size": 1 << 30, "files": 1,
                      "runtime_ns": 10**9, "repeat": n, "rwmixread": 50, "data": "random",
                      "label": "", "fsync": w.get("fsync", 0)}
            c = {"schema_version": 1, "id": i, "status": "ok", "error": None, "params": params,
                 "repetitions": reps, "summary": summ}
            json.dump(c, open("%s/cells/%04d.json" % (out, i), "w"))
            idx.append({"id": i, "file": "cells/%04d.json" % i, "device": dev, "label": "",
                        "status": "ok"})
    m = {"schema_version": 1, "kind": "iomatrix-result-set", "status": "complete",
         "started_at": "2026-11-30T00:00:00Z", "finished_at": "2026-11-30T00:01:00Z", "scale": 1,
         "source": {"kind": "iomatrix"}, "host": {"hostname": "h"},
         "suite": {"name": "pair", "sha256": hashlib.sha256(b"x").hexdigest()},
         "devices": [{"name": "hdd", "path": "/x/hdd"}, {"name": "ssd", "path": "/x/ssd"}],
         "cells_total": i, "cells": idx}
    json.dump(m, open(out + "/manifest.json", "w"))

if __name__ == "__main__":
    main()
