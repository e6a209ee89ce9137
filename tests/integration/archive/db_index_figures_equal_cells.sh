#!/bin/sh
# iomatrix index of a real archive (tests/data/db-archive/sets: runs with
# repetitions and series, a load sweep with a QoS target, SNIA PTS rounds,
# a fleet survey over ssh, an MPI survey, a reproduction, fio, sysbench and
# CSV imports): every figure of results, percentiles (each repetition's and
# the merged ones), load_points and series equals the cell file's, to the
# digit (the same double); every cell, repetition and direction has its
# rows and no row is left over; views and workload keys are there.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 -c 'import sqlite3' 2>/dev/null || skip "python3 has no sqlite3 module"
cp -a "$ROOT/tests/data/db-archive/sets" "$T/a"
expect_exit 0 "$IOMATRIX" index "$T/a"
grep -q "index.sqlite: 9 sets (9 read, 0 unchanged, 0 dropped); made anew" "$T/out" &&
	ok "9 sets indexed" || not_ok "index: $(cat "$T/out" "$T/err")"
python3 - "$T/a" <<'PY'
import glob, json, os, sqlite3, sys
a = sys.argv[1]
db = sqlite3.connect("file:%s/index.sqlite?mode=ro" % a, uri=True)
q = lambda sql, *p: db.execute(sql, p).fetchall()
fails = []
def eq(what, want, got):
    if want is None and got is None:
        return
    if want != got or type(want) is not type(got) and not (isinstance(want, (int, float)) and isinstance(got, (int, float))):
        fails.append("%s: cell file %r, index %r" % (what, want, got))
n = {"results": 0, "percentiles": 0, "load_points": 0, "series": 0, "sets": 0, "cells": 0}
for setdir in sorted(glob.glob(a + "/*/manifest.json")):
    setdir = os.path.dirname(setdir)
    rel = os.path.basename(setdir)
    row = q("SELECT set_id, verified FROM sets WHERE path = ?", rel)
    if not row:
        fails.append("no sets row for " + rel)
        continue
    sid, verified = row[0]
    eq(rel + " verified", "intact", verified)
    n["sets"] += 1
    for cf in sorted(glob.glob(setdir + "/cells/*.json")):
        c = json.load(open(cf))
        cid = c["id"]
        w = "%s cell %d" % (rel, cid)
        n["cells"] += 1
        if not q("SELECT 1 FROM cells WHERE set_id = ? AND cell_id = ?", sid, cid):
            fails.append(w + ": no cells row")
        for r, rep in enumerate(c.get("repetitions", []), 1):
            for d in ("read", "write"):
                x = rep.get(d)
                if not isinstance(x, dict):
                    continue
                got = q("SELECT ios, bytes, runtime_ns, iops, bw_bytes_s, lat_mean_ns, lat_min_ns, "
                        "lat_max_ns, lat_stddev_ns FROM results WHERE set_id = ? AND cell_id = ? "
                        "AND rep = ? AND direction = ?", sid, cid, r, d)
                if len(got) != 1:
                    fails.append("%s rep %d %s: %d results rows" % (w, r, d, len(got)))
                    continue
                n["results"] += 1
                lat = x.get("lat_ns", {})
                want = (x.get("ios"), x.get("bytes"), rep.get("runtime_ns"), x.get("iops"),
                        x.get("bw_bytes_s"), lat.get("mean"), lat.get("min"), lat.get("max"),
                        lat.get("stddev"))
                for k, (wv, gv) in enumerate(zip(want, got[0])):
                    eq("%s rep %d %s results col %d" % (w, r, d, k), wv, gv)
                pc = {float(p): v for p, v in lat.get("percentiles", {}).items()}
                gp = dict(q("SELECT p, ns FROM percentiles WHERE set_id = ? AND cell_id = ? AND "
                            "rep = ? AND direction = ?", sid, cid, r, d))
                eq("%s rep %d %s percentiles" % (w, r, d), pc, gp)
                n["percentiles"] += len(gp)
                se = x.get("series")
                if isinstance(se, dict) and se.get("bytes"):
                    gs = q("SELECT i, bytes, ios, lat_mean_ns FROM series WHERE set_id = ? AND "
                           "cell_id = ? AND rep = ? AND direction = ? AND fine = 0 ORDER BY i",
                           sid, cid, r, d)
                    ws = [(i, b, se.get("ios", [None] * len(se["bytes"]))[i],
                           se.get("lat_mean_ns", [None] * len(se["bytes"]))[i])
                          for i, b in enumerate(se["bytes"])]
                    eq("%s rep %d %s series" % (w, r, d), ws, [tuple(x) for x in gs])
                    n["series"] += len(gs)
        merged = c.get("summary", {}).get("lat_ns_merged", {})
        for d, lat in merged.items():
            if not isinstance(lat, dict) or not lat.get("percentiles"):
                continue
            pc = {float(p): v for p, v in lat["percentiles"].items()}
            gp = dict(q("SELECT p, ns FROM percentiles WHERE set_id = ? AND cell_id = ? AND rep = 0 "
                        "AND direction = ?", sid, cid, d))
            eq("%s merged %s percentiles" % (w, d), pc, gp)
            n["percentiles"] += len(gp)
        ls = c.get("load_sweep")
        if ls:
            got = q("SELECT offered_iops, achieved_iops, refined, response_p50_ns, response_p99_ns, "
                    "response_p999_ns, response_p9999_ns, response_mean_ns, service_p50_ns, "
                    "service_p99_ns, service_p999_ns, service_mean_ns, knee FROM load_points "
                    "WHERE set_id = ? AND cell_id = ? ORDER BY point", sid, cid)
            want = [(p["offered_iops"], p["achieved_iops"], int(p.get("refined", False)),
                     p["response"]["p50_ns"], p["response"]["p99_ns"], p["response"]["p999_ns"],
                     p["response"]["p9999_ns"], p["response"]["mean_ns"], p["service"]["p50_ns"],
                     p["service"]["p99_ns"], p["service"]["p999_ns"], p["service"]["mean_ns"],
                     int(ls.get("knee_index") == i)) for i, p in enumerate(ls["points"])]
            eq(w + " load_points", want, [tuple(x) for x in got])
            n["load_points"] += len(got)
            mx = q("SELECT max_iops FROM load_sweeps WHERE set_id = ? AND cell_id = ?", sid, cid)
            eq(w + " max_iops", ls["max_iops"], mx[0][0] if mx else None)
# nothing in the index that the files do not hold
for t, k in (("results", "results"), ("load_points", "load_points"), ("series", "series")):
    total = q("SELECT count(*) FROM %s WHERE fine = 0" % t if t == "series" else
              "SELECT count(*) FROM %s" % t)[0][0]
    eq("rows of " + t, n[k], total)
eq("percentile rows", n["percentiles"], q("SELECT count(*) FROM percentiles")[0][0])
eq("cells rows", n["cells"], q("SELECT count(*) FROM cells")[0][0])
kinds = {k: q(sql)[0][0] for k, sql in {
    "fleet": "SELECT count(*) FROM sets WHERE fleet_hosts IS NOT NULL",
    "pts": "SELECT count(*) FROM steady_state WHERE cell_id IS NULL AND rounds > 0",
    "sweep": "SELECT count(*) FROM load_sweeps WHERE sustained_iops > 0",
    "import": "SELECT count(DISTINCT source) FROM sets WHERE source IN ('fio', 'sysbench', 'csv')",
    "repro": "SELECT count(*) FROM reproductions r JOIN sets s ON s.name = r.original",
    "hosts": "SELECT count(DISTINCT host) FROM cells WHERE host IS NOT NULL",
    "views": "SELECT count(*) FROM report_numbers WHERE iops > 0 AND lat_mean_ns > 0"}.items()}
for k, want in (("fleet", 2), ("pts", 1), ("sweep", 1), ("import", 3), ("repro", 1), ("hosts", 5)):
    if kinds[k] != want:
        fails.append("%s: %r, expected %r" % (k, kinds[k], want))
if kinds["views"] < 50:
    fails.append("report_numbers: %d rows" % kinds["views"])
for f in fails[:20]:
    print("# " + f)
print("# %s" % n)
sys.exit(1 if fails or n["results"] < 100 or n["percentiles"] < 1000 or n["load_points"] < 4 else 0)
PY
[ $? = 0 ] && ok "every figure of results, percentiles, load_points and series equals the cell files'" ||
	not_ok "figures differ"
tap_end
