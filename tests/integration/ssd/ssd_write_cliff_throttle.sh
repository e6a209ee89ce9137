#!/bin/sh
# A real write cliff: suites/ssd-write-cliff.yaml (purge, then 1.5x the
# device in 128 KiB sequential writes at 100 ms intervals) on a loop device
# whose cgroup-v1 blkio write limit drops from 40 MiB/s to 16 MiB/s 1 s
# into the cell.  The cell JSON holds the cliff near 1 s at the two
# levels set, and the report's summary names it.  Root; skips without blkio.
# (The slower level must last over a second for the plateau rule, which
# never calls a last-second stall a cliff: 96 MiB - ~40 MiB at 16 MiB/s is
# about 3.5 s, on a sanitizer build too.)
# test-lock: quiet
# (it runs alone in the pool: a blkio-throttled device's p99 and plateaus
# are the real clock's, and tests beside it on 2 CPUs wake its job late)
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_blk.sh"
need_cmd jq
# storage, not RAM: the report calls no slower stretch of RAM a cliff
BLK_ON_DISK=1
blk_loop 64
blk_cgroup
blk_limit $((40 * 1048576))
# the drop comes 1 s into the cell: the test hook (bench/util/testhook.h)
# pauses the job at its first completion past interval 10 (of 100 ms) until
# the limit is changed, instead of a sleep racing the start and the purge
mkfifo "$T/hook" || fail "mkfifo"
# the loop device's file is on the machine's disk: let the writeback of
# the tests before this one finish first, not during the 40 and 16 MiB/s
sync
( read -r line <"$T/hook" && blk_limit $((16 * 1048576)) && echo go >"$T/hook" ) &
tpid=$!
IOMATRIX_TEST_HOOK="interval:10,fifo=$T/hook" blk_run "$IOMATRIX" run \
	"$ROOT/suites/ssd-write-cliff.yaml" --device ssd="$BLK_LOOP" \
	--yes-destroy-data --out "$T/set" --quiet >"$T/out" 2>"$T/err"
rc=$?
kill $tpid 2>/dev/null # the hook never came: the checks below say so
wait $tpid
[ $rc = 0 ] && ok "run exit 0" || { cat "$T/err"; not_ok "run exit $rc"; tap_end; }

c=$(jq '.repetitions[0].write.cliff' "$T/set/cells/0001.json")
# A loop device over a disk file can stall on a loaded machine: at load 12
# with CPU hogs beside it the 40 MiB/s second read 103, 30, 50, 15, 80, 40,
# 25, 55, 0, 40 MiB/s per 100 ms.  The cliff rule then rightly finds that
# level too noisy to call the drop after it a cliff (a stall lies 4.6 in
# the log scale it judges on: "the drop is within the noise"): the cell
# shows the machine, not the limits set.  So where no cliff was found and
# an interval before the limit changed moved under a tenth of its 4 MiB,
# the cliff's checks are skipped, saying so.
stall=$(jq '[.repetitions[0].write.series.bytes[:10] | to_entries[] |
	select(.value < 419430) | .key / 10] | first // empty' "$T/set/cells/0001.json")
cliff_judge() { # ok WHAT: ok, or not ok unless the device stalled
	if [ "$1" = 1 ]; then
		ok "$2"
	elif [ -n "$stall" ] && [ "$(echo "$c" | jq .found)" != true ]; then
		ok "# SKIP $2: the loop device stalled at $stall s, before the limit changed (load $(cut -d' ' -f1 /proc/loadavg))"
	else
		not_ok "$2"
	fi
}
t=$(echo "$c" | jq '.break_ns / 1e9')
l1=$(echo "$c" | jq '.level1_bw_bytes_s / 1048576')
l2=$(echo "$c" | jq '.level2_bw_bytes_s / 1048576')
echo "# MiB/s per 100 ms: $(jq -c '[.repetitions[0].write.series.bytes[] / 104857.6 | floor]' "$T/set/cells/0001.json")"
[ "$(echo "$c" | jq .found)" = true ]
cliff_judge $((! $?)) "cliff found ($(echo "$c" | jq -c '{found, why_not}'))"
awk "BEGIN { exit !($t >= 0.5 && $t <= 1.6) }"
cliff_judge $((! $?)) "break at $t s (limit changed at 1 s)"
awk "BEGIN { exit !($l1 >= 34 && $l1 <= 46) }"
cliff_judge $((! $?)) "first level $l1 MiB/s (limit 40)"
awk "BEGIN { exit !($l2 >= 12.8 && $l2 <= 19.2) }"
cliff_judge $((! $?)) "second level $l2 MiB/s (limit 16)"
[ "$(jq '.purge.bytes' "$T/set/precondition/ssd.json")" = $((64 * 1048576)) ] &&
	ok "purge discarded the whole device" || not_ok "purge record: $(jq -c .purge "$T/set/precondition/ssd.json")"

expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts png
grep -q "sustained 128K sequential writes.*MB/s (latency p50 [^)]*) for the first.*then .*MB/s (latency p50 [^)]*) sustained (write cliff" "$T/rep/report.md"
cliff_judge $((! $?)) "summary names the cliff"
# purged on purpose: a fresh device is what this suite measures
grep -q "fresh-out-of-box\|state is unknown" "$T/rep/report.md" && not_ok "a purged device's state questioned" ||
	ok "no state warning after a purge"
if command -v gnuplot >/dev/null 2>&1; then
	ls "$T/rep/charts/"cliff-*.png >/dev/null 2>&1
	cliff_judge $((! $?)) "cliff chart drawn"
fi
tap_end
