#!/bin/sh
# An engine the suite names but that cannot run here: an unknown name is a
# suite error (exit 2, did-you-mean); io_uring refused by the kernel
# (kernel.io_uring_disabled=2, root only) fails that cell with the reason,
# and the other cells still run (exit 1).  A build without liburing
# ('not built into this iomatrix') cannot be made from this test.
. "$(dirname "$0")/../../lib.sh"
need_cmd jq
mkdir -p "$T/scratch"
cat >"$T/bad.yaml" <<'Y'
suite: t-engine
defaults: {engine: io_urin, direct: false, size: 1MiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 10}
Y
expect_exit 2 "$IOMATRIX" run "$T/bad.yaml" --device d="$T/scratch" --out "$T/set0"
grep -q "unknown engine 'io_urin'" "$T/err" && grep -q "io_uring" "$T/err" \
	&& ok "unknown engine: $(head -n 1 "$T/err")" || not_ok "message: $(cat "$T/err")"
[ ! -e "$T/set0" ] && ok "no result set for a bad suite" || not_ok "set made"

sysctl=/proc/sys/kernel/io_uring_disabled
if [ "$(id -u)" != 0 ] || [ ! -w "$sysctl" ]; then
	echo "# skipped io_uring_disabled case: needs root and $sysctl"
	tap_end
fi
# the sysctl is the machine's: another run of this test (another work
# tree's make test) must not restore it in the middle of this one
test_lock io_uring_disabled
old=$(cat "$sysctl")
trap 'echo "$old" >"$sysctl"; rm -rf "$T"' EXIT INT TERM
cat >"$T/s.yaml" <<'Y'
suite: t-engine
defaults: {engine: io_uring, direct: false, size: 1MiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 10}
  - {pattern: randread, bs: 4k, requests: 10, engine: psync}
Y
if ! "$IOMATRIX" plan "$T/s.yaml" >/dev/null 2>&1; then
	echo "# io_uring not accepted by this build"; tap_end
fi
echo 2 >"$sysctl" || { echo "# cannot set $sysctl"; tap_end; }
"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" >"$T/out" 2>"$T/err"
rc=$?
echo "$old" >"$sysctl"
m="$T/set/manifest.json"
if grep -q "not built into" "$T/err"; then
	ok "io_uring not built in: said so: $(grep 'not built' "$T/err" | head -n 1)"
	tap_end
fi
[ $rc = 1 ] && ok "exit 1" || not_ok "exit $rc: $(cat "$T/err")"
[ "$(jq -r '[.cells[].status] | join(",")' "$m")" = "failed,ok" ] && ok "io_uring cell failed, psync cell ran" \
	|| not_ok "cells: $(jq -c '[.cells[].status]' "$m")"
e=$(jq -r .error "$T/set/cells/0001.json")
echo "$e" | grep -q "io_uring" && ok "reason recorded: $e" || not_ok "error: $e"
grep -q "io_uring" "$T/err" && ok "reason on stderr" || not_ok "stderr: $(cat "$T/err")"
echo "$e" | grep -q "io_uring_disabled" && echo "$e" | grep -q "engine: libaio" \
	&& ok "the message names the cause and the fix" || not_ok "no fix named: $e"
[ -z "$(ls "$T/scratch")" ] && ok "no scratch files" || not_ok "scratch: $(ls "$T/scratch")"
tap_end
