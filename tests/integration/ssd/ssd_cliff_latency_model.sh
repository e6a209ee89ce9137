#!/bin/sh
# Latency over time against a device whose keys say what it must be
# (issue 39 §4): the model device (engine: model) writing 64 KiB at QD4,
# one server of 1 ms, a write buffer of 1,000 writes, then 16,000 KiB/s.
# Before the cliff 1,000 IOPS, each write waiting for the 3 ahead of it:
# 4 ms; after it 250 IOPS (16,000 KiB/s / 64 KiB) and by Little's law
# 4 / 250 s = 16 ms.  Each interval's p50 from series.hist holds that
# (+-15 %), and the cell's cliff object finds the break near 1 s.
# test-lock: quiet
# (it runs alone in the pool: the model device's figures are the real
# clock's, and other tests beside it on a 2-CPU machine wake its job late)
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_ivhist.sh"
need_cmd python3
need_cmd jq
cat >"$T/s.yaml" <<EOS
suite: model-cliff-latency
defaults: {engine: model, size: 256MiB, runtime: 3s, interval: 250ms, pattern: write,
           bs: 64k, iodepth: 4, model_latency: 1ms, model_parallel: 1,
           model_write_buffer: 64000KiB, model_write_rate: 16000KiB}
devices:
  - {name: m, path: $T/m}
matrix: {iodepth: [4]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
c=$T/set/cells/0001.json
out=$(ivhist_check "$T/set" 2>&1) && ok "the intervals add up ($out)" || not_ok "$out"
ivhist_pct "$c" 1 write 50 >"$T/p50"
echo "# per-interval p50 (interval ns): $(tr '\n' ' ' <"$T/p50")"
python3 - "$T/p50" <<'EOP'
import sys
p = [int(l.split()[1]) for l in open(sys.argv[1])]
def check(ok, what):
    print("%s - %s" % ("ok" if ok else "not ok", what))
    return ok
before, after = p[0:3], p[5:11]
r = check(all(3.4e6 <= x <= 4.6e6 for x in before),
          "intervals 0-2 (0-0.75 s, the buffer): p50 %s ms, 4 ms" % ", ".join("%.2f" % (x / 1e6) for x in before))
r &= check(len(after) == 6 and all(13.6e6 <= x <= 18.4e6 for x in after),
           "intervals 5-10 (1.25-2.75 s, the sustained rate): p50 %s ms, 16 ms" %
           ", ".join("%.2f" % (x / 1e6) for x in after))
sys.exit(0 if r else 1)
EOP
[ $? = 0 ] || tap_failed=1
b=$(jq '.repetitions[0].write.cliff | select(.found) | .break_ns / 1e9' "$c")
awk -v b="$b" 'BEGIN { exit !(b != "" && b >= 0.75 && b <= 1.5) }' && ok "the cliff at $b s (the buffer's 1,000 writes at 1,000 IOPS)" ||
	not_ok "cliff: $(jq -c '.repetitions[0].write.cliff' "$c" | head -c 300)"
tap_end
