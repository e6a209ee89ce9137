#!/usr/bin/env python3
"""gen_archive.py - write a SYNTHETIC archive of dated schema-v1 result sets
(results/README.md) for the history and site tests and benchmarks: one set
per day, each with the same cells, a chosen change injected at a chosen set
(a slowdown and a kernel change in its fingerprint), noise within a set
(between repetitions) and between sets.  Numbers come from gen_synthetic's
toy device model, not from runs: manifest source.kind is "synthetic".

usage: gen_archive.py OUTDIR [--sets N] [--cells N] [--hosts H1,H2]
        [--devices NAME:KIND,...] [--repeat R] [--noise CV] [--jitter CV]
        [--step-at K] [--step F] [--kernel-at K] [--seed S] [--start DATE]
        [--suite NAME] [--scale-at K:SCALE] [--names-json JSON]
--step-at K is 1-based (set K is the first slow one); --step -0.25 is 25 %
slower.  --kernel-at defaults to --step-at.
"""
import argparse, datetime, functools, hashlib, json, os, random, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_synthetic as gs  # noqa: E402

# the sort below costs more than a set's files: once per process
@functools.lru_cache(maxsize=None)
def combos(n):
    out = []
    for pat in gs.PATTERNS:
        for bs in gs.BSS:
            for qd in gs.QDS:
                for jobs in gs.JOBS:
                    out.append((pat, bs, qd, jobs))
    out.sort(key=lambda c: (gs.BSS.index(c[1]) > 3, gs.QDS.index(c[2]) > 1, c[3] > 1,
                            gs.BSS.index(c[1]), gs.QDS.index(c[2]), c[3]))
    return tuple(out[:n])

def write_set(a, out, host, devs, when, idx, rnd, level):
    """One set: devs is [(name, kind)], level the factor on every number."""
    safe = lambda t: re.sub(r"[^A-Za-z0-9._-]", "-", t)   # the writer's names are safe too
    name = when.strftime("%Y-%m-%dT%H%M%SZ") + "_" + safe(a.suite) + "_" + safe(host)
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "cells"), exist_ok=True)
    iso = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    kernel = "6.6.0-synthetic" if a.kernel_at and idx >= a.kernel_at else "6.1.0-synthetic"
    scale = 1.0
    for spec in a.scale_at:
        k, _, s = spec.partition(":")
        if int(k) == idx:
            scale = float(s)
    suite_text = f"# SYNTHETIC suite written by tests/report/gen_archive.py\nsuite: {json.dumps(a.suite)}\n"
    sha = hashlib.sha256(suite_text.encode()).hexdigest()
    cells, index, plan = [], [], []
    cid = 0
    for dname, kind in devs:
        for (pat, bs, qd, jobs) in combos(a.cells):
            cid += 1
            p = {"id": cid, "device": dname, "path": "/srv/" + kind, "label": gs.label(pat, bs, qd, jobs),
                 "pattern": pat, "bs_bytes": bs, "iodepth": qd, "jobs": jobs, "engine": "libaio",
                 "direct": True, "size_bytes": int((1 << 30) * scale), "size_pct": 0, "files": 1,
                 "offset_bytes": 0, "offset_pct": 0, "runtime_ns": int(5e9 * scale), "ramp_ns": 10**9,
                 "requests": 0, "io_size_bytes": 0, "rwmixread": 75 if pat == "randrw" else 50,
                 "fsync": 0, "end_fsync": False, "data": "random", "compress_pct": 0,
                 "drop_caches": False, "repeat": a.repeat, "cooldown_ns": 0, "seed": 42,
                 "interval_ns": 10**9, "keep_files": False}
            plan.append(p)
            iops, lat = gs.model(kind, pat, bs, qd, jobs, level)
            dirs = {"randread": ["read"], "read": ["read"], "randwrite": ["write"],
                    "write": ["write"], "randrw": ["read", "write"]}[pat]
            reps = []
            for r in range(a.repeat):
                rep = {"rep": r + 1, "runtime_ns": 5 * 10**9,
                       "cpu": {"usr_pct": 3.0, "sys_pct": 11.0, "ctx_voluntary": 100, "ctx_involuntary": 3}}
                for dd in dirs:
                    share = (0.75 if dd == "read" else 0.25) if len(dirs) == 2 else 1.0
                    x = iops * share * (1 + rnd.gauss(0, a.noise))
                    l = lat / (1 + rnd.gauss(0, a.noise))
                    ios = int(x * 5)
                    rep[dd] = {"ios": ios, "bytes": ios * bs, "iops": x, "bw_bytes_s": x * bs,
                               "lat_ns": gs.lat_obj(l),
                               "hist": {"scheme": "loglin64", "buckets": [[int(l) & ~63, ios]]},
                               "series": {"interval_ns": 10**9, "ios": gs.series_sum([int(x)] * 5, ios),
                                          "bytes": [v * bs for v in gs.series_sum([int(x)] * 5, ios)],
                                          "lat_mean_ns": [l] * 5}}
                reps.append(rep)
            summ = {"lat_ns_merged": {}}
            for dd in dirs:
                xs = [rp[dd] for rp in reps]
                summ[dd] = {"iops": gs.stat([x["iops"] for x in xs]),
                            "bw_bytes_s": gs.stat([x["bw_bytes_s"] for x in xs]),
                            "lat_mean_ns": gs.stat([x["lat_ns"]["mean"] for x in xs]),
                            "lat_p50_ns": gs.stat([x["lat_ns"]["percentiles"]["50.000000"] for x in xs]),
                            "lat_p99_ns": gs.stat([x["lat_ns"]["percentiles"]["99.000000"] for x in xs]),
                            "lat_max_ns": gs.stat([x["lat_ns"]["max"] for x in xs])}
                summ["lat_ns_merged"][dd] = gs.lat_obj(summ[dd]["lat_mean_ns"]["mean"])
            cell = {"schema_version": 1, "id": cid, "status": "ok", "error": None, "params": p,
                    "started_at": iso, "finished_at": iso, "warnings": [], "repetitions": reps,
                    "summary": summ}
            fn = "cells/%04d.json" % cid
            with open(os.path.join(d, fn), "w") as f:
                f.write(json.dumps(cell))
            index.append({"id": cid, "file": fn, "device": dname, "label": p["label"], "status": "ok"})
    devices = [{"name": dn, "path": "/srv/" + kind, "destructive": False, "fingerprint": {
        "kind": "directory", "block_device": "/dev/synth-" + kind, "disk": None,
        "model": {"hdd": "SYNTH HDD 7200", "ssd": "SYNTH SATA SSD", "nvme": "SYNTH NVMe"}[kind],
        "vendor": "SYNTHETIC", "firmware": "SYN1",
        "serial_sha256": hashlib.sha256((host + dn).encode()).hexdigest(),
        "size_bytes": 480 << 30, "rotational": kind == "hdd", "logical_block_bytes": 512,
        "physical_block_bytes": 4096, "scheduler": "mq-deadline", "write_cache": "write back",
        "virtual": False, "virtual_kind": None, "fs_type": "ext4", "mount_options": "rw,relatime",
        "mount_source": "/dev/synth-" + kind}} for dn, kind in devs]
    manifest = {"schema_version": 1, "kind": "iomatrix-result-set", "status": "complete",
                "started_at": iso, "finished_at": iso, "scale": scale,
                "source": {"kind": "synthetic", "files": [], "command": "tests/report/gen_archive.py"},
                "tool": {"name": "iomatrix", "version": "0.1.0", "git_commit": "synthetic",
                         "compiler": "none", "libs": {}},
                "host": {"hostname": host, "kernel": kernel, "kernel_version": "#1 SMP",
                         "os": "Debian GNU/Linux 12 (bookworm)", "arch": "x86_64",
                         "cpu_model": "Synthetic CPU @ 3.0GHz", "cpus": 8, "mem_bytes": 16 << 30,
                         "governor": "performance", "virtualization": None, "container": None},
                "suite": {"name": a.suite, "title": "Synthetic " + a.suite,
                          "description": "SYNTHETIC numbers from a toy model, for tests only",
                          "file": "suites/" + a.suite + ".yaml", "sha256": sha},
                "devices": devices, "cells_total": cid, "cells": index}
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    with open(os.path.join(d, "plan.json"), "w") as f:
        f.write(json.dumps({"schema_version": 1, "suite": a.suite, "sha256": sha, "cells": plan}))
    with open(os.path.join(d, "suite.yaml"), "w") as f:
        f.write(suite_text)
    if a.sums:
        write_sums(d)
    return name

def write_sums(d):
    """SHA256SUMS as iomatrix writes it (results/README.md): every file of
    the set but itself and the derived report/ and compare/, sorted by path."""
    lines = []
    for root, dirs, files in os.walk(d):
        for fn in files:
            rel = os.path.relpath(os.path.join(root, fn), d)
            if rel == "SHA256SUMS" or rel.split(os.sep)[0] in ("report", "compare"):
                continue
            with open(os.path.join(root, fn), "rb") as f:
                lines.append((rel.encode(), hashlib.sha256(f.read()).hexdigest()))
    lines.sort()
    with open(os.path.join(d, "SHA256SUMS"), "w") as f:
        f.write("".join("%s  %s\n" % (h, r.decode()) for r, h in lines))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--sets", type=int, default=30)
    ap.add_argument("--first", type=int, default=1, help="number of the first set (append to an archive)")
    ap.add_argument("--cells", type=int, default=4)
    ap.add_argument("--hosts", default="synthhost", help="comma-separated, or a JSON list")
    ap.add_argument("--devices", default="ssd:ssd")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--noise", type=float, default=0.03)
    ap.add_argument("--jitter", type=float, default=0.02)
    ap.add_argument("--step-at", type=int, default=0)
    ap.add_argument("--step", type=float, default=-0.25)
    ap.add_argument("--kernel-at", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", default="2026-01-01T03:00:00")
    ap.add_argument("--every-min", type=float, default=0,
                    help="minutes between sets (default: one day)")
    ap.add_argument("--suite", default="nightly")
    ap.add_argument("--sums", action="store_true", help="write SHA256SUMS, as a finished run does")
    ap.add_argument("--scale-at", action="append", default=[])
    ap.add_argument("--names-json", default=None, help="JSON list of device names (hostile-name tests)")
    ap.add_argument("--fleet", default=None,
                    help="H1,H2: write each set as a fleet survey of these hosts (run --hosts): "
                         "one cell per host, the hosts' own fingerprints in manifest.fleet")
    a = ap.parse_args()
    if a.kernel_at is None:
        a.kernel_at = a.step_at
    rnd = random.Random(a.seed)
    devs = []
    for spec in a.devices.split(","):
        n, _, k = spec.rpartition(":")
        devs.append((n or k, k))
    if a.names_json:
        devs = [(n, devs[i % len(devs)][1]) for i, n in enumerate(json.loads(a.names_json))]
    start = datetime.datetime.fromisoformat(a.start)
    hosts = json.loads(a.hosts) if a.hosts.startswith("[") else a.hosts.split(",")
    for i in range(a.first, a.first + a.sets):
        for hi, host in enumerate(hosts):
            level = (1 + a.step if a.step_at and i >= a.step_at else 1.0) * (1 + rnd.gauss(0, a.jitter))
            when = start + (datetime.timedelta(minutes=(i - 1) * a.every_min + hi) if a.every_min
                            else datetime.timedelta(days=i - 1, minutes=hi))
            name = write_set(a, a.out, host, devs, when, i, rnd, level)
            if a.fleet:
                fleetify(os.path.join(a.out, name), a.fleet.split(","))

def fleetify(d, names):
    """Turn a one-host set into a fleet survey (results/README.md 'Fleet
    sets'): cells repeated per host slot with a "host" key, and each host's
    own fingerprint in manifest.fleet.hosts (kernels differ by host)."""
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    n = m["cells_total"]
    cells, index = [], []
    for slot, name in enumerate(names):
        for c in range(1, n + 1):
            with open(os.path.join(d, "cells/%04d.json" % c)) as f:
                cell = json.load(f)
            cell["id"] = slot * n + c
            cell["host"] = name
            cell["plan_id"] = c
            cells.append(cell)
            index.append({"id": cell["id"], "file": "cells/%04d.json" % cell["id"],
                          "device": cell["params"]["device"], "label": cell["params"]["label"],
                          "status": "ok", "host": name})
    for cell in cells:
        with open(os.path.join(d, "cells/%04d.json" % cell["id"]), "w") as f:
            f.write(json.dumps(cell))
    hosts = []
    for slot, name in enumerate(names):
        h = dict(m["host"], hostname="node-" + name, kernel="6.%d.0-fleet" % (slot + 1))
        hosts.append({"name": name, "status": "done", "error": None, "hostname": "node-" + name,
                      "version": "0.1.0", "git_commit": "synthetic", "host": h, "tool": m["tool"],
                      "devices": m["devices"]})
    m["fleet"] = {"mode": "survey", "plan_cells": n, "device_overrides": [], "hosts": hosts}
    m["cells_total"] = n * len(names)
    m["cells"] = index
    m["devices"] = [dict(x, fingerprint=None) for x in m["devices"]]
    m["host"]["hostname"] = "controller"
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(m, f, indent=1)

if __name__ == "__main__":
    main()
