#!/bin/sh
# Each request goes down as soon as its batch is full, as fio commits once
# iodepth_batch are queued: in IOMATRIX_TRACE's order, no more than
# iodepth_batch request lines come between two "submit" lines (libaio and
# io_uring; default batch 1, and 4).  Before, a job queued every free slot
# and then submitted them one by one, so the 16th request of a refill
# waited for 15 io_submit calls it did not belong to: iomatrix's latency
# percentiles were not fio's for the same job.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d"
run() { # ENGINE BATCH
	cat >"$T/s.yaml" <<Y
suite: t-each
defaults: {engine: $1, direct: false, size: 2MiB, bs: 4k, iodepth: 16, requests: 320}
devices:
  - {name: d, path: $T/d/}
include:
  - {pattern: randread, iodepth_batch: $2}
Y
	rm -f "$T/trace"
	IOMATRIX_TRACE="$T/trace" "$IOMATRIX" run "$T/s.yaml" --out "$T/set.$1.$2" --quiet \
		>/dev/null 2>"$T/err" || {
		[ "$1" = io_uring ] && grep -q "not built in\|disabled" "$T/err" && return 77
		cat "$T/err" >&2; fail "run $1 iodepth_batch $2 failed"; }
}
# the most request lines between two submit lines
most() {
	awk '$2 == "submit" { n = 0; next }
	     NF == 5 && ($2 == "read" || $2 == "write") { if (++n > m) m = n }
	     END { print m + 0 }' "$T/trace"
}
for eng in libaio io_uring; do
	for b in 1 4; do
		run "$eng" "$b" || { ok "$eng # SKIP io_uring unavailable"; continue 2; }
		m=$(most)
		[ "$m" -le "$b" ] && ok "$eng iodepth_batch $b: at most $m requests wait for a submit" \
			|| not_ok "$eng iodepth_batch $b: $m requests queued before a submit (at most $b)"
	done
done
tap_end
