#!/bin/sh
# run --out on /proc: the refusal names the cause, a
# kernel pseudo filesystem, not "is full (0 KiB free)" (procfs reports no
# free blocks), exits 2 and writes nothing.
. "$(dirname "$0")/../../lib.sh"
[ "$(stat -f -c %T /proc 2>/dev/null)" = proc ] || skip "no procfs at /proc"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-proc-out
defaults: {engine: psync, direct: false, size: 64KiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: read, bs: 4k, requests: 8}
Y
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out /proc/iomatrix-x --quiet
grep -q "procfs" "$T/err" && grep -q -- "--out" "$T/err" && ok "the cause is named: procfs" ||
	not_ok "message: $(cat "$T/err")"
grep -q "full\|KiB free" "$T/err" && not_ok "still says full: $(cat "$T/err")" || ok "not called full"
[ -z "$(ls "$T/scratch")" ] && ok "nothing laid out" || not_ok "scratch holds $(ls "$T/scratch")"
tap_end
