#!/bin/sh
# A cell whose repetition completed no IO (a device that did not answer
# within the runtime, or a job that got no CPU on a loaded machine) is
# warned about, and the summary does not say that no workload ran on two
# devices: it says that one of the two completed no IO.  The same set as
# run (every cell did IO): neither the warning nor that sentence.
# Two model devices; the zero-IO cell is the run's own cell file with its
# counts set to what a repetition without a completion writes, and the
# set's SHA256SUMS made again (the set stays intact).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/s.yaml" <<EOS
suite: zero-io
defaults: {engine: model, iodepth: 1, size: 1MiB, bs: 4k, pattern: randread, runtime: 200ms,
           model_latency: 1ms}
devices: [{name: slow, path: $T/ma}, {name: fast, path: $T/mb, model_latency: 500us}]
include: [{label: x}]
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
cp -r "$T/set" "$T/zero"
python3 - "$T/zero/cells/0001.json" <<'EOP' || fail "rewrite"
import json, sys
f = sys.argv[1]
d = json.load(open(f))
assert d["params"]["device"] == "slow"
r = d["repetitions"][0]["read"]
r.update(ios=0, bytes=0, iops=0, bw_bytes_s=0)
r.pop("lat_ns")
r["hist"]["buckets"] = []
s = r["series"]
n = len(s["ios"])
s["ios"], s["bytes"], s["lat_mean_ns"] = [0] * n, [0] * n, [0] * n
s["hist"]["intervals"] = [""] * n
s.pop("fine", None)
for v in d["summary"]["read"].values():
    if isinstance(v, dict):
        for k in ("mean", "min", "max"):
            if k in v:
                v[k] = 0
json.dump(d, open(f, "w"))
EOP
(cd "$T/zero" && sed 's/^[0-9a-f]*  //' SHA256SUMS | xargs sha256sum >S && mv S SHA256SUMS) ||
	fail "SHA256SUMS"
expect_exit 0 "$IOMATRIX" verify "$T/zero"
for s in set zero; do
	expect_exit 0 "$IOMATRIX" report "$T/$s" -o "$T/r-$s" --charts none --format md
done
Z=$T/r-zero/report.md S=$T/r-set/report.md
grep -q "^- slow: 1 cell (x randread) completed no IO in a repetition: the device did not answer within the runtime, or the job got no CPU" "$Z" &&
	ok "the zero-IO cell is warned about" || not_ok "warning: $(grep -n 'no IO' "$Z")"
grep -q "^- No device is compared with another here: where two ran one workload, one of them completed no IO (see Warnings)\.$" "$Z" &&
	ok "summary: one of the two completed no IO" || not_ok "summary: $(sed -n '/^## Summary/,/^Throughput/p' "$Z")"
grep -q "No workload ran with the same parameters on two devices" "$Z" &&
	not_ok "the summary says no workload ran on two devices" ||
	ok "no claim that no workload ran on two devices"
grep -q "completed no IO" "$S" && not_ok "a set whose cells all did IO: $(grep 'completed no IO' "$S")" ||
	ok "every cell did IO: no such warning or sentence"
grep -q "^- No difference between fast and slow is shown to be significant" "$S" &&
	ok "every cell did IO: the devices are compared" ||
	not_ok "summary of the set as run: $(sed -n '/^## Summary/,/^Throughput/p' "$S")"
tap_end
