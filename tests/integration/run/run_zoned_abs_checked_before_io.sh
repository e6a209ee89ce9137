#!/bin/sh
# zoned_abs zones larger than what the cell addresses.
# Validate refuses them when it can know (size in bytes x files); what
# depends on the target (here a percentage offset, which shortens the
# file) is refused by run before any IO: no file laid out, exit 2.  Before,
# validate passed both and run laid out 4 MiB, then failed the cell.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
mk() { # file keys
	cat >"$1" <<Y
suite: t-zoned
defaults: {engine: psync, direct: false}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 50, keep_files: true, $2}
Y
}
mk "$T/big.yaml" "size: 1MiB, random_distribution: 'zoned_abs:60/512k:40/1m'"
expect_exit 2 "$IOMATRIX" validate "$T/big.yaml"
grep -q "big.yaml:6:.*zoned_abs: the zones cover 1572864 bytes, more than the 1048576 addressed" "$T/err" &&
	ok "validate refuses zones past size, at the key" || not_ok "validate: $(cat "$T/err")"

mk "$T/off.yaml" "size: 4MiB, offset: 50%, random_distribution: 'zoned_abs:60/1m:40/2m'"
expect_exit 0 "$IOMATRIX" validate "$T/off.yaml"
ok "validate passes what only the target decides"
expect_exit 2 "$IOMATRIX" run "$T/off.yaml" --device d="$T/scratch" --out "$T/set" --quiet
grep -q "zones cover 3145728 bytes, more than the 2097152 addressed" "$T/err" &&
	ok "run names the zones and what is addressed" || not_ok "run: $(cat "$T/err")"
[ -z "$(ls -A "$T/scratch")" ] && ok "nothing laid out (keep_files: true)" ||
	not_ok "laid out before the check: $(ls -la "$T/scratch")"

mk "$T/fits.yaml" "size: 4MiB, offset: 50%, random_distribution: 'zoned_abs:60/1m:40/1m'"
rm -rf "$T/scratch"/*
expect_exit 0 "$IOMATRIX" run "$T/fits.yaml" --device d="$T/scratch" --out "$T/set2" --quiet
grep -q '"status":[[:space:]]*"ok"' "$T/set2/cells/0001.json" && ok "zones that fit run" ||
	not_ok "fitting zones: $(grep -h error "$T/set2/cells/0001.json")"
tap_end
