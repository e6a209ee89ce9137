#!/usr/bin/env python3
"""gen_steady.py - write steady/DEVICE.json into an existing result set, as
the SSD rounds (bench/pts/run_ssd.c) store it: every round's tracked value
per track, and the verdict of the FINAL window only, which is what the
runner keeps.  The rule is judged here with the math of
bench/stats/steady.c, so a report can be checked against it.

  gen_steady.py SETDIR DEVICE --track RR=1000,1010,... [--track ...]
                [--window 5] [--range 20] [--slope 10] [--max 25]

Also importable: judge(values, window, range_pct, slope_pct) and
first_round(...) for the tests that recompute a row.
"""
import argparse
import json
import os

EPS = 1e-9


def judge(x, window, range_pct, slope_pct):
    """The verdict of the last `window` values of x (steady_judge())."""
    w = max(window, 2)
    win = x[-w:] if len(x) > w else x[:]
    m = len(win)
    avg = sum(win) / m
    rng = max(win) - min(win)
    tbar = (m - 1) / 2.0
    sxx = sum((i - tbar) ** 2 for i in range(m))
    sxy = sum((i - tbar) * (win[i] - avg) for i in range(m))
    slope = sxy / sxx if sxx > 0 else 0.0
    exc = slope * (m - 1)
    rf = rng / abs(avg) if avg else 0.0
    sf = abs(exc) / abs(avg) if avg else 0.0
    judged = m >= w
    rok = judged and avg != 0 and rf <= range_pct / 100 + EPS
    sok = judged and avg != 0 and sf <= slope_pct / 100 + EPS
    return {"judged": judged, "steady": rok and sok, "range_ok": rok,
            "slope_ok": sok, "avg": avg, "range": rng,
            "range_pct": rf * 100, "slope": slope, "excursion": exc,
            "slope_pct": sf * 100}


def first_round(x, window, range_pct, slope_pct):
    """1-based round at which x is first steady, 0 when never."""
    for k in range(1, len(x) + 1):
        if judge(x[:k], window, range_pct, slope_pct)["steady"]:
            return k
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("setdir")
    ap.add_argument("device")
    ap.add_argument("--track", action="append", required=True,
                    help="LABEL=v1,v2,... one value per round, oldest first")
    ap.add_argument("--window", type=int, default=5)
    ap.add_argument("--range", type=float, default=20)
    ap.add_argument("--slope", type=float, default=10)
    ap.add_argument("--max", type=int, default=25)
    a = ap.parse_args()
    tracks, rounds = [], 0
    for i, t in enumerate(a.track):
        label, vals = t.split("=", 1)
        x = [float(v) for v in vals.split(",")]
        rounds = max(rounds, len(x))
        v = judge(x, a.window, a.range, a.slope)
        k = first_round(x, a.window, a.range, a.slope)
        tracks.append(dict(label=label, cell_id=i + 1, values=x,
                           steady=v["steady"],
                           first_steady_round=k or None,
                           avg=v["avg"], range=v["range"],
                           range_pct=v["range_pct"], slope=v["slope"],
                           excursion=v["excursion"],
                           slope_pct=v["slope_pct"],
                           range_ok=v["range_ok"], slope_ok=v["slope_ok"]))
    # the device is steady at the first round where every track is
    sr = 0
    for k in range(1, rounds + 1):
        if all(judge(t["values"][:k], a.window, a.range, a.slope)["steady"]
               for t in tracks):
            sr = k
            break
    doc = {"schema_version": 1, "device": a.device, "metric": "iops",
           "rule": {"window": a.window, "range_pct": a.range,
                    "slope_pct": a.slope, "max": a.max},
           "rounds_done": rounds,
           "status": "steady" if sr else "not_reached",
           "steady_round": sr or None,
           "window": {"first": max(rounds - a.window + 1, 1), "last": rounds},
           "tracks": tracks}
    os.makedirs(os.path.join(a.setdir, "steady"), exist_ok=True)
    with open(os.path.join(a.setdir, "steady", a.device + ".json"), "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
