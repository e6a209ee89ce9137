#!/usr/bin/env python3
"""gen_hour_cell.py - turn the first cell of a SYNTHETIC set (made by
tests/report/gen_synthetic.py) into a cell of one repetition of SECONDS
intervals of 1 s, each with its latency histogram (series.hist), as a 4K
random read on a busy machine fills them: a log-normal around 60 us with
a tail, about 500 non-empty buckets an interval.  For make bench's
one-hour cell (load time) and the tests of its size.  The numbers are
consistent the way cellcheck and the reader hold a cell to: the
intervals add up to hist and to ios, the percentiles are the histogram's.

usage: gen_hour_cell.py SETDIR [SECONDS] [--stall FROM:TO:FACTOR]
"""
import argparse, json, math, os, random, sys

PCTS = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99]
NB = 64 + 34 * 64

# the bucket arithmetic of the tests (tests/ivhist.py)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ivhist import low, mid  # noqa: E402


def high(i):
    return i if i < 64 else low(i) + (1 << ((i - 64) // 64)) - 1


def cdf(x, mu, sigma):
    return 0.5 * (1 + math.erf((math.log(x) - mu) / (sigma * math.sqrt(2)))) if x > 0 else 0.0

def interval(rng, n, median_ns, sigma):
    mu = math.log(median_ns)
    out = []
    prev = 0.0
    for i in range(64 * 7, NB):
        c = cdf(high(i) + 1, mu, sigma)
        p = c - prev
        prev = c
        k = int(n * p + rng.random())
        if k > 0:
            out.append((i, k))
        if c > 1 - 1e-12:
            break
    return out

def pct(tot, n, p):
    rank = max(1, min(n, math.ceil(p / 100 * n - 1e-9)))
    cum = 0
    for i in sorted(tot):
        cum += tot[i]
        if cum >= rank:
            return mid(i)

def encode(pairs):
    toks, cur = [], 0
    for i, k in pairs:
        if i > cur:
            toks.append("-%d" % (i - cur))
        toks.append(str(k))
        cur = i + 1
    return " ".join(toks)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("set")
    ap.add_argument("seconds", type=int, nargs="?", default=3600)
    ap.add_argument("--stall", default=None, help="FROM:TO:FACTOR: intervals [FROM, TO) slower")
    a = ap.parse_args()
    rng = random.Random(39)
    path = os.path.join(a.set, "cells", "0001.json")
    cell = json.load(open(path))
    st = [int(x) for x in a.stall.split(":")] if a.stall else None
    ivs, tot, ios, lat_sum = [], {}, [], []
    for t in range(a.seconds):
        slow = st and st[0] <= t < st[1]
        pairs = interval(rng, 12000 if slow else 40000, 60000 * (st[2] if slow else 1), 0.9)
        ivs.append(encode(pairs))
        n = sum(k for _, k in pairs)
        ios.append(n)
        lat_sum.append(sum(mid(i) * k for i, k in pairs))
        for i, k in pairs:
            tot[i] = tot.get(i, 0) + k
    n = sum(ios)
    mean = sum(lat_sum) / n
    var = sum(k * (mid(i) - mean) ** 2 for i, k in tot.items()) / (n - 1)
    lat = {"min": low(min(tot)), "max": high(max(tot)), "mean": mean, "stddev": math.sqrt(var),
           "percentiles": {"%f" % p: pct(tot, n, p) for p in PCTS}}
    rt = a.seconds * 1000000000
    rep = {"rep": 1, "runtime_ns": rt, "read": {
        "ios": n, "bytes": n * 4096, "iops": n / a.seconds, "bw_bytes_s": n * 4096 / a.seconds,
        "lat_ns": lat,
        "hist": {"scheme": "loglin64", "buckets": [[low(i), tot[i]] for i in sorted(tot)]},
        "series": {"interval_ns": 1000000000, "ios": ios, "bytes": [x * 4096 for x in ios],
                   "lat_mean_ns": [s / x if x else 0 for s, x in zip(lat_sum, ios)],
                   "hist": {"scheme": "loglin64", "encoding": "skip-counts", "intervals": ivs}}}}
    one = lambda v: {"n": 1, "mean": v, "stddev": 0, "min": v, "max": v, "cv": 0, "ci95": 0}
    cell["repetitions"] = [rep]
    cell["params"]["runtime_ns"] = rt
    cell["summary"] = {"read": {"iops": one(n / a.seconds), "bw_bytes_s": one(n * 4096 / a.seconds),
                                "lat_mean_ns": one(mean), "lat_p50_ns": one(pct(tot, n, 50)),
                                "lat_p99_ns": one(pct(tot, n, 99)), "lat_max_ns": one(lat["max"])},
                       "lat_ns_merged": {"read": lat}}
    json.dump(cell, open(path, "w"), indent="\t")
    print("%d intervals, %d IOs, %.0f bytes of series.hist an interval" %
          (a.seconds, n, sum(len(json.dumps(x)) + 2 for x in ivs) / a.seconds))

main()
