#!/usr/bin/env python3
"""check_steady_rows.py - recompute every steady-state row of a Markdown
report from the stored rounds (steady/DEVICE.json, with the math of
bench/stats/steady.c as gen_steady.py has it) and check the row:

  check_steady_rows.py REPORT.md STEADY.json

Each row names its window ("a-b" or "a-b (final)"); its range and slope
must be that window's, its average that window's to 3 significant
figures, and its verdict says "steady" exactly when that window meets the
rule ("rule first met at round k" only for the first such window).  Every
track has a row for its final window.  Prints one line per problem, exit 1
when there is one.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_steady import judge, first_round  # noqa: E402

ROW = re.compile(r"^\| (.+?) \| (\d+)-(\d+)( \(final\))? \| ([\d,.]+) \| "
                 r"([\d.]+) % \| ([\d.]+) % \| (.+?) \|$")
# a row that names no window (reports before the window column): its numbers
# are judged as the final window's, which is what such reports printed
ROW_NOWIN = re.compile(r"^\| (.+?) \| ([\d,.]+) \| ([\d.]+) % \| "
                       r"([\d.]+) % \| (.+?) \|$")


def main():
    md, sj = sys.argv[1], sys.argv[2]
    doc = json.load(open(sj))
    rule = doc["rule"]
    w, rp, sp = rule["window"], rule["range_pct"], rule["slope_pct"]
    tracks = {t["label"]: t["values"] for t in doc["tracks"]}
    text = open(md).read()
    sect = text[text.index("## Steady state"):]
    end = sect.find("\n## ", 3)
    sect = sect if end < 0 else sect[:end]
    lines = [l for l in sect.splitlines()
             if l.startswith("| ") and not l.startswith("| Tracking")]
    rows = []
    bad, seen = [], {}
    for l in lines:
        m, o = ROW.match(l), ROW_NOWIN.match(l)
        if m:
            lab, a, b, fin, avg, rng, slo, verdict = m.groups()
            a, b = int(a), int(b)
        elif o:
            bad.append("row names no window: %s" % l)
            lab, avg, rng, slo, verdict = o.groups()
            b = len(tracks[lab])
            a = max(b - w + 1, 1)
        else:
            bad.append("row not understood: %s" % l)
            continue
        rows.append(l)
        x = tracks[lab]
        seen.setdefault(lab, []).append((a, b, verdict))
        if b - a + 1 != min(w, b):
            bad.append("%s %d-%d: not a window of %d" % (lab, a, b, w))
        v = judge(x[:b], w, rp, sp)
        if "%.1f" % v["range_pct"] != rng or "%.1f" % v["slope_pct"] != slo:
            bad.append("%s %d-%d: range %s %%, slope %s %%, recomputed %.1f, %.1f"
                       % (lab, a, b, rng, slo, v["range_pct"], v["slope_pct"]))
        shown = float(avg.replace(",", ""))
        if abs(shown - v["avg"]) > 0.005 * abs(v["avg"]):
            bad.append("%s %d-%d: average %s, recomputed %g" % (lab, a, b, avg, v["avg"]))
        if verdict.startswith("steady") != v["steady"]:
            bad.append("%s %d-%d: '%s' but the window %s the rule"
                       % (lab, a, b, verdict, "meets" if v["steady"] else "fails"))
        k = re.search(r"first met at round (\d+)", verdict)
        if k and int(k.group(1)) != b or k and first_round(x, w, rp, sp) != b:
            bad.append("%s %d-%d: '%s', first steady round %d"
                       % (lab, a, b, verdict, first_round(x, w, rp, sp)))
    for lab, x in tracks.items():
        if not any(b == len(x) for a, b, _ in seen.get(lab, [])):
            bad.append("%s: no row for the final window" % lab)
    for l in bad:
        print(l)
    return 1 if bad or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
