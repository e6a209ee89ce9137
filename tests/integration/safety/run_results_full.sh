#!/bin/sh
# A results directory on a full filesystem is refused before any IO, with
# a message that names the directory, the free space and the fix.
. "$(dirname "$0")/../../lib.sh"
need_root
mkdir -p "$T/scratch" "$T/full"
mount -t tmpfs -o size=2m none "$T/full" 2>/dev/null || skip "cannot mount tmpfs"
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT INT TERM
dd if=/dev/zero of="$T/full/filler" bs=64k count=100 2>/dev/null  # leaves < 1 MiB
cat >"$T/s.yaml" <<'Y'
suite: t-full
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randwrite, bs: 4k, requests: 10}
Y
IOMATRIX_RESULTS="$T/full/results" expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch"
grep -q "'$T/full/results' is full" "$T/err" && grep -q "KiB free" "$T/err" \
	&& ok "clear message: $(cat "$T/err")" || not_ok "message: $(cat "$T/err")"
[ -z "$(ls "$T/scratch")" ] && ok "no IO done" || not_ok "scratch files: $(ls "$T/scratch")"
[ ! -e "$T/full/results" ] && ok "no set directory made" || not_ok "set directory made"
tap_end
