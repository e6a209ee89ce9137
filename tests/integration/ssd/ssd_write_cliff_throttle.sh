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
[ "$(echo "$c" | jq .found)" = true ] && ok "cliff found" ||
	not_ok "no cliff: $c; MiB/s per 100 ms: $(jq -c '[.repetitions[0].write.series.bytes[] / 104857.6 | floor]' "$T/set/cells/0001.json")"
t=$(echo "$c" | jq '.break_ns / 1e9')
l1=$(echo "$c" | jq '.level1_bw_bytes_s / 1048576')
l2=$(echo "$c" | jq '.level2_bw_bytes_s / 1048576')
awk "BEGIN { exit !($t >= 0.5 && $t <= 1.6) }" && ok "break at $t s (limit changed at 1 s)" ||
	not_ok "break at $t s, expected about 1 s"
awk "BEGIN { exit !($l1 >= 34 && $l1 <= 46) }" && ok "first level $l1 MiB/s (limit 40)" ||
	not_ok "first level $l1 MiB/s, limit was 40"
awk "BEGIN { exit !($l2 >= 12.8 && $l2 <= 19.2) }" && ok "second level $l2 MiB/s (limit 16)" ||
	not_ok "second level $l2 MiB/s, limit was 16"
[ "$(jq '.purge.bytes' "$T/set/precondition/ssd.json")" = $((64 * 1048576)) ] &&
	ok "purge discarded the whole device" || not_ok "purge record: $(jq -c .purge "$T/set/precondition/ssd.json")"

expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts png
grep -q "sustained 128K sequential writes.*MB/s (latency p50 [^)]*) for the first.*then .*MB/s (latency p50 [^)]*) sustained (write cliff" "$T/rep/report.md" &&
	ok "summary names the cliff" || not_ok "summary: $(grep -i cliff "$T/rep/report.md" | head -3)"
# purged on purpose: a fresh device is what this suite measures
grep -q "fresh-out-of-box\|state is unknown" "$T/rep/report.md" && not_ok "a purged device's state questioned" ||
	ok "no state warning after a purge"
if command -v gnuplot >/dev/null 2>&1; then
	ls "$T/rep/charts/"cliff-*.png >/dev/null 2>&1 && ok "cliff chart drawn" || not_ok "no cliff chart"
fi
tap_end
