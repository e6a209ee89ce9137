#!/bin/sh
# The load points of a swept cell are in report.csv (one row
# per offered point, after the cell's own rows: load_point, offered and
# achieved IOPS, response and service p50/p99/p99.9, refined) and in
# report.json (results[].load_points), with the cell file's numbers
# unchanged; a set without a sweep has no such row or key, and every CSV
# row has the header's number of columns.
. "$(dirname "$0")/../../lib.sh"
G="$ROOT/tests/report/gen_synthetic.py"
python3 "$G" "$T/sw" --devices hdd:hdd,ssd:ssd --cells 4 --sweep --qos-ms 50 >/dev/null \
	|| fail "gen_synthetic --sweep"
python3 "$G" "$T/plain" --devices hdd:hdd,ssd:ssd --cells 4 >/dev/null || fail "gen_synthetic"
for s in sw plain; do
	expect_exit 0 "$IOMATRIX" report "$T/$s" -o "$T/r$s" --charts none --format csv,json
done
python3 - "$T/sw" "$T/rsw" >"$T/py" 2>&1 <<'PY' && ok "CSV and JSON load points equal the cell files' ($(cat "$T/py"))" \
	|| { not_ok "load points differ"; sed 's/^/# /' "$T/py"; }
import csv, glob, json, os, sys
setdir, rep = sys.argv[1], sys.argv[2]
cells = {}
for f in glob.glob(os.path.join(setdir, "cells", "*.json")):
    c = json.load(open(f))
    if c.get("load_sweep"):
        cells[(c["params"]["device"], c["params"]["label"], c["params"]["pattern"])] = c
assert cells, "no swept cell in the synthetic set"
rows = list(csv.DictReader(open(os.path.join(rep, "report.csv"), newline="")))
pts = {}
for r in rows:
    if r["load_point"]:
        pts.setdefault((r["device"], r["label"], r["pattern"]), []).append(r)
assert set(pts) == set(cells), "CSV swept cells %s vs %s" % (sorted(pts), sorted(cells))
n = 0
for k, c in cells.items():
    want = c["load_sweep"]["points"]
    got = pts[k]
    assert len(got) == len(want), (k, len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        assert int(g["load_point"]) == i + 1
        for col, v in (("offered_iops", w["offered_iops"]), ("achieved_iops", w["achieved_iops"]),
                       ("response_p50_ns", w["response"]["p50_ns"]), ("response_p99_ns", w["response"]["p99_ns"]),
                       ("response_p999_ns", w["response"]["p999_ns"]), ("service_p50_ns", w["service"]["p50_ns"]),
                       ("service_p99_ns", w["service"]["p99_ns"]), ("service_p999_ns", w["service"]["p999_ns"])):
            assert float(g[col]) == float(v), (k, i, col, g[col], v)
        assert g["refined"] == ("true" if w["refined"] else "false")
        assert g["iops_mean"] == "", "a load-point row with the cell's metrics"
        n += 1
j = json.load(open(os.path.join(rep, "report.json")))
m = 0
for g in j["groups"]:
    for r in g["results"]:
        c = json.load(open(os.path.join(setdir, "cells", "%04d.json" % r["cell_id"])))
        if not c.get("load_sweep"):
            assert "load_points" not in r
            continue
        for a, w in zip(r["load_points"], c["load_sweep"]["points"]):
            assert a["offered_iops"] == w["offered_iops"] and a["achieved_iops"] == w["achieved_iops"]
            for kind in ("response", "service"):
                for q in ("p50_ns", "p99_ns", "p999_ns"):
                    assert a[kind][q] == w[kind][q], (r["cell_id"], kind, q)
            assert a["refined"] == w["refined"]
            m += 1
assert m == n, (m, n)
print("%d load points in CSV and JSON" % n)
PY
python3 - "$T/rsw/report.csv" "$T/rplain/report.csv" <<'PY' && ok "every CSV row has the header's columns" \
	|| not_ok "ragged CSV"
import csv, sys
for f in sys.argv[1:]:
    rows = list(csv.reader(open(f, newline="")))
    assert all(len(r) == len(rows[0]) for r in rows), f
PY
# the silent side: no sweep, no load-point row or key
python3 - "$T/rplain" <<'PY' && ok "no sweep: no load-point rows or keys" || not_ok "load points without a sweep"
import csv, json, os, sys
rows = list(csv.DictReader(open(os.path.join(sys.argv[1], "report.csv"), newline="")))
assert rows and not any(r["load_point"] for r in rows)
j = json.load(open(os.path.join(sys.argv[1], "report.json")))
assert not any("load_points" in r for g in j["groups"] for r in g["results"])
PY
tap_end
