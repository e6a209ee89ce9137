# Sourced after tests/lib.sh by tests of the per-interval histograms
# (series.hist, results/README.md): a decoder of the skip-counts text
# written apart from the C one (bench/resultset/histfile.c), so that a test
# holds the file to the documented format, not to the reader's code.
#
#   ivhist_check SET...      every repetition's intervals add up, bucket by
#                            bucket, to its histogram, and each interval to
#                            its series' ios; prints "N intervals, M IOs";
#                            fails when a repetition has no series.hist
#   ivhist_pct FILE REP DIR P   interval I's percentile P (the bucket's
#                            midpoint, as iomatrix reports) of repetition
#                            REP (1-based) of cell FILE: "I NS" per line
#   ivhist_buckets FILE REP DIR   "I LOW_NS COUNT" per non-empty bucket
IVHIST_PY='
import glob, json, os, sys

def low(i):
    if i < 64: return i
    g, s = divmod(i - 64, 64)
    return (64 + s) << g

def mid(i):
    if i < 64: return i
    g = (i - 64) // 64
    return low(i) + ((1 << g) - 1) // 2

def decode(t):
    out, cur = [], 0
    for tok in (t.split(" ") if t else []):
        v = int(tok)
        assert v != 0 and str(v) == tok, "bad token %r" % tok
        if v < 0: cur -= v
        else:
            out.append((cur, v)); cur += 1
    assert cur <= 2240, "past the last bucket"
    return out

def reps(cell):
    for r in cell.get("repetitions", []):
        for d in ("read", "write"):
            if d in r: yield r, d, r[d]

def pct(pairs, p):
    n = sum(c for _, c in pairs)
    if not n: return 0
    x = p / 100.0 * n
    rank = int(x)
    if x - rank > 1e-9 * max(x, 1): rank += 1
    rank = min(max(rank, 1), n)
    cum = 0
    for i, c in pairs:
        cum += c
        if cum >= rank: return mid(i)

cmd = sys.argv[1]
if cmd == "check":
    nint = nios = 0
    for s in sys.argv[2:]:
        for f in sorted(glob.glob(os.path.join(s, "cells", "*.json"))):
            cell = json.load(open(f))
            for r, d, x in reps(cell):
                se = x["series"]
                h = se.get("hist")
                assert h, "%s rep %d %s: no series.hist" % (f, r["rep"], d)
                assert h["scheme"] == "loglin64" and h["encoding"] == "skip-counts"
                iv = h["intervals"]
                assert len(iv) == len(se["ios"]), "%s: %d intervals, %d ios" % (f, len(iv), len(se["ios"]))
                tot = {}
                for k, t in enumerate(iv):
                    pairs = decode(t)
                    assert sum(c for _, c in pairs) == se["ios"][k], "%s rep %d %s interval %d: %d IOs, ios %d" % (f, r["rep"], d, k, sum(c for _, c in pairs), se["ios"][k])
                    for i, c in pairs: tot[low(i)] = tot.get(low(i), 0) + c
                    nint += 1
                run = {lo: c for lo, c in x["hist"]["buckets"]}
                assert tot == run, "%s rep %d %s: the intervals do not add up to hist" % (f, r["rep"], d)
                assert sum(run.values()) == x["ios"], "%s: hist holds %d, ios %d" % (f, sum(run.values()), x["ios"])
                nios += x["ios"]
    print("%d intervals, %d IOs" % (nint, nios))
elif cmd in ("pct", "buckets"):
    cell = json.load(open(sys.argv[2]))
    x = cell["repetitions"][int(sys.argv[3]) - 1][sys.argv[4]]
    for k, t in enumerate(x["series"]["hist"]["intervals"]):
        pairs = decode(t)
        if cmd == "pct":
            print(k, pct(pairs, float(sys.argv[5])))
        else:
            for i, c in pairs: print(k, low(i), c)
'
ivhist_check() { python3 -c "$IVHIST_PY" check "$@"; }
ivhist_pct() { python3 -c "$IVHIST_PY" pct "$@"; }
ivhist_buckets() { python3 -c "$IVHIST_PY" buckets "$@"; }
# ivhist_fio_kept LOG CELLFILE: every count of fio's histogram log LOG
# (write_hist_log) in the reads of the imported cell, window by window and
# bucket by bucket (fio's bin i and iomatrix's bucket share their edges);
# prints "N of M windows", fails unless all agree
ivhist_fio_kept() {
	python3 - "$1" "$2" <<'EOP'
import json, sys
def bucket(i):
    lo = i if i < 128 else (64 + (i & 63)) << ((i >> 6) - 1)
    if lo < 64: return lo
    g = lo.bit_length() - 7
    return 64 + g * 64 + ((lo >> g) & 63)
def decode(t):
    out, cur = {}, 0
    for tok in (t.split(" ") if t else []):
        v = int(tok)
        if v < 0: cur -= v
        else: out[cur] = v; cur += 1
    return out
ivs = json.load(open(sys.argv[2]))["repetitions"][0]["read"]["series"]["hist"]["intervals"]
n = good = 0
for k, line in enumerate(l for l in open(sys.argv[1]) if l.strip()):
    f = [int(x) for x in line.split(",")]
    want = {}
    for b, c in enumerate(f[3:]):
        if c: want[bucket(b)] = want.get(bucket(b), 0) + c
    n += 1
    good += k < len(ivs) and decode(ivs[k]) == want
print("%d of %d windows" % (good, n))
sys.exit(0 if n and good == n else 1)
EOP
}
