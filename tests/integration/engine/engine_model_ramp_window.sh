#!/bin/sh
# The model device's window counts what the device completed inside it,
# however late the job reaps: an IO that
# completed in the ramp is not measured, nor one past the runtime, and an
# IO falls in the interval it completed in.  Before, the job's reap time
# decided: on a loaded machine, engine_model_truth's 2,000-IOPS devices
# read 2,348 and 2,616 IOPS, a queue of IOs done in the ramp (or after the
# end) counted in the window.  The machine's lateness is made here, not
# hoped for: the test hook holds job 0 (a pause of at least 0.4 s, which
# only ends later on a busy machine) across the ramp's end, then across
# the runtime's end.  One server of 1 ms is 1,000 IOPS: no 100 ms interval
# can hold more than 100 of its completions (101 at an edge), nor a
# window of 0.5 s more than 500.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
mkfifo "$T/fifo"
model_suite() { # NAME RUNTIME RAMP IODEPTH: one server of 1 ms
	cat >"$T/$1.yaml" <<EOS
suite: model-$1
defaults: {engine: model, pattern: randread, runtime: $2, ramp: $3, interval: 100ms,
  iodepth: $4, model_latency: 1ms}
devices:
  - {name: m, path: $T/m}
include: [{label: held}]
EOS
}
# held at its first wait: 64 IOs queued at the start, all done 64 ms in,
# reaped after the ramp (200 ms)
model_suite ramp 1s 200ms 64
# held 400 ms into the window with 256 ms of queue: most of it due past
# the runtime's end (500 ms), reaped after it
model_suite end 500ms 100ms 256
held_run() { # NAME HOOK-EVENT: run NAME.yaml, job 0 held at EVENT
	IOMATRIX_TEST_HOOK="$2,fifo=$T/fifo" "$IOMATRIX" run "$T/$1.yaml" \
		--out "$T/$1" --quiet >"$T/$1.out" 2>"$T/$1.err" &
	pid=$!
	ev=$(hook_wait "$T/fifo")
	sleep 0.4
	[ -n "$ev" ] && hook_go "$T/fifo"
	wait $pid
	rc=$?
	[ $rc = 0 ] && [ -n "$ev" ] && ok "$1: run held at '$ev' completes" ||
		not_ok "$1: exit $rc after '$ev': $(tail -3 "$T/$1.err")"
}
held_run ramp wait:1
held_run end interval:4
python3 - "$T" >"$T/v" <<'EOP'
import json, sys
for name, runtime in (("ramp", 1.0), ("end", 0.5)):
    try:
        c = json.load(open("%s/%s/cells/0001.json" % (sys.argv[1], name)))
    except OSError as e:
        print("not ok %s: no cell (%s)" % (name, e))
        continue
    r = c["repetitions"][0]
    d = r["read"]
    s = d["series"]["ios"]
    print("# %s: %d IOs, %.0f IOPS over %.3f s, per 100 ms %s"
          % (name, d["ios"], d["iops"], r["runtime_ns"] / 1e9, s))
    most = max(s) if s else 0
    print("%s %s: at most 101 completions in a 100 ms interval (got %d)"
          % ("ok" if most <= 101 else "not ok", name, most))
    print("%s %s: at most %d completions in the %.1f s window (got %d, %.0f IOPS)"
          % ("ok" if d["ios"] <= 1000 * runtime + 1 else "not ok", name,
             1000 * runtime + 1, runtime, d["ios"], d["iops"]))
    print("%s %s: the series ends with the runtime (%d intervals of 100 ms, got %d)"
          % ("ok" if len(s) <= round(runtime * 10) else "not ok", name,
             round(runtime * 10), len(s)))
EOP
grep '^#' "$T/v"
tap_lines "$T/v"
tap_end
