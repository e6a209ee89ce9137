#!/bin/sh
# A read that comes back short in the middle of a run stops the cell with
# the request's offset, file and cause, on every engine's way back: the
# reaped batches of libaio and io_uring (worker.c reap(), whose per-batch
# tests leave a failed completion to reap_rare()) and psync's completion
# inside queue().  The hook "interval" pauses the run once job 0 has
# completed IO 100 ms into it; the test truncates the scratch file to
# nothing, lets the run go on, and every later read ends at the end of the
# file: exit 1, "read error at offset N of 'PATH': short transfer", the
# set failed.  The same cell left alone runs to its end.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkfifo "$T/hook" || fail "mkfifo"

# case ENGINE: one run paused at interval 1, its file emptied meanwhile
case_engine() {
	eng=$1; qd=8
	[ "$eng" = psync ] && qd=1
	mkdir -p "$T/scr-$eng"
	cat >"$T/$eng.yaml" <<Y
suite: t-ioerr-$eng
defaults: {engine: $eng, size: 1MiB, bs: 4k, direct: false, runtime: 3s, iodepth: $qd}
devices:
  - {name: d, path: /nonexistent}
matrix: {pattern: [randread]}
Y
	IOMATRIX_TEST_HOOK="interval:1,fifo=$T/hook" "$IOMATRIX" run "$T/$eng.yaml" \
		--device d="$T/scr-$eng" --out "$T/set-$eng" --quiet >"$T/out-$eng" 2>"$T/err-$eng" &
	pid=$!
	line=$(hook_wait "$T/hook")
	if [ "$line" != "interval 1" ]; then
		kill -KILL $pid 2>/dev/null; wait $pid
		if grep -q "not built in\|disabled\|cannot start" "$T/err-$eng"; then
			ok "$eng # SKIP $(tail -n 1 "$T/err-$eng")"
			return 0
		fi
		not_ok "$eng: the run never reached interval 1: $(cat "$T/err-$eng")"
		return 0
	fi
	for f in "$T/scr-$eng"/*; do [ -f "$f" ] && : >"$f"; done
	hook_go "$T/hook"
	wait $pid; rc=$?
	[ $rc = 1 ] && ok "$eng: exit 1 after the file was emptied" ||
		not_ok "$eng: exit $rc: $(cat "$T/err-$eng")"
	grep -q "read error at offset [0-9]* of '.*': short transfer" "$T/err-$eng" &&
		ok "$eng: the message names the offset, the file and the cause" ||
		not_ok "$eng: message: $(cat "$T/err-$eng")"
	st=$(jq -r '.status' "$T/set-$eng/manifest.json" 2>/dev/null)
	[ "$st" = failed ] && ok "$eng: the set says failed" || not_ok "$eng: set status '$st'"
}

for e in libaio io_uring psync; do
	case_engine $e
done
# the control: the same cell, not touched, runs to its end
mkdir -p "$T/scr-ctl"
expect_exit 0 "$IOMATRIX" run "$T/libaio.yaml" --device d="$T/scr-ctl" --out "$T/set-ctl" --quiet
ok "libaio: the cell left alone runs to its end"
tap_end
