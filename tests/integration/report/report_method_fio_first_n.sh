#!/bin/sh
# The Method says how many equivalent fio commands it shows when it shows
# only some ("the first 40; 42 more in fio-commands.txt", was "first
# ones"), and that number is what it shows; a set with few cells shows
# every command and says nothing of the kind.
. "$(dirname "$0")/../../lib.sh"
EX="$ROOT/results/examples/2026-12-01T192406Z_hdd-vs-ssd_vm"
[ -d "$EX" ] || fail "example set missing"
expect_exit 0 "$IOMATRIX" report "$EX" -o "$T/big" --charts none --format md,html
grep -q '^Equivalent fio command of each cell (the first 40; 42 more in fio-commands.txt):$' "$T/big/report.md" \
	&& ok "says how many it shows" || not_ok "$(grep '^Equivalent fio' "$T/big/report.md")"
n=$(sed -n '/^Equivalent fio command/,/^## /p' "$T/big/report.md" | grep -c '^fio ')
[ "$n" = 40 ] && ok "shows that many" || not_ok "$n commands shown"
grep -q 'Equivalent fio command of each cell (the first 40; 42 more' "$T/big/report.html" \
	&& ok "the HTML says it too" || not_ok "html"
mkdir -p "$T/d"
cat >"$T/s.yaml" <<EOS
suite: few
defaults: {engine: "null", size: 4MiB, runtime: 50ms}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread, read], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/small" --charts none --format md
grep -q '^Equivalent fio command of each cell:$' "$T/small/report.md" \
	&& ok "few cells: every command, no count" || not_ok "$(grep '^Equivalent fio' "$T/small/report.md")"
tap_end
