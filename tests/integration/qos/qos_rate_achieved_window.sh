#!/bin/sh
# A rated cell's achieved IOPS are counted over its window and never read
# above the offered rate: at 1 IOPS for 300 ms the one
# IO of the schedule is 1 IOPS, not 3.3 (1 IO / 0.3 s: the schedule's first
# IO is at the start, so a window of T holds ceil(T x rate) of them); at
# 1,000 IOPS for 300 ms, 1,000 within 3 %; offered 4,000 to a model
# device of 1,000 IOPS (model_latency 1 ms, one at a time; iodepth 64, a
# queue of 64 ms that a busy machine does not drain, and a ramp of 100 ms
# so a job that passes the start gate late is not counted), the job falls
# behind and achieves the device's 1,000 within 5 %, counted over its
# runtime.
# test-lock: quiet
# (it runs alone in the pool: its figures are the real clock's, and other
# tests beside it on a 2-CPU machine wake its job late)
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cat >"$T/s.yaml" <<EOS
suite: rate-window
defaults: {engine: model, model_latency: 10us, size: 16MiB, runtime: 300ms, iodepth: 8, pattern: randread}
devices:
  - {name: m, path: $T/m}
include:
  - {label: one, rate_iops: 1}
  - {label: thousand, rate_iops: 1000}
  - {label: over, rate_iops: 4000, model_latency: 1ms, iodepth: 64, ramp: 100ms}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
python3 - "$T/set" >"$T/v" <<'EOP'
import json, sys
def iops(i):
    return json.load(open("%s/cells/%04d.json" % (sys.argv[1], i)))["repetitions"][0]["read"]["iops"]
for i, want, tol, what in ((1, 1, 0.001, "1 IOPS for 300 ms"),
                           (2, 1000, 0.03, "1,000 IOPS for 300 ms"),
                           (3, 1000, 0.05, "4,000 offered to a device of 1,000")):
    v = iops(i)
    ok = abs(v - want) <= tol * want
    print("%s %s: %.2f IOPS achieved, want %g +- %g %%" % ("ok" if ok else "not ok", what, v, want, tol * 100))
EOP
while read -r l; do
	case $l in
	"ok "*) ok "${l#ok }" ;;
	*) not_ok "${l#not ok }" ;;
	esac
done <"$T/v"
tap_end
