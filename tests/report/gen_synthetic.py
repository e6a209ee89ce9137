#!/usr/bin/env python3
"""gen_synthetic.py - write a SYNTHETIC schema-v1 result set (results/README.md)
for report/compare/list tests and the report benchmark.  The numbers come
from a toy device model, not from a run: manifest source.kind is "synthetic".

usage: gen_synthetic.py OUTDIR [--devices hdd:hdd,ssd:ssd] [--cells N]
        [--repeat R] [--seed S] [--host NAME] [--status complete|interrupted]
        [--missing K] [--failed K] [--perf DEV=FACTOR] [--noise CV]
        [--data random|zero] [--buffered] [--started ISO] [--suite NAME]
        [--size BYTES] [--mem BYTES] [--runtime-s S] [--sweep] [--qos-ms MS] [--sweep-spike]
        [--offsets N]
--sweep gives every randread cell a load sweep (20..140 % of its IOPS in 7
steps, a toy hockey stick of response p99); --qos-ms adds a p99 target.
Device spec NAME:KIND, KIND in hdd, ssd, nvme; NAME may be any string.
"""
import argparse, hashlib, json, math, os, random, sys

MODELS = {  # rand IOPS at QD1, max rand IOPS, seq MB/s (bytes/s), base lat ns
    "hdd": (120.0, 400.0, 180e6, 4.0e6),
    "ssd": (9000.0, 90000.0, 520e6, 90e3),
    "nvme": (14000.0, 650000.0, 3.2e9, 60e3),
}
PCTS = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99]
PATTERNS = ["randread", "randwrite", "read", "write", "randrw"]
BSS = [4096, 16384, 65536, 1048576] + [512 << k for k in range(0, 18) if (512 << k) not in (4096, 16384, 65536, 1048576)]
QDS = [1, 32, 4, 8, 16, 2, 64, 128, 256, 512, 1024]
JOBS = [1, 2, 4, 8]

def label(p, bs, qd, jobs):
    kind = "SEQ" if p in ("read", "write") else "RND"
    size = f"{bs // 1048576}M" if bs % 1048576 == 0 else (f"{bs // 1024}K" if bs % 1024 == 0 else str(bs))
    return f"{kind}{size} Q{qd}T{jobs}"

def model(kind, pattern, bs, qd, jobs, factor):
    r1, rmax, seq, lat0 = MODELS[kind]
    depth = qd * jobs
    if pattern in ("read", "write"):
        bw = seq * min(1.0, (bs * depth) / (bs * depth + 128 * 1024))
        iops = bw / bs
    else:
        iops = min(rmax, r1 * depth ** 0.8)
        if kind == "hdd":
            iops = min(rmax, r1 * (1 + math.log2(depth)))
        iops = min(iops, seq / bs)
    if "write" in pattern and kind != "hdd":
        iops *= 0.6
    iops *= factor
    lat = depth / iops * 1e9
    return iops, max(lat, lat0 / 10)

def stat(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    t = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 9: 2.262}.get(n - 1, 2.0)
    return {"n": n, "mean": m, "stddev": sd, "min": min(xs), "max": max(xs),
            "cv": sd / m if n > 1 and m else 0.0, "ci95": t * sd / math.sqrt(n) if n > 1 else 0.0}

def lat_obj(mean):
    pct = {}
    for p in PCTS:
        # exponential-ish tail around the mean
        q = -math.log(max(1e-6, 1 - p / 100.0))
        pct["%.6f" % p] = int(mean * (0.3 + 0.7 * q))
    return {"min": int(mean * 0.25), "max": int(mean * 12), "mean": mean,
            "stddev": mean * 0.6, "percentiles": pct}

def series_sum(v, total):
    """Intervals v changed so that they add up to total, as a run's do
    (every IO is in the series: a reader refuses a cell whose series
    disagrees with its ios): the last takes the difference, or, when that
    would be negative, total is spread evenly."""
    v = list(v)
    if v and v[-1] + total - sum(v) >= 0:
        v[-1] += total - sum(v)
    elif v:
        v = [total // len(v) + (1 if i < total % len(v) else 0) for i in range(len(v))]
    return v


def sweep_cell(cell, maxiops, lat0, qos_ms, spike=False):
    """A load sweep of the cell: response p99 base / (1 - 0.95 rho) below the
    maximum, then growing with the overload; service latency flat."""
    p = cell["params"]
    p["load_sweep"] = {"from_pct": 20, "to_pct": 140, "steps": 7}
    if qos_ms is not None:
        p["qos"] = {"metric": "p99", "target_ns": qos_ms * 1e6}
    base = 3 * lat0
    pts = []
    for k in range(7):
        rho = 0.2 + 0.2 * k
        p99 = base / (1 - 0.95 * rho) if rho < 1 else base * 20 * (1 + 10 * (rho - 1))
        if spike and k == 0:
            p99 *= 10
        resp = {"p50_ns": p99 / 3, "p99_ns": p99, "p999_ns": p99 * 1.5,
                "p9999_ns": p99 * 2, "mean_ns": p99 / 2.5}
        svc = {"p50_ns": lat0, "p99_ns": base, "p999_ns": base * 1.5, "mean_ns": lat0 * 1.2}
        pts.append({"offered_iops": rho * maxiops, "achieved_iops": min(rho, 1.0) * maxiops,
                    "refined": False, "response": resp, "service": svc})
    cell["load_sweep"] = {"max_iops": maxiops, "knee_k": 3, "knee_index": None,
                          "points": pts}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--devices", default="hdd:hdd,ssd:ssd")
    ap.add_argument("--cells", type=int, default=8, help="cells per device")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--host", default="synthhost")
    ap.add_argument("--status", default="complete")
    ap.add_argument("--missing", type=int, default=0)
    ap.add_argument("--failed", type=int, default=0)
    ap.add_argument("--perf", action="append", default=[])
    ap.add_argument("--noise", type=float, default=0.01)
    ap.add_argument("--data", default="random")
    ap.add_argument("--buffered", action="store_true")
    ap.add_argument("--started", default="2026-11-30T02:40:12Z")
    ap.add_argument("--suite", default="synthetic")
    ap.add_argument("--size", type=int, default=1 << 30)
    ap.add_argument("--mem", type=int, default=16 << 30)
    ap.add_argument("--runtime-s", type=int, default=5)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--qos-ms", type=float, default=None)
    ap.add_argument("--sweep-spike", action="store_true",
                    help="the lowest load's p99 10x (a stalled run)")
    ap.add_argument("--offsets", type=int, default=1,
                    help="each pattern/bs/qd/jobs combination at this many offsets "
                         "(0, 1M, 2M ...): more distinct workloads than 4,840")
    ap.add_argument("--names-json", default=None,
                    help="JSON list of device names replacing those of --devices (hostile-name tests)")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    devs = []
    for spec in a.devices.split(","):
        name, _, kind = spec.rpartition(":")
        if not name:
            name, kind = kind, "ssd"
        devs.append((name, kind))
    if a.names_json:
        names = json.loads(a.names_json)
        devs = [(n, devs[i % len(devs)][1]) for i, n in enumerate(names)]
    perf = {}
    for p in a.perf:
        k, _, v = p.rpartition("=")
        perf[k] = float(v)
    combos = []
    for pat in PATTERNS:
        for bs in BSS:
            for qd in QDS:
                for jobs in JOBS:
                    combos.append((pat, bs, qd, jobs))
    # the interesting few first, then the rest
    combos.sort(key=lambda c: (BSS.index(c[1]) > 3, QDS.index(c[2]) > 1, c[3] > 1, BSS.index(c[1]), QDS.index(c[2]), c[3]))
    combos = [c + (o,) for o in range(max(1, a.offsets)) for c in combos][: a.cells]
    suite_text = ("# SYNTHETIC suite written by tests/report/gen_synthetic.py\n"
                  f"suite: {a.suite}\ntitle: \"Synthetic {a.suite}\"\ndevices:\n")
    for name, _ in devs:
        suite_text += f"  - name: {json.dumps(name)}\n    path: /tmp/synthetic\n"
    suite_text += "matrix:\n  pattern: [randread]\n"
    sha = hashlib.sha256(suite_text.encode()).hexdigest()
    os.makedirs(os.path.join(a.out, "cells"), exist_ok=True)
    plan_cells = []
    cid = 0
    for name, kind in devs:
        for (pat, bs, qd, jobs, off) in combos:
            cid += 1
            plan_cells.append({
                "id": cid, "device": name, "path": "/tmp/synthetic/" + kind,
                "label": label(pat, bs, qd, jobs), "pattern": pat, "bs_bytes": bs,
                "iodepth": qd, "jobs": jobs, "engine": "libaio", "direct": not a.buffered,
                "size_bytes": a.size, "size_pct": 0, "files": 1, "offset_bytes": off << 20,
                "offset_pct": 0, "runtime_ns": a.runtime_s * 10**9, "ramp_ns": 10**9,
                "requests": 0, "io_size_bytes": 0,
                "rwmixread": 75 if pat == "randrw" else 50, "fsync": 0,
                "end_fsync": False, "data": a.data, "compress_pct": 0,
                "drop_caches": False, "repeat": a.repeat, "cooldown_ns": 0,
                "seed": 42, "interval_ns": 10**9, "keep_files": False})
    total = len(plan_cells)
    written = plan_cells[: max(0, total - a.missing)]
    index = []
    failed_ids = set(c["id"] for c in written[1: 1 + a.failed])
    kinds = dict(devs)
    for p in written:
        cell = {"schema_version": 1, "id": p["id"], "params": p,
                "started_at": a.started, "finished_at": a.started, "warnings": []}
        if p["id"] in failed_ids:
            cell.update(status="failed", error="synthetic failure: device vanished",
                        repetitions=[], summary={})
        else:
            iops, lat = model(kinds[p["device"]], p["pattern"], p["bs_bytes"],
                              p["iodepth"], p["jobs"], perf.get(p["device"], 1.0))
            dirs = {"randread": ["read"], "read": ["read"], "randwrite": ["write"],
                    "write": ["write"], "randrw": ["read", "write"]}[p["pattern"]]
            reps = []
            for r in range(a.repeat):
                rep = {"rep": r + 1, "runtime_ns": a.runtime_s * 10**9,
                       "cpu": {"usr_pct": 3.0, "sys_pct": 11.0, "ctx_voluntary": 100,
                               "ctx_involuntary": 3}}
                for d in dirs:
                    share = (0.75 if d == "read" else 0.25) if len(dirs) == 2 else 1.0
                    x = iops * share * (1 + rnd.gauss(0, a.noise))
                    l = lat * (1 + rnd.gauss(0, a.noise))
                    ios = int(x * a.runtime_s)
                    series_ios = series_sum([int(x * (1 + rnd.gauss(0, 0.05)))
                                             for _ in range(a.runtime_s)], ios)
                    rep[d] = {"ios": ios, "bytes": ios * p["bs_bytes"], "iops": x,
                              "bw_bytes_s": x * p["bs_bytes"], "lat_ns": lat_obj(l),
                              "hist": {"scheme": "loglin64", "buckets": [[int(l) & ~63, ios]]},
                              "series": {"interval_ns": 10**9, "ios": series_ios,
                                         "bytes": [v * p["bs_bytes"] for v in series_ios],
                                         "lat_mean_ns": [l] * a.runtime_s}}
                reps.append(rep)
            summ = {"lat_ns_merged": {}}
            for d in dirs:
                xs = [rp[d] for rp in reps]
                summ[d] = {
                    "iops": stat([x["iops"] for x in xs]),
                    "bw_bytes_s": stat([x["bw_bytes_s"] for x in xs]),
                    "lat_mean_ns": stat([x["lat_ns"]["mean"] for x in xs]),
                    "lat_p50_ns": stat([x["lat_ns"]["percentiles"]["50.000000"] for x in xs]),
                    "lat_p99_ns": stat([x["lat_ns"]["percentiles"]["99.000000"] for x in xs]),
                    "lat_max_ns": stat([x["lat_ns"]["max"] for x in xs])}
                summ["lat_ns_merged"][d] = lat_obj(summ[d]["lat_mean_ns"]["mean"])
            cell.update(status="ok", error=None, repetitions=reps, summary=summ)
            if a.sweep and p["pattern"] == "randread":
                sweep_cell(cell, iops, MODELS[kinds[p["device"]]][3], a.qos_ms,
                           a.sweep_spike)
        fn = "cells/%04d.json" % p["id"]
        with open(os.path.join(a.out, fn), "w") as f:
            f.write(json.dumps(cell))
        index.append({"id": p["id"], "file": fn, "device": p["device"],
                      "label": p["label"], "status": cell["status"]})
    devices = []
    for name, kind in devs:
        devices.append({"name": name, "path": "/tmp/synthetic/" + kind, "fingerprint": {
            "kind": "directory", "block_device": "/dev/synth-" + kind,
            "model": {"hdd": "SYNTH HDD 7200", "ssd": "SYNTH SATA SSD", "nvme": "SYNTH NVMe"}[kind],
            "firmware": "SYN1", "vendor": "SYNTHETIC", "serial_sha256": hashlib.sha256(name.encode()).hexdigest(),
            "size_bytes": {"hdd": 4 << 40, "ssd": 480 << 30, "nvme": 1 << 40}[kind],
            "rotational": kind == "hdd", "logical_block_bytes": 512,
            "physical_block_bytes": 4096, "scheduler": "mq-deadline",
            "write_cache": "write back", "virtual": False, "fs_type": "ext4",
            "mount_options": "rw,relatime"}})
    manifest = {
        "schema_version": 1, "kind": "iomatrix-result-set", "status": a.status,
        "started_at": a.started, "finished_at": None if a.status == "running" else a.started,
        "scale": 1, "source": {"kind": "synthetic", "files": [], "command": "tests/report/gen_synthetic.py"},
        "tool": {"name": "iomatrix", "version": "0.1.0", "git_commit": "synthetic",
                 "compiler": "none", "libs": {}},
        "host": {"hostname": a.host, "kernel": "6.1.0-synthetic", "os": "Debian GNU/Linux 12 (bookworm)",
                 "arch": "x86_64", "cpu_model": "Synthetic CPU @ 3.0GHz", "cpus": 8,
                 "mem_bytes": a.mem, "governor": "performance", "virtualization": None},
        "suite": {"name": a.suite, "title": "Synthetic " + a.suite,
                  "description": "SYNTHETIC numbers from a toy model, for tests only",
                  "file": "suites/synthetic.yaml", "sha256": sha},
        "devices": devices, "cells_total": total, "cells": index}
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    with open(os.path.join(a.out, "plan.json"), "w") as f:
        f.write(json.dumps({"schema_version": 1, "suite": a.suite, "sha256": sha, "cells": plan_cells}))
    with open(os.path.join(a.out, "suite.yaml"), "w") as f:
        f.write(suite_text)

if __name__ == "__main__":
    main()
