#!/bin/sh
# Latency kinds: every cell says which latency it holds
# (latency_kind: total = submission to completion, fio's lat; completion =
# fio's clat).  An import of fio's default JSON (percentiles on clat only)
# holds completion latency, mean and percentiles alike, and keeps fio's
# total latency apart (lat_total_ns); with lat_percentiles=1 it holds
# total and keeps clat apart.  A native cell says total.  A report column
# never mixes kinds: a group of completion rows names the kind in its
# headers, a group mixing a total row and a completion row names it on
# each value, the ratio of a total and a completion mean is not given,
# and a note says what "completion" means.  The other side: a report of
# total-latency cells alone says none of it.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
D="$ROOT/tests/data/fio"
expect_exit 0 "$IOMATRIX" import fio "$D/randread-4k-qd16.json" --device ssd -o "$T/clat"
expect_exit 0 "$IOMATRIX" import fio "$D/lat-percentiles-jsonplus.json" -o "$T/lat"
kind() { python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); r=c["repetitions"][0]["read"]; print(c.get("latency_kind"), "lat_total_ns" in r, "lat_completion_ns" in r)' "$1"; }
[ "$(kind "$T/clat/cells/0001.json")" = "completion True False" ] \
	&& ok "clat-only import: latency_kind completion, fio's lat kept apart" \
	|| not_ok "clat import: $(kind "$T/clat/cells/0001.json")"
[ "$(kind "$T/lat/cells/0001.json")" = "total False True" ] \
	&& ok "lat_percentiles=1 import: latency_kind total, fio's clat kept apart" \
	|| not_ok "lat import: $(kind "$T/lat/cells/0001.json")"
# the clat import's mean is fio's clat mean (198 us), not lat's (202 us)
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); r=c["repetitions"][0]["read"]
sys.exit(0 if abs(r["lat_ns"]["mean"] - 198052.42787) < 1 and abs(r["lat_total_ns"]["mean"] - 202134.651588) < 1 else 1)' \
	"$T/clat/cells/0001.json" && ok "completion mean beside completion percentiles" || not_ok "clat import means"
# a native cell (the null engine) says total
cat >"$T/s.yaml" <<'EOS'
suite: kinds
devices:
  - name: nul
    path: PATH
defaults: {engine: null, size: 1MiB, requests: 64, direct: false}
matrix: {pattern: [randread]}
EOS
sed -i "s|PATH|$T/nul|" "$T/s.yaml"
mkdir -p "$T/nul"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/runs" --quiet
N="$T/runs"
python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["latency_kind"] == "total" else 1)' \
	"$N/cells/0001.json" && ok "native cell: latency_kind total" || not_ok "native cell kind"
# a "native" twin of the clat import (same workload, so one table): the
# imported cell with latency_kind total, under another device name
mkdir -p "$T/nat/cells"
cp "$T/clat/manifest.json" "$T/clat/plan.json" "$T/nat/" 2>/dev/null
python3 - "$T/clat" "$T/nat" <<'EOS'
import json, sys, os
src, dst = sys.argv[1], sys.argv[2]
c = json.load(open(src + "/cells/0001.json"))
c["latency_kind"] = "total"
c["params"]["device"] = "hdd"
for r in c["repetitions"]:
    r["read"].pop("lat_total_ns", None)
json.dump(c, open(dst + "/cells/0001.json", "w"))
m = json.load(open(src + "/manifest.json"))
for d in m.get("devices", []):
    d["name"] = "hdd"
for x in m.get("cells", []):
    x["device"] = "hdd"
m.pop("sha256", None)
json.dump(m, open(dst + "/manifest.json", "w"))
if os.path.exists(dst + "/plan.json"):
    os.remove(dst + "/plan.json")
EOS
rm -f "$T/nat/SHA256SUMS"
expect_exit 0 "$IOMATRIX" report "$T/nat" "$T/clat" --charts none --format md,html --baseline hdd -o "$T/mix"
M="$T/mix/report.md"
grep -q '^| hdd.* (total) | .* (total) |$' "$M" && grep -q '^| ssd.* (completion) | .* (completion) |$' "$M" \
	&& ok "one table, two kinds: each value names its kind" || not_ok "mixed table: $(grep '^| [hs]sd' "$M")"
grep -q 'Latency marked "completion" is fio.s completion latency (clat)' "$M" \
	&& ok "the note says what completion means" || not_ok "no completion note"
grep -q '– (completion vs total latency)' "$M" && ok "no ratio of a completion and a total mean" \
	|| not_ok "ratio: $(sed -n '/^## Ratios/,/^## Warnings/p' "$M")"
grep -q 'mean latency, ssd .* (completion latency)\|mean completion latency' "$M" \
	&& ok "the summary names the completion latency" || not_ok "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$M")"
grep -q 'marked &ldquo;completion&rdquo;' "$T/mix/report.html" && ok "html names it too" || not_ok "html"
expect_exit 0 "$IOMATRIX" report "$T/clat" --charts none --format md -o "$T/c1"
grep -q '^| Device | IOPS | MB/s | Mean latency (completion, µs) | p99 latency (completion, µs) |$' "$T/c1/report.md" \
	&& ok "a table of completion rows names the kind in its headers" || not_ok "headers: $(grep '^| Device' "$T/c1/report.md")"
# compare gives no latency change between a total and a completion cell
expect_exit 0 "$IOMATRIX" compare "$T/nat" "$T/clat" --map hdd=ssd -o "$T/cmp"
grep -q '^| hdd → ssd | .*| mean latency – |$' "$T/cmp/compare.md" \
	&& ok "compare: no latency change across kinds" || not_ok "compare: $(grep '^| hdd' "$T/cmp/compare.md")"
# the percentile chart names the kind of its curve (gnuplot writes the
# .dat either way; the image only with gnuplot)
expect_exit 0 "$IOMATRIX" report "$T/clat" --charts all --format md -o "$T/c2"
grep -q 'ssd (completion)' "$T"/c2/charts/*-latency.dat \
	&& ok "the latency chart names the completion curve" || not_ok "chart: $(ls "$T/c2/charts")"
# an import from before latency_kind: fio's total mean beside its clat
# percentiles, as its warning said; the p99 header names completion, the
# mean's does not, and the CSV says both
mkdir -p "$T/old/cells"
cp "$T/clat/manifest.json" "$T/old/"
python3 - "$T/clat/cells/0001.json" "$T/old/cells/0001.json" <<'EOS'
import json, sys
c = json.load(open(sys.argv[1]))
c.pop("latency_kind")
c["warnings"] = ["read latency percentiles are fio's completion latency (clat: submission excluded); min/max/mean are total latency (lat); fio's lat_percentiles=1 gives total-latency percentiles"]
json.dump(c, open(sys.argv[2], "w"))
EOS
expect_exit 0 "$IOMATRIX" report "$T/old" --charts none --format md,csv -o "$T/o1"
grep -q '^| Device | IOPS | MB/s | Mean latency (µs) | p99 latency (completion, µs) |$' "$T/o1/report.md" \
	&& grep -q ',mean total; percentiles completion,' "$T/o1/report.csv" \
	&& ok "an old import: mean total, percentiles completion" || not_ok "old import: $(grep '^| Device' "$T/o1/report.md")"
# the other side: total latency alone says nothing of kinds
expect_exit 0 "$IOMATRIX" report "$N" "$T/lat" --charts none --format md -o "$T/t1"
grep -q 'completion)\|marked "completion"\|completion latency' "$T/t1/report.md" \
	&& not_ok "total-only report mentions completion: $(grep -n completion "$T/t1/report.md")" \
	|| ok "total latency alone: no kind named"
tap_end
