#!/bin/sh
# A table row never contradicts Little's law ("732 IOPS at
# QD1 beside a 12.8 ms mean"): at QD depth with one job, IOPS times the
# mean latency is at most the depth (a little less: the time between an
# IO's completion and the next submission).  The cause was the mean of the
# repetitions' means: in the committed reference set one repetition of the
# disk's 64K random reads did 18 IOs at 54 ms (a stall), and its mean
# weighed as much as the 5,514 IOs of another; the report printed 2,640
# IOPS at QD1 beside 18.2 ms.  The mean of every IO (lat_ns_merged) gives
# 374 us.  Checked on every row of the reference set, a real run.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cd "$ROOT" || fail "no root"
SET=results/reference/2026-11-30T033909Z_ref-tmp-vs-shm_vm
expect_exit 0 "$IOMATRIX" report "$SET" -o "$T/r" --charts none --format md
python3 - "$T/r/report.md" <<'EOS'
import re, sys
bad, rows, qd, unit = [], 0, None, None
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"### .*?, QD(\d+)\b", line)
    if line.startswith("### "):
        qd = int(m.group(1)) if m and "jobs" not in line else None
        continue
    m = re.match(r"\| Device .*Mean latency \((?:[a-z]+, )?(µs|ms)\)", line)
    if m:
        unit = 1e-6 if m.group(1) == "µs" else 1e-3
        continue
    cols = [c.strip() for c in line.strip().strip("|").split("|")]
    if qd is None or len(cols) != 5 or not cols[1][:1].isdigit():
        continue
    num = lambda s: float(s.split()[0].replace(",", ""))
    inflight = num(cols[1]) * num(cols[3]) * unit
    rows += 1
    if inflight > qd * 1.05:
        bad.append("%s: %s IOPS x %s = %.2f IOs in flight at QD%d" % (cols[0], cols[1], cols[3], inflight, qd))
print("# %d rows checked" % rows)
for b in bad:
    print("# " + b)
sys.exit(1 if bad or rows < 10 else 0)
EOS
[ $? = 0 ] && ok "every row: IOPS x mean latency <= QD" || not_ok "a row contradicts Little's law"
tap_end
