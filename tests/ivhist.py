#!/usr/bin/env python3
"""ivhist.py - the per-interval histograms of cell files (series.hist,
results/README.md) read by a decoder written apart from the C one
(bench/resultset/histfile.c), so that tests hold the files to the
documented format, not to the reader's code.  tests/lib_ivhist.sh wraps
the commands:

  check SET...          every repetition's intervals add up, bucket by
                        bucket, to its histogram, and each to its series'
                        ios; "N intervals, M IOs"
  pct FILE REP DIR P    interval I's percentile P (the bucket's midpoint,
                        as iomatrix reports it): "I NS" per line
  buckets FILE REP DIR  "I LOW_NS COUNT" per non-empty bucket
  fio-kept LOG FILE     every count of fio's histogram log LOG in the
                        reads of the imported cell FILE, window by window
  agg-sum SET           a fleet set's aggregate cells: each interval the
                        sum of its hosts' (same plan_id), bucket by bucket
"""
import glob
import json
import os
import sys

NB = 64 + 34 * 64


def low(i):
    if i < 64:
        return i
    g, s = divmod(i - 64, 64)
    return (64 + s) << g


def mid(i):
    if i < 64:
        return i
    return low(i) + ((1 << ((i - 64) // 64)) - 1) // 2


def decode(t):
    """One interval's skip-counts text: {bucket: count}."""
    out, cur = {}, 0
    for tok in (t.split(" ") if t else []):
        v = int(tok)
        assert v != 0 and str(v) == tok, "bad token %r" % tok
        if v < 0:
            cur -= v
        else:
            out[cur] = v
            cur += 1
    assert cur <= NB, "past the last bucket"
    return out


def pct(pairs, p):
    n = sum(pairs.values())
    if not n:
        return 0
    x = p / 100.0 * n
    rank = int(x)
    if x - rank > 1e-9 * max(x, 1):
        rank += 1
    rank = min(max(rank, 1), n)
    cum = 0
    for i in sorted(pairs):
        cum += pairs[i]
        if cum >= rank:
            return mid(i)


def cells(setdir):
    for f in sorted(glob.glob(os.path.join(setdir, "cells", "*.json"))):
        yield f, json.load(open(f))


def check(sets):
    nint = nios = 0
    for s in sets:
        for f, cell in cells(s):
            for r in cell.get("repetitions", []):
                for d in ("read", "write"):
                    if d not in r:
                        continue
                    x = r[d]
                    se = x["series"]
                    h = se.get("hist")
                    assert h, "%s rep %d %s: no series.hist" % (f, r["rep"], d)
                    assert h["scheme"] == "loglin64" and h["encoding"] == "skip-counts"
                    iv = h["intervals"]
                    assert len(iv) == len(se["ios"]), "%s: %d intervals, %d ios" % (f, len(iv), len(se["ios"]))
                    tot = {}
                    for k, t in enumerate(iv):
                        pairs = decode(t)
                        assert sum(pairs.values()) == se["ios"][k], \
                            "%s rep %d %s interval %d: %d IOs, ios %d" % (
                                f, r["rep"], d, k, sum(pairs.values()), se["ios"][k])
                        for i, c in pairs.items():
                            tot[low(i)] = tot.get(low(i), 0) + c
                        nint += 1
                    run = {lo: c for lo, c in x["hist"]["buckets"]}
                    assert tot == run, "%s rep %d %s: the intervals do not add up to hist" % (f, r["rep"], d)
                    # an aggregate's ios are its rate times the common window
                    assert cell.get("host") == "all" or sum(run.values()) == x["ios"], \
                        "%s: hist holds %d, ios %d" % (f, sum(run.values()), x["ios"])
                    nios += x["ios"]
    print("%d intervals, %d IOs" % (nint, nios))


def fio_bucket(i):
    """fio's bin i (its stat.h) as iomatrix's bucket: the same edges."""
    lo = i if i < 128 else (64 + (i & 63)) << ((i >> 6) - 1)
    if lo < 64:
        return lo
    g = lo.bit_length() - 7
    return 64 + g * 64 + ((lo >> g) & 63)


def fio_windows(logf):
    """fio's histogram log: one {bucket: count} per line."""
    for line in open(logf):
        if line.strip():
            f = [int(x) for x in line.split(",")]
            want = {}
            for b, c in enumerate(f[3:]):
                if c:
                    want[fio_bucket(b)] = want.get(fio_bucket(b), 0) + c
            yield want


def fio_kept(logf, cellf):
    """(windows, windows the import holds count for count)."""
    ivs = json.load(open(cellf))["repetitions"][0]["read"]["series"]["hist"]["intervals"]
    n = good = 0
    for k, want in enumerate(fio_windows(logf)):
        n += 1
        good += k < len(ivs) and decode(ivs[k]) == want
    return n, good


def agg_sum(setdir):
    cs = [c for _, c in cells(setdir)]
    n = nh = 0
    for a in (c for c in cs if c.get("host") == "all"):
        hosts = [c for c in cs if c.get("host") != "all" and c.get("plan_id") == a.get("plan_id")]
        assert hosts, "aggregate cell %s has no host cells" % a["id"]
        nh += len(hosts)
        for r, rep in enumerate(a["repetitions"]):
            for d in ("read", "write"):
                if d not in rep:
                    continue
                agg = rep[d]["series"]["hist"]["intervals"]
                hs = [h["repetitions"][r][d]["series"]["hist"]["intervals"] for h in hosts]
                assert len(agg) == max(len(x) for x in hs), "cell %s rep %d %s: %d intervals, hosts %s" % (
                    a["id"], r + 1, d, len(agg), [len(x) for x in hs])
                for i, t in enumerate(agg):
                    want = {}
                    for x in hs:
                        for b, k in decode(x[i] if i < len(x) else "").items():
                            want[b] = want.get(b, 0) + k
                    assert decode(t) == want, "cell %s rep %d %s interval %d: not the hosts' sum" % (
                        a["id"], r + 1, d, i)
                    n += 1
    assert n, "no aggregate interval"
    print("%d aggregate intervals over %d host cells" % (n, nh))


def main(a):
    if a[0] == "check":
        check(a[1:])
    elif a[0] in ("pct", "buckets"):
        x = json.load(open(a[1]))["repetitions"][int(a[2]) - 1][a[3]]
        for k, t in enumerate(x["series"]["hist"]["intervals"]):
            pairs = decode(t)
            if a[0] == "pct":
                print(k, pct(pairs, float(a[4])))
            else:
                for i in sorted(pairs):
                    print(k, low(i), pairs[i])
    elif a[0] == "fio-kept":
        n, good = fio_kept(a[1], a[2])
        print("%d of %d windows" % (good, n))
        return 0 if n and good == n else 1
    elif a[0] == "agg-sum":
        agg_sum(a[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
