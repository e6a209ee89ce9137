#!/bin/sh
# compare on real runs with a known effect: the model engine is a device
# serving one IO at a time (model_parallel 1), each taking model_latency,
# so 4 ms vs 4 ms is no change and 4 ms vs 5.72 ms is a 30 % IOPS drop.  Two
# identical runs give 0 regressions; the throttled one gives exactly that
# one regression.  At iodepth 64 the device always has the next IO queued, so
# its IOPS do not depend on how late a busy machine wakes the job: the runs
# are real on a loaded machine too (they used to be replaced by numbers
# derived from one run when the machine was busy), unless the machine stalls
# the job longer than its queue of 64 x 4 ms lasts: each repetition is
# checked against the model device's IOPS first (model_device_stalled);
# a ramp of 100 ms keeps a job that passes the start gate late out of the
# window.
# (At iodepth 16, a 64 ms queue, CI's sanitizer pass with four tests at once
# stalled a repetition to 209 of 250 IOPS; 64 costs 256 ms of drain a
# repetition, about 4 s of waiting in all.)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkdir -p "$T/d"
run() { # latency_us out
	cat >"$T/$2.yaml" <<EOS
suite: throttle
defaults: {engine: model, model_latency: ${1}us, size: 16MiB, runtime: 200ms, ramp: 100ms, repeat: 5, iodepth: 64}
devices:
  - {name: dev, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
	"$IOMATRIX" run "$T/$2.yaml" --out "$T/$2" --quiet >/dev/null 2>"$T/err" \
		|| fail "run $2: $(cat "$T/err")"
}
cv() { # set -> coefficient of variation of its repetitions' IOPS
	python3 -c '
import json, sys
v = [r["read"]["iops"] for r in json.load(open(sys.argv[1] + "/cells/0001.json"))["repetitions"]]
m = sum(v) / len(v)
print("%.3f" % ((sum((x - m) ** 2 for x in v) / (len(v) - 1)) ** 0.5 / m))' "$1"
}
run 4000 a
run 4000 b
run 5720 c
for x in "a 250" "b 250" "c 174.8"; do
	why=$(model_device_stalled "$T/${x% *}" "${x#* }")
	[ -z "$why" ] || skip "$why"
done
echo "# scatter of the repetitions' IOPS: a $(cv "$T/a"), b $(cv "$T/b"), c $(cv "$T/c")"
expect_exit 0 "$IOMATRIX" compare "$T/a" "$T/b" -o "$T/ab" --threshold 15 --fail-on-regression
grep -q '^1 workload compared: 0 regressions' "$T/out" && ok "identical runs: 0 regressions" \
	|| not_ok "identical: $(sed -n 2p "$T/out")"
expect_exit 3 "$IOMATRIX" compare "$T/a" "$T/c" -o "$T/ac" --threshold 15 --fail-on-regression
grep -q '^1 workload compared: 1 regression,' "$T/out" && ok "throttled run: exactly 1 regression" \
	|| not_ok "throttled: $(sed -n 2p "$T/out")"
chg=$(sed -n 's/.*regression  dev: .*IOPS \(-[0-9.]*\) %.*/\1/p' "$T/out")
awk -v c="$chg" 'BEGIN { exit !(c <= -20 && c >= -40) }' && ok "change near -30 % ($chg %)" \
	|| not_ok "change $chg"
tap_end
