#!/bin/sh
# Truth for the per-interval histograms: 4K random reads at
# QD1 with psync from a loop device over RAM, throttled by cgroup-v1 blkio
# to 200 read IOPS 3 s into the run (the test hook pauses the job at its
# first completion of interval 6 of 500 ms until the limit is set, no
# sleep racing the start).  Each interval's histogram, from series.hist
# as results/README.md documents it: before the limit a p50 of tens of
# microseconds; from interval 6 on, 100 IOs an interval (200 IOPS) with a
# mean of 5 ms (1/200 s at QD1), and the step exactly there.  Not a p50
# of 5 ms: blk-throttle lets each slice's share of the limit through at
# once and holds the next IO to the next slice (measured here, kernel
# 6.18: intervals 7-9 had p50s of 0.01-0.35 ms, most IOs at 7 us and the
# rest waiting up to 100 ms), which is what each interval's histogram
# shows and its p99 (tens of ms) says.
# The series.hist of this 4K random read takes at most 4 KiB an interval
# in the cell file, on average over the run (the issue's size goal).
# test-lock: quiet
# (it runs alone in the pool: a blkio-throttled device's latency is the
# real clock's, and tests beside it on 2 CPUs wake its job late)
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
. "$ROOT/tests/lib_ivhist.sh"
need_cmd python3
need_cmd jq
blk_loop 64
blk_cgroup
cat >"$T/s.yaml" <<EOS
suite: throttle-mid-run
defaults: {engine: psync, size: 60MiB, runtime: 5s, interval: 500ms, iodepth: 1}
devices:
  - {name: ram, path: $BLK_LOOP}
matrix:
  pattern: [randread]
  bs: [4k]
EOS
mkfifo "$T/hook" || fail "mkfifo"
( read -r line <"$T/hook" && blk_read_iops 200 && echo go >"$T/hook" ) &
tpid=$!
IOMATRIX_TEST_HOOK="interval:6,fifo=$T/hook" blk_run "$IOMATRIX" run "$T/s.yaml" \
	--out "$T/set" --quiet >"$T/out" 2>"$T/err"
rc=$?
kill $tpid 2>/dev/null # the hook never came: the checks below say so
wait $tpid
[ $rc = 0 ] && ok "run exit 0" || { cat "$T/err"; not_ok "run exit $rc"; tap_end; }
c=$T/set/cells/0001.json
out=$(ivhist_check "$T/set" 2>&1) && ok "the intervals add up ($out)" || not_ok "$out"
ivhist_buckets "$c" 1 read >"$T/buckets"
python3 - "$T/buckets" <<'EOP'
import sys
iv = {}
for l in open(sys.argv[1]):
    k, lo, n = (int(x) for x in l.split())
    iv.setdefault(k, []).append((lo, n))
def mid(lo):
    w = 1 << max(0, lo.bit_length() - 7)
    return lo + (w - 1) // 2
def stats(k):
    b = iv.get(k, [])
    n = sum(c for _, c in b)
    mean = sum(mid(lo) * c for lo, c in b) / n if n else 0
    def pct(p):
        rank, cum = max(1, -(-p * n // 100)), 0
        for lo, c in b:
            cum += c
            if cum >= rank:
                return mid(lo)
        return 0
    return n, mean, pct(50), pct(99)
s = [stats(k) for k in range(max(iv) + 1)]
for k, (n, mean, p50, p99) in enumerate(s):
    print("# interval %d: %d IOs, mean %.3f ms, p50 %.3f ms, p99 %.3f ms" % (k, n, mean / 1e6, p50 / 1e6, p99 / 1e6))
def check(ok, what):
    print("%s - %s" % ("ok" if ok else "not ok", what))
    return ok
r = check(len(s) >= 10, "10 intervals of 500 ms (%d)" % len(s))
# a machine under load slows the loop device's worker now and then: the
# typical interval before the limit (the median of their p50s) is fast
r &= check(sorted(x[2] for x in s[:6])[2] <= 200000,
           "intervals 0-5, before the limit: p50 %s us" % ", ".join("%.0f" % (x[2] / 1e3) for x in s[:6]))
after = s[7:10]
r &= check(all(85 <= x[0] <= 115 for x in after),
           "intervals 7-9: %s IOs each, 200 IOPS" % ", ".join(str(x[0]) for x in after))
r &= check(all(3.5e6 <= x[1] <= 7e6 for x in after),
           "intervals 7-9: mean %s ms, 1/200 s at QD1" % ", ".join("%.2f" % (x[1] / 1e6) for x in after))
r &= check(all(x[3] >= 20e6 for x in after),
           "intervals 7-9: p99 %s ms, the IOs held to the next slice of the throttle" %
           ", ".join("%.1f" % (x[3] / 1e6) for x in after))
# the step: from it on every whole interval holds the limit's 100 IOs
# (before it, even a slowed interval did twice that)
step = next((k for k in range(10) if all(x[0] <= 115 for x in s[k:10])), None)
r &= check(step == 6 and all(x[0] >= 150 for x in s[:6]),
           "the step in interval 6, where the limit came (%s)" % step)
sys.exit(0 if r else 1)
EOP
[ $? = 0 ] || tap_failed=1
n=$(jq '.repetitions[0].read.series.hist.intervals | length' "$c")
b=$(jq -c '.repetitions[0].read.series.hist' "$c" | wc -c)
awk -v n="$n" -v b="$b" 'BEGIN { exit !(n > 0 && b / n <= 4096) }' &&
	ok "series.hist: $b bytes for $n intervals, $((b / n)) an interval (at most 4 KiB)" ||
	not_ok "series.hist: $b bytes for $n intervals"
tap_end
