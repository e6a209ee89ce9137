#!/bin/sh
# "sustains N" on a device whose limit we set: a loop device
# under a blkio read_iops_device throttle of 2,000, swept from 500 to 4,000
# offered IOPS at QD1 with a target of p99 <= 20 ms.  Below the limit the
# queue stays short (QD1: no IO of ours waits behind another in the
# throttle), above it the queue grows for as long as the point runs, so
# the sustained load is the limit: 1,200-2,600 IOPS.  The report's sentence
# names the achieved IOPS of the table's highest row that meets the target
# and kept up, whatever a noisy lower row did (the old rule stopped at the
# first failing load).  The other side: with a target no point meets
# (p99 <= 1 µs) there is no "sustains" sentence.
# It measures p99 at QD1, so it runs alone: in a full make test at load 4
# on two cores, the 1,000 and 1,500 IOPS points read p99 29 and 81 ms
# (the job woken late), which no throttle explains.
# test-lock: quiet
. "$(dirname "$0")/../../lib.sh"
. "$(dirname "$0")/../../lib_blk.sh"
need_cmd python3
blk_loop 64
blk_cgroup
blk_read_iops 2000
cat >"$T/s.yaml" <<EOS
suite: throttled
defaults: {engine: libaio, size: 32MiB, runtime: 500ms, iodepth: 1}
devices:
  - {name: loop, path: $BLK_LOOP}
include:
  - {pattern: randread, load_sweep: {iops: [500, 1000, 1500, 1800, 2400, 3000, 4000]},
     qos: {p99: 20ms}}
  - {pattern: randread, load_sweep: {iops: [500, 1000]}, qos: {p99: 1us}}
EOS
blk_run "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet >"$T/out" 2>&1 || fail "run: $(cat "$T/out")"
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts none --format md
python3 - "$T/set/cells/0001.json" >"$T/v" <<'EOP'
import json, sys
s = json.load(open(sys.argv[1]))["load_sweep"]
for p in s["points"]:
    print("# offered %6.0f achieved %6.0f  response p99 %8.2f ms%s"
          % (p["offered_iops"], p["achieved_iops"], p["response"]["p99_ns"] / 1e6,
             "  (bisection)" if p["refined"] else ""))
q = s["qos"]
print("# sustained at p99 <= 20 ms: %s" % (q.get("sustained_iops") if q["met"] else "not met"))
low = min(p["response"]["p99_ns"] for p in s["points"])
print("# low-load p99 %.2f ms" % (low / 1e6))
# a machine that wakes the rated job 10 ms late at low load measures
# itself, not the throttle: not judged then
print("range %d" % (2 if low > 10e6 else q["met"] and 1200 <= q["sustained_iops"] <= 2600))
EOP
grep '^#' "$T/v"
echo "# load average: $(cut -d" " -f1-3 /proc/loadavg)"
busy=$(awk -v n="$(nproc)" '{ print ($1 / n >= 4) }' /proc/loadavg)
if grep -q '^range 1$' "$T/v"; then ok "sustains 1,200-2,600 IOPS at p99 <= 20 ms under a 2,000 IOPS limit"
elif grep -q '^range 2$' "$T/v"; then ok "# SKIP sustained range: the machine woke the rated job over 10 ms late at low load"
elif [ "$busy" = 1 ]; then ok "# SKIP sustained range: not so on a machine with load $(cut -d' ' -f1 /proc/loadavg)"
else not_ok "sustained load outside 1,200-2,600 IOPS"; fi
# the sentence's N is the table's highest qualifying row, and it is marked
python3 - "$T/rep/report.md" >"$T/n" <<'EOP'
import re, sys
md = open(sys.argv[1], encoding="utf-8").read()
def ns(t):
    v, u = t.replace(",", "").split()
    return float(v) * {"ms": 1e6, "µs": 1e3, "s": 1e9}[u]
sec = [x for x in md.split("\n## Latency under load: ")[1:] if "Target: p99 ≤ 20 ms." in x][0]
rows = [r.split("|")[1:-1] for r in sec.split("\n\n## ")[0].splitlines()
        if re.match(r"\| [0-9][^|]*\| [0-9,]+ [^|]*\|", r)]
good = [r for r in rows if ns(r[4]) <= 20e6 and "overloaded" not in r[8]]
best = max(good, key=lambda r: float(r[2].replace(",", ""))) if good else None
sent = re.search(r"^- loop sustains ([0-9,.]+) IOPS of 4K random reads(?: \([^)]*\))? at QD1 with p99 ≤ 20 ms", md, re.M)
print("# table's highest qualifying row: %s; sentence: %s" % (best and best[2].strip(), sent and sent.group(1)))
if best:
    print("same %d" % bool(sent and sent.group(1) == best[2].strip() and "sustained" in best[8]))
else:
    print("same %d" % (not sent and "sustained" not in sec))
print("silent %d" % (not re.search(r"sustains [^\n]*p99 ≤ 1 µs", md) and
                     bool(re.search(r"^- loop does not meet p99 ≤ 1 µs ", md, re.M))))
EOP
grep '^#' "$T/n"
grep -q '^same 1$' "$T/n" && ok "the sentence's N is the table's highest qualifying row" \
	|| not_ok "sentence and table disagree: $(grep 'loop sustains' "$T/rep/report.md")"
grep -q '^silent 1$' "$T/n" && ok "a target no load meets: no 'sustains', 'does not meet' instead" \
	|| not_ok "p99 <= 1 µs: $(grep 'sustains\|not meet' "$T/rep/report.md")"
tap_end
