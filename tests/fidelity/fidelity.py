#!/usr/bin/env python3
"""make fidelity, the measuring half (tests/fidelity/run.sh sets up the
devices): per device and cell, iomatrix and its exported fio job alternately,
then the ratios iomatrix / fio, their medians and ranges, against the goals
of docs/fidelity.md.

    fidelity.py IOMATRIX SCRATCH SIZE OUT.md NAME=DEVICE...
"""
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

BIN, W, SIZE, OUT = sys.argv[1:5]
DEVS = [a.split("=", 1) for a in sys.argv[5:]]
ROUNDS = int(os.environ.get("FIDELITY_ROUNDS", "5"))
RUNTIME = os.environ.get("FIDELITY_RUNTIME", "2s")
ONLY = os.environ.get("FIDELITY_CELLS", "").split()
ENGINE = os.environ.get("FIDELITY_ENGINE", "libaio")

# name: cell keys.
CELLS = [
    ("rnd4k-q1-read", {"pattern": "randread", "bs": "4k", "iodepth": 1}),
    ("rnd4k-q32-read", {"pattern": "randread", "bs": "4k", "iodepth": 32}),
    ("rnd4k-q32-write", {"pattern": "randwrite", "bs": "4k", "iodepth": 32}),
    ("seq128k-q8-read", {"pattern": "read", "bs": "128k", "iodepth": 8}),
    ("seq128k-q8-write", {"pattern": "write", "bs": "128k", "iodepth": 8}),
    ("seq1m-q8-read", {"pattern": "read", "bs": "1m", "iodepth": 8}),
    ("seq1m-q8-write", {"pattern": "write", "bs": "1m", "iodepth": 8}),
    ("rnd4k-q32-rw70", {"pattern": "randrw", "bs": "4k", "iodepth": 32, "rwmixread": 70}),
    ("rnd4k-q8-read-j4", {"pattern": "randread", "bs": "4k", "iodepth": 8, "jobs": 4}),
    ("rnd4k-q1-write-fsync32", {"pattern": "randwrite", "bs": "4k", "iodepth": 1, "fsync": 32}),
]
GOALS = {"iops": 0.05, "p50": 0.10, "p99": 0.10, "sys": 0.10}
IO_CALLS = {"io_submit", "io_getevents", "io_pgetevents", "io_uring_enter",
            "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2",
            "fsync", "fdatasync"}


def sh(cmd, log, env=None):
    """Run cmd; its output into log; False (and a line on stderr) on failure."""
    with open(log, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                           env=dict(os.environ, **(env or {})))
    if r.returncode != 0:
        tail = open(log).read().strip().splitlines()[-3:]
        print("fidelity: %s failed: %s" % (cmd[0], " / ".join(tail)), file=sys.stderr)
    return r.returncode == 0


def suite(path, dev, devpath, name, keys, size, runtime):
    """One cell as a suite of its own (so each run is that cell alone)."""
    d = {"engine": ENGINE, "direct": True, "size": size, "jobs": 1}
    if runtime:
        d["runtime"] = runtime
    cell = dict(keys, label=name)
    with open(path, "w") as f:
        f.write("suite: fid-%s-%s\n" % (dev, name))
        f.write("defaults: %s\n" % json.dumps(d))
        f.write("devices:\n  - {name: %s, path: %s, destructive: true}\n" % (dev, devpath))
        f.write("include:\n  - %s\n" % json.dumps(cell))


def export(suitef, outdir):
    if not sh([BIN, "export", "fio", suitef, "-o", outdir], outdir + ".log"):
        return None
    jobs = [f for f in os.listdir(outdir) if f.endswith(".fio")]
    return os.path.join(outdir, jobs[0]) if len(jobs) == 1 else None


def main_dir(rd):
    return "read" if rd.get("read") and rd["read"].get("ios", rd["read"].get("total_ios", 0)) else "write"


def iom_result(setdir):
    rep = json.load(open(setdir + "/cells/0001.json"))["repetitions"][0]
    ios = sum(rep[d]["ios"] for d in ("read", "write") if d in rep)
    iops = sum(rep[d]["iops"] for d in ("read", "write") if d in rep)
    lat = rep[main_dir(rep)]["lat_ns"]
    p = lat["percentiles"]
    return {"ios": ios, "iops": iops, "mean": lat["mean"],
            "p50": p["50.000000"], "p99": p["99.000000"],
            "cpu": (rep.get("cpu") or {}).get("ns_per_io")}


def fio_result(jsonf):
    j = json.load(open(jsonf))["jobs"][0]
    ios = sum(j[d]["total_ios"] for d in ("read", "write"))
    iops = sum(j[d]["iops"] for d in ("read", "write"))
    d = "read" if j["read"]["total_ios"] else "write"
    lat = j[d]["lat_ns"]
    p = lat.get("percentile", {})
    # usr+sys in percent of the job's runtime (fio counts its own threads)
    cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6 / ios if ios else None
    return {"ios": ios, "iops": iops, "mean": lat["mean"],
            "p50": p.get("50.000000"), "p99": p.get("99.000000"), "cpu": cpu}


def run_iom(suitef, out, env=None, wrap=()):
    if not sh(list(wrap) + [BIN, "run", suitef, "--yes-destroy-data", "--out", out,
                            "--quiet"], out + ".log", env):
        return None
    return iom_result(out)


def run_fio(job, out, extra=(), wrap=()):
    if not sh(list(wrap) + ["fio", "--output-format=json", "--output=" + out,
                            "--lat_percentiles=1"] + list(extra) + [job], out + ".log"):
        return None
    return fio_result(out)


def syscalls(stracef):
    n = 0
    for line in open(stracef):
        m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$", line)
        if m and m.group(2) in IO_CALLS:
            n += int(m.group(1))
    return n


def offsets(path, kind):
    """Distinct (file, offset) pairs an IO log names."""
    seen = set()
    for line in open(path):
        t = line.split()
        for i, w in enumerate(t):
            if w in ("read", "write") and i + 2 < len(t) and t[i + 1].isdigit():
                f = t[i + 3] if kind == "iom" and i + 3 < len(t) else t[i - 1] if i else ""
                seen.add((f, int(t[i + 1])))
                break
    return seen


def coverage(dev, devpath, name, keys, base):
    """One pass over 16 MiB: the share of its blocks each tool touched."""
    if keys.get("jobs", 1) > 1 or not keys["pattern"].startswith("rand"):
        return None
    s = base + "-cov.yaml"
    suite(s, dev, devpath, name, keys, "16MiB", None)
    job = export(s, base + "-cov-fio")
    if not job:
        return None
    blocks = 16 * 1048576 // {"4k": 4096}.get(keys["bs"], 4096)
    if run_iom(s, base + "-cov-iom", {"IOMATRIX_TRACE": base + "-cov.trace"}) is None:
        return None
    if run_fio(job, base + "-cov-fio.json", ["--write_iolog=" + base + "-cov.iolog"]) is None:
        return None
    return (len(offsets(base + "-cov.trace", "iom")) / blocks,
            len(offsets(base + "-cov.iolog", "fio")) / blocks)


def measure(dev, devpath, name, keys):
    base = "%s/%s-%s" % (W, dev, name)
    s = base + ".yaml"
    suite(s, dev, devpath, name, keys, SIZE, RUNTIME)
    job = export(s, base + "-fio")
    if not job:
        return None
    ratios = {k: [] for k in ("iops", "mean", "p50", "p99", "cpu")}
    for r in range(1, ROUNDS + 1):
        order = ("iom", "fio") if r % 2 else ("fio", "iom")
        res = {}
        for tool in order:
            out = "%s-%s-%d" % (base, tool, r)
            res[tool] = run_iom(s, out) if tool == "iom" else run_fio(job, out + ".json")
            if res[tool] is None:
                return None
        for k in ratios:
            if res["fio"][k]:
                ratios[k].append(res["iom"][k] / res["fio"][k])
        print("   %s %s round %d: iomatrix %.0f IOPS, fio %.0f IOPS" %
              (dev, name, r, res["iom"]["iops"], res["fio"]["iops"]), flush=True)
    # one more round of each under strace: IO syscalls per IO
    si = run_iom(s, base + "-strace-iom", wrap=["strace", "-f", "-c", "-o", base + ".st-iom"])
    sf = run_fio(job, base + "-strace-fio.json", wrap=["strace", "-f", "-c", "-o", base + ".st-fio"])
    sys_ratio = None
    if si and sf and si["ios"] and sf["ios"]:
        a = syscalls(base + ".st-iom") / si["ios"]
        b = syscalls(base + ".st-fio") / sf["ios"]
        sys_ratio = (a, b)
    return {"ratios": ratios, "sys": sys_ratio, "cov": coverage(dev, devpath, name, keys, base)}


# the decoder of series.hist the tests use (tests/ivhist.py)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import ivhist  # noqa: E402


def iv_p99s(cellf, whole):
    """The p99 of each of the first `whole` intervals of a cell's reads."""
    x = json.load(open(cellf))["repetitions"][0]["read"]
    out = []
    for t in x["series"]["hist"]["intervals"][:whole]:
        pairs = ivhist.decode(t)
        if pairs:
            out.append(ivhist.pct(pairs, 99))
    return out


def hist_row(dev, devpath):
    """Latency over time: 4K random reads QD1 (psync: fio's clat, which its
    histogram log holds, is then the whole IO, as iomatrix's latency) at
    1 s intervals, iomatrix against the exported job with its log read back
    by `import fio --hist-log`; per round the ratio of the medians over
    the whole intervals of the per-interval p99, and whether every count of
    fio's log is in the import."""
    name = "rnd4k-q1-read-psync-intervals"
    base = "%s/%s-%s" % (W, dev, name)
    s = base + ".yaml"
    secs = int(os.environ.get("FIDELITY_HIST_SECONDS", "6"))
    suite(s, dev, devpath, name, {"pattern": "randread", "bs": "4k", "iodepth": 1,
                                  "engine": "psync", "interval": "1s"}, SIZE, "%ds" % secs)
    job = export(s, base + "-fio")
    if not job:
        return None
    section = re.search(r"^\[(.*)\]", open(job).read(), re.M).group(1)
    ratios, kept = [], [0, 0]
    for r in range(1, ROUNDS + 1):
        order = ("iom", "fio") if r % 2 else ("fio", "iom")
        p = {}
        for tool in order:
            out = "%s-%s-%d" % (base, tool, r)
            if tool == "iom":
                if run_iom(s, out) is None:
                    return None
                p[tool] = med(iv_p99s(out + "/cells/0001.json", secs))
                continue
            for f in os.listdir("."):
                if f.startswith(section + "_clat_hist."):
                    os.remove(f)
            if not sh(["fio", "--output-format=json+", "--output=" + out + ".json", job],
                      out + ".log"):
                return None
            logf = section + "_clat_hist.1.log"
            if not sh([BIN, "import", "fio", out + ".json", "--hist-log", logf,
                       "-o", out + ".set"], out + ".import.log"):
                return None
            cellf = out + ".set/cells/0001.json"
            # the import's last interval holds the IOs after fio's last line
            p[tool] = med(iv_p99s(cellf, secs - 1))
            n, good = ivhist.fio_kept(logf, cellf)
            kept[0] += n
            kept[1] += good
        if p["fio"]:
            ratios.append(p["iom"] / p["fio"])
        print("   %s %s round %d: median per-interval p99 iomatrix %.1f us, fio %.1f us" %
              (dev, name, r, p["iom"] / 1e3, p["fio"] / 1e3), flush=True)
    return {"ratios": ratios, "kept": kept}


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(xs):
    if not xs:
        return "n/a"
    return "%.2f (%.2f-%.2f)" % (med(xs), min(xs), max(xs))


def misses(m):
    why = []
    r = m["ratios"]
    if r["iops"] and abs(med(r["iops"]) - 1) > GOALS["iops"]:
        why.append("IOPS %.2f" % med(r["iops"]))
    for k in ("p50", "p99"):
        if r[k] and abs(med(r[k]) - 1) > GOALS[k]:
            why.append("%s %.2f" % (k, med(r[k])))
    if m["sys"] and abs(m["sys"][0] / m["sys"][1] - 1) > GOALS["sys"]:
        why.append("syscalls/IO %.2f vs %.2f" % m["sys"])
    if m["cov"] and abs(m["cov"][0] - m["cov"][1]) > 0.02:
        why.append("coverage %.2f vs %.2f" % m["cov"])
    return why


def main():
    load0 = os.getloadavg()
    t0 = time.time()
    rows = []
    failed = False
    for dev, path in DEVS:
        for name, keys in CELLS:
            if ONLY and name not in ONLY:
                continue
            print("== %s %s" % (dev, name), flush=True)
            m = measure(dev, path, name, keys)
            if m is None:
                failed = True
                rows.append((dev, name, None))
                continue
            rows.append((dev, name, m))
    hrows = []
    for dev, path in DEVS:
        if dev == "zram" and (not ONLY or "rnd4k-q1-read-psync-intervals" in ONLY):
            print("== %s latency over time" % dev, flush=True)
            h = hist_row(dev, path)
            failed |= h is None
            hrows.append((dev, h))
    load1 = os.getloadavg()
    head = ("| device | cell | IOPS ratio | mean lat ratio | p50 ratio | p99 ratio | "
            "CPU/IO ratio | syscalls/IO iomatrix vs fio | coverage iomatrix vs fio | goals |")
    lines = [head, "|" + "---|" * 10]
    for dev, name, m in rows:
        if m is None:
            lines.append("| %s | %s | failed to run | | | | | | | |" % (dev, name))
            continue
        r = m["ratios"]
        sysc = "%.2f vs %.2f (%.2f)" % (m["sys"][0], m["sys"][1], m["sys"][0] / m["sys"][1]) \
            if m["sys"] else "n/a"
        cov = "%.3f vs %.3f" % m["cov"] if m["cov"] else "n/a"
        why = misses(m)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            dev, name, fmt(r["iops"]), fmt(r["mean"]), fmt(r["p50"]), fmt(r["p99"]),
            fmt(r["cpu"]), sysc, cov, "missed: " + "; ".join(why) if why else "met"))
    if hrows:
        lines += ["", "Latency over time: 4K random reads QD1 with psync at 1 s "
                  "intervals, %s s, iomatrix's series.hist against the exported job's "
                  "histogram log read back by `iomatrix import fio --hist-log`:" %
                  os.environ.get("FIDELITY_HIST_SECONDS", "6"), "",
                  "| device | median over the intervals of the per-interval p99, ratio | "
                  "fio's log windows kept by the import, count for count | goals |",
                  "|---|---|---|---|"]
        for dev, h in hrows:
            if h is None:
                lines.append("| %s | failed to run | | |" % dev)
                continue
            n, good = h["kept"]
            ok = h["ratios"] and abs(med(h["ratios"]) - 1) <= GOALS["p99"] and n and good == n
            lines.append("| %s | %s | %d of %d | %s |" % (
                dev, fmt(h["ratios"]), good, n,
                "met" if ok else "missed: p99 ratio %s, %d of %d windows kept" %
                (fmt(h["ratios"]), good, n)))
    table = "\n".join(lines)
    print()
    print(table)
    fio_v = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    iom_v = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    with open(OUT, "w") as f:
        f.write("# Fidelity: iomatrix against its exported fio job\n\n")
        f.write("Written by `make fidelity` (tests/fidelity/run.sh) on %s.\n\n" %
                time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t0)))
        f.write("- machine: %s, %d CPUs (%s), %d MiB memory, Linux %s\n" % (
            platform.node(), os.cpu_count(), cpu,
            os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 1048576,
            platform.release()))
        f.write("- tools: %s, %s\n" % (iom_v, fio_v))
        f.write("- load average: %.2f %.2f %.2f at the start, %.2f %.2f %.2f at the end\n" %
                (load0 + load1))
        f.write("- %d timed rounds per tool and cell, alternating which goes first, "
                "runtime %s, %s addressed on each device (filled with random data "
                "first); engine %s, direct IO\n" % (ROUNDS, RUNTIME, SIZE, ENGINE))
        f.write("- devices: %s\n\n" % ", ".join(
            "%s (%s)" % (d, "our own zram device" if d == "zram" else
                         "a loop device over a file in the scratch directory")
            for d, _ in DEVS))
        f.write(
            "Each ratio is iomatrix / fio: the median over the rounds, the range in "
            "brackets.  Latency is total latency (submission to completion: fio's "
            "`lat`, with `lat_percentiles=1`), of reads where the cell has any.  "
            "Syscalls per IO count io_submit, io_getevents, io_uring_enter, "
            "pread/pwrite and fsync/fdatasync under `strace -f -c` in one extra round "
            "of each (iomatrix's count includes the few fsyncs that write its result "
            "set).  Coverage: the share of the blocks of a 16 MiB range that one "
            "pass touched (IOMATRIX_TRACE against fio's write_iolog), random "
            "single-job cells only.  CPU per IO: iomatrix's cpu.ns_per_io (job "
            "threads) against fio's usr+sys over its job runtime (a CPU-bound cell, "
            "as most on zram are, runs at the speed of its CPU per IO).  Goals: IOPS ratio 0.95-1.05, p50 and p99 "
            "within +-10 %, syscalls per IO within +-10 %, coverage within 0.02.\n\n")
        f.write(table + "\n")
        notes = os.environ.get("FIDELITY_NOTES",
                               os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes.md"))
        if notes and os.path.exists(notes):
            f.write("\n" + open(notes).read())
    print("\nfidelity: table written to %s (%.0f s)" % (OUT, time.time() - t0))
    return 1 if failed else 0


sys.exit(main())
