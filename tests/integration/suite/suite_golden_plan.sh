#!/bin/sh
# `plan` text and JSON of every suite in suites/ match the golden files in
# tests/golden/plan/ (NAME.txt, NAME.json).  After an intended change to a
# suite or to the plan format, regenerate them and review the diff:
#   UPDATE_GOLDEN=1 IOMATRIX=./iomatrix sh tests/integration/suite/suite_golden_plan.sh
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
G=tests/golden/plan
mkdir -p "$G"
for f in suites/*.yaml; do
	n=$(basename "$f" .yaml)
	for fmt in txt json; do
		if [ $fmt = txt ]; then
			"$IOMATRIX" plan "$f" >"$T/got" 2>"$T/err"; rc=$?
		else
			"$IOMATRIX" plan "$f" --format json >"$T/got" 2>"$T/err"; rc=$?
		fi
		if [ $rc != 0 ]; then
			not_ok "$n.$fmt: plan exit $rc: $(head -n 3 "$T/err")"
			continue
		fi
		if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
			cp "$T/got" "$G/$n.$fmt"
			ok "$n.$fmt updated"
		elif [ ! -f "$G/$n.$fmt" ]; then
			not_ok "$n.$fmt: no golden file (run with UPDATE_GOLDEN=1, review, commit)"
		elif cmp -s "$T/got" "$G/$n.$fmt"; then
			ok "$n.$fmt matches"
		else
			not_ok "$n.$fmt differs from $G/$n.$fmt:"
			diff -u "$G/$n.$fmt" "$T/got" | head -n 20
		fi
	done
done
# the JSON is what the runner writes as plan.json: check its shape
"$IOMATRIX" plan suites/quick.yaml --format json >"$T/plan.json"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$T/plan.json" <<'PY' && ok "plan.json shape" || not_ok "plan.json shape"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["schema_version"] == 1 and p["suite"] == "quick" and len(p["sha256"]) == 64
keys = {"id", "device", "path", "label", "pattern", "bs_bytes", "iodepth", "jobs",
        "engine", "direct", "size_bytes", "size_pct", "files", "offset_bytes",
        "offset_pct", "runtime_ns", "ramp_ns", "requests", "io_size_bytes",
        "rwmixread", "fsync", "end_fsync", "data", "compress_pct", "drop_caches",
        "repeat", "cooldown_ns", "seed", "interval_ns", "keep_files",
        "iodepth_batch", "iodepth_batch_complete_min", "iodepth_batch_complete_max",
        "registerfiles", "fixedbufs", "sqthread_poll", "sqthread_poll_cpu", "hipri",
        "nonvectored", "cpus_allowed", "numa_node", "norandommap", "randrepeat"}
for i, c in enumerate(p["cells"]):
    assert set(c) == keys, set(c) ^ keys
    assert c["id"] == i + 1
assert p["cells"][0]["label"] == "SEQ1M Q8T1" and p["cells"][0]["bs_bytes"] == 1048576
PY
fi
sha=$(sha256sum suites/quick.yaml | cut -d' ' -f1)
grep -q "\"sha256\":[[:space:]]*\"$sha\"" "$T/plan.json" && ok "sha256 is the file's" || not_ok "sha256 mismatch"
# plan text ends with the count and an estimate
"$IOMATRIX" plan suites/hdd-vs-ssd.yaml >"$T/p" 2>&1
grep -q "cells on 2 devices, estimated duration [0-9]" "$T/p" && ok "hdd-vs-ssd estimate" || not_ok "no estimate: $(tail -n 2 "$T/p")"
tap_end
