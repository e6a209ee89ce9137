#!/bin/sh
# A RAM-backed target (here a tmpfs directory) is named loudly: `run` warns
# before the first cell even with --quiet, and the report says RAM both in
# its warnings and in the device table, also when the device is named like
# a disk ("hdd", which used to get only the "named like a hard disk" line).
. "$(dirname "$0")/../../lib.sh"
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs"
D=$(mktemp -d /dev/shm/iomatrix-ram.XXXXXX) || skip "cannot write /dev/shm"
cleanup() { rm -rf "$D" "$T"; }
trap cleanup EXIT INT TERM
cat >"$T/s.yaml" <<Y
suite: t-ram
defaults: {engine: psync, direct: false, size: 1MiB}
devices:
  - {name: hdd, path: $D}
include:
  - {pattern: randread, bs: 4k, requests: 50}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --quiet --out "$T/set"
grep -q "WARNING: device hdd ($D) is RAM (tmpfs), not storage" "$T/err" &&
	ok "run warns even when quiet" || not_ok "run: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --format md,csv --charts none
grep -q "^- hdd: the device is RAM (tmpfs), not storage" "$T/rep/report.md" &&
	ok "report warning" || not_ok "no RAM warning: $(grep -n '^- ' "$T/rep/report.md")"
grep -q "^| virtual | RAM (tmpfs): measures memory, not storage |" "$T/rep/report.md" &&
	ok "device table says RAM" || not_ok "table: $(grep -n '^| virtual' "$T/rep/report.md")"
tap_end
