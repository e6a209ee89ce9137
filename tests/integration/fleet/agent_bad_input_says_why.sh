#!/bin/sh
# The agent on input it cannot take (JSON nested 100,000 deep, an op that
# is not UTF-8, before and after hello) answers with an "error" line that
# says why, then "bye", and exits 2; it never stops silently, and what it
# sends stays valid UTF-8 JSON.  Its stdin stays open (a FIFO), as over
# ssh: the agent ends on its own (the timeout is only a net).
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
need_cmd python3
need_cmd timeout
HELLO='{"op":"hello","proto":1,"version":"'$("$IOMATRIX" --version | cut -d' ' -f2)'","schema_version":1}'
python3 -c 'import sys; sys.stdout.write("{\"op\":\"x\",\"a\":" + "[" * 100000 + "]" * 100000 + "}\n")' >"$T/deep"
printf '{"op":"\377\376"}\n' >"$T/utf8"
printf '{"op":"ping","t0":1,"note":"\355\240\200"}\n' >"$T/surrogate"
for case in deep utf8 surrogate; do
	for greet in no yes; do
		rm -f "$T/in"; mkfifo "$T/in"
		timeout -s KILL 20 "$IOMATRIX" agent <"$T/in" >"$T/o" 2>"$T/e" &
		pid=$!
		exec 3>"$T/in"
		[ $greet = yes ] && echo "$HELLO" >&3
		cat "$T/$case" >&3
		wait $pid; rc=$?
		exec 3>&-
		ops=$(python3 -c '
import json, sys
ops = []
for l in open(sys.argv[1], "rb"):
    m = json.loads(l.decode("utf-8"))  # strict: raises on bad UTF-8
    ops.append(m["op"] + (":" + m.get("message", "") if m["op"] == "error" else ""))
print("|".join(ops))' "$T/o" 2>&1)
		case $case in deep) want="nested deeper" ;; *) want="not UTF-8" ;; esac
		case $ops in
		"hello|error:bad input from the controller: "*"$want"*"|bye")
			if [ $rc = 2 ]; then ok "$case (hello $greet): error then bye, exit 2"
			else not_ok "$case (hello $greet): exit $rc"; fi ;;
		*) not_ok "$case (hello $greet): replies '$(echo "$ops" | head -c 200)'" ;;
		esac
	done
done
tap_end
