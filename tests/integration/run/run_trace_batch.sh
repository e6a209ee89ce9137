#!/bin/sh
# iodepth_batch (fio's iodepth_batch_submit) sets how many queued IOs go
# down per submit call: IOMATRIX_TRACE's "JOB submit N" lines show N = 1 by
# default (fio's default), at most the asked size and mostly exactly it
# with iodepth_batch: 4, up to iodepth with 0 (fio: 0 means iodepth) - for
# libaio (io_submit) and io_uring (io_uring_enter).  Every IO is submitted
# once: the N add up to the requests.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d"
N=320
run() { # ENGINE BATCH -> "$T/t.ENGINE.BATCH" (the submit sizes, one a line)
	cat >"$T/s.yaml" <<Y
suite: t-batch
defaults: {engine: $1, direct: false, size: 2MiB, bs: 4k, iodepth: 16, requests: $N}
devices:
  - {name: d, path: $T/d/}
include:
  - {pattern: randread, $([ "$2" = default ] || echo "iodepth_batch: $2")}
Y
	rm -f "$T/trace"
	IOMATRIX_TRACE="$T/trace" "$IOMATRIX" run "$T/s.yaml" --out "$T/set.$1.$2" --quiet \
		>/dev/null 2>"$T/err" || {
		[ "$1" = io_uring ] && grep -q "not built in\|disabled" "$T/err" && return 77
		cat "$T/err" >&2; fail "run $1 iodepth_batch $2 failed"; }
	awk '$2 == "submit" { print $3 }' "$T/trace" >"$T/t.$1.$2"
}
# check ENGINE BATCH MAX: sizes <= MAX, sum = N; prints a summary
check() {
	f="$T/t.$1.$2"
	awk -v max="$3" -v n="$N" '{ s += $1; c++; if ($1 > max) over++; if ($1 == max) at++; if ($1 > top) top = $1 }
		END { printf "%d submits, largest %d, %d of the asked size, sum %d", c, top, at, s
		      exit !(c > 0 && !over && s == n) }' "$f"
}
for eng in libaio io_uring; do
	run "$eng" default || { ok "$eng # SKIP io_uring unavailable"; continue; }
	s=$(check "$eng" default 1) && ok "$eng default: one IO per submit ($s)" || not_ok "$eng default: $s"
	run "$eng" 4
	s=$(check "$eng" 4 4) && ok "$eng iodepth_batch 4: at most 4 ($s)" || not_ok "$eng iodepth_batch 4: $s"
	# buffered IO on a cached file completes at once, so reaped batches are
	# large and the submits come in fours (libaio: every one, io_submit
	# completes it inline; io_uring may see a few completions late)
	share=2; [ "$eng" = io_uring ] && share=4
	awk -v s=$share '$1 == 4 { at++ } END { exit !(at * s >= NR) }' "$T/t.$eng.4" \
		&& ok "$eng iodepth_batch 4: at least 1/$share of the submits exactly 4" \
		|| not_ok "$eng: sizes $(sort -n "$T/t.$eng.4" | uniq -c | tr '\n' ' ')"
	run "$eng" 0
	s=$(check "$eng" 0 16) && ok "$eng iodepth_batch 0: up to iodepth ($s)" || not_ok "$eng iodepth_batch 0: $s"
	awk '$1 > 4 { big++ } END { exit !big }' "$T/t.$eng.0" && ok "$eng iodepth_batch 0: batches above 4" \
		|| not_ok "$eng iodepth_batch 0: sizes $(sort -n "$T/t.$eng.0" | uniq -c | tr '\n' ' ')"
done
tap_end
