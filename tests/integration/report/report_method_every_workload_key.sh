#!/bin/sh
# The report's Method section comes from the key table: every key that
# defines the workload has a line, so two cells that differ only in offset,
# io_size or rwmixread say so in "what differs", and keys at one value are
# listed with it; an io_uring option is "none (not io_uring)" elsewhere.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/scratch"
cat >"$T/m.yaml" <<YAML
suite: m
defaults: {engine: "null", pattern: randrw, rwmixread: 70, bs: 4k, size: 1MiB, requests: 500}
devices: [{name: d, path: $T/scratch}]
matrix:
  offset: [0, 64k]
YAML
expect_exit 0 "$IOMATRIX" run "$T/m.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/r" --charts none --format md
md=$T/r/report.md
grep -q 'what differs: offset)' "$md" && ok "offset is what differs" \
	|| not_ok "offset not named: $(grep 'what differs' "$md")"
grep -q '^| read share | 70 % reads |$' "$md" && ok "rwmixread has its line" \
	|| not_ok "no read share line"
grep -q '^| max bytes | none |$' "$md" && ok "io_size has its line" \
	|| not_ok "no max bytes line"
grep -q '^| io\\_uring options | none (not io\\_uring) |$' "$md" && ok "another engine's options: none" \
	|| not_ok "io_uring options: $(grep 'io\\_uring' "$md")"
tap_end
