#!/bin/sh
# reproduce: a set re-run from its own suite.yaml is judged workload by
# workload.  The model engine with a fixed per-IO latency (model_latency
# 1 ms, one IO at a time: 1,000 IOPS) stands in for a device: the same
# device gives "reproduced" (exit 0, also with --fail-if-not-reproduced).
# Against an original from a device twice as fast (the set's IOPS doubled
# and its SHA256SUMS redone: a reproduction runs the set's own suite, so
# its model keys cannot differ) it is "slower" (exit 0, exit 3 with the
# flag).  At iodepth 64 the device always has the next IO queued, so its
# IOPS (1 / latency) do not depend on how late a busy machine wakes the job
# (as in compare_model_throttle.sh), unless the machine stalls the job
# longer than its queue lasts: each set is checked against the device's
# IOPS first (model_device_stalled); a ramp of 100 ms keeps a job that
# passes the start gate late out of the window.  The new manifest records the set id,
# the sha256 of the original's manifest.json and the tolerance.  (report
# and compare: reproduce_report_compare.sh.)
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd sha256sum
need_cmd python3
held() { # set iops: skip when the stand-in device was not one
	why=$(model_device_stalled "$T/$1" "$2")
	[ -z "$why" ] || skip "$why"
}
mkdir -p "$T/a" "$T/b"
cat >"$T/s.yaml" <<EOS
suite: repro-null
defaults:
  engine: model
  model_latency: 1ms
  size: 1m
  runtime: 200ms
  ramp: 100ms
  repeat: 3
  iodepth: 64
devices:
  - name: disk
    path: $T/a/f
include:
  - {pattern: randread, bs: 4k}
EOS
# a rehearsal at --scale 0.5 (100 ms a repetition): the reproduction takes the scale
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/orig" --quiet --scale 0.5
held orig 1000

"$IOMATRIX" reproduce "$T/orig" --device disk="$T/b/f" --out "$T/same" \
	--quiet --fail-if-not-reproduced >"$T/out" 2>"$T/err"
rc=$?
held same 1000   # a stalled job is "not reproduced" rightly: no judgement then
[ "$rc" = 0 ] || fail "reproduce of the same device: exit $rc, expected 0: $(cat "$T/out" "$T/err")"
grep -q "^  reproduced   disk: 4K random read, QD64 (RND4K Q64T1), IOPS: original .* ratio [01]\.[0-9]* (CI [01]\.[0-9]* … [01]\.[0-9]*)$" "$T/err" &&
	ok "same latency: the workload is reproduced" || not_ok "verdict line: $(cat "$T/err")"
grep -q "^Reproduced: the workload is within ±10 % of the original" "$T/err" &&
	ok "verdict sentence: reproduced" || not_ok "sentence: $(cat "$T/err")"
# As run, the one line of stdout is the new set
[ "$(cat "$T/out")" = "$T/same" ] && ok "stdout: the set path alone, the verdicts on stderr" \
	|| not_ok "stdout: $(cat "$T/out")"
want=$(sha256sum "$T/orig/manifest.json" | cut -d' ' -f1)
[ "$(jq -r .reproduces.set "$T/same/manifest.json")" = orig ] &&
[ "$(jq -r .reproduces.manifest_sha256 "$T/same/manifest.json")" = "$want" ] &&
	[ "$(jq -r .reproduces.tolerance_pct "$T/same/manifest.json")" = 10 ] &&
	ok "manifest records the set id, the original manifest's sha256, the tolerance" ||
	not_ok "reproduces: $(jq -c .reproduces "$T/same/manifest.json")"
[ "$(jq -r .suite.sha256 "$T/same/manifest.json")" = "$(jq -r .suite.sha256 "$T/orig/manifest.json")" ] &&
	[ "$(jq -r .devices[0].path "$T/same/manifest.json")" = "$T/b/f" ] &&
	ok "the same suite ran on the mapped path" || not_ok "suite or path differ"
[ "$(jq -S -c '.params | del(.path)' "$T/orig/cells/0001.json")" = \
  "$(jq -S -c '.params | del(.path)' "$T/same/cells/0001.json")" ] &&
	ok "every parameter but the path is the original's, the seed too" ||
	not_ok "params differ: $(jq -c .params "$T/same/cells/0001.json")"
[ "$(jq -r .scale "$T/same/manifest.json")" = 0.5 ] &&
	ok "the original's scale, 0.5" || not_ok "scale: $(jq -r .scale "$T/same/manifest.json")"

# the original of a device twice as fast: its IOPS doubled, SHA256SUMS redone
cp -R "$T/orig" "$T/fast"
python3 - "$T/fast/cells/0001.json" <<'EOP'
import json, sys
c = json.load(open(sys.argv[1]))
for r in c["repetitions"]:
    r["read"]["iops"] *= 2
    r["read"]["bw_bytes_s"] *= 2
for k in ("iops", "bw_bytes_s"):
    s = c["summary"]["read"][k]
    for f in ("mean", "stddev", "min", "max", "ci95"):
        s[f] *= 2
json.dump(c, open(sys.argv[1], "w"), indent=1)
EOP
(cd "$T/fast" && sha256sum $(cut -c67- SHA256SUMS) >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS)
expect_exit 0 "$IOMATRIX" reproduce "$T/fast" \
	--device disk="$T/b/f" --out "$T/slow" --quiet
held slow 1000
grep -q "^  slower       disk: 4K random read, QD64 (RND4K Q64T1), IOPS" "$T/err" &&
	ok "twice the latency: slower" || not_ok "verdict line: $(cat "$T/err")"
grep -q "^Reproduced" "$T/err" && not_ok "'Reproduced' said of a slower reproduction" ||
	ok "no 'Reproduced' sentence when slower"
grep -q "^Not reproduced within ±10 %: 0 of 1 workload reproduced, 1 slower" "$T/err" &&
	ok "verdict sentence: not reproduced" || not_ok "sentence: $(cat "$T/err")"
expect_exit 3 "$IOMATRIX" reproduce "$T/fast" \
	--device disk="$T/b/f" --out "$T/slow3" --quiet --fail-if-not-reproduced
ok "--fail-if-not-reproduced exits 3 when slower"

tap_end
