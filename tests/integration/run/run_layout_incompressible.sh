#!/bin/sh
# Laid-out files are written in full with incompressible data (not sparse,
# not zeros): with keep_files: true they stay, and gzip cannot shrink them.
# The file is the suite's size plus iomatrix's 4 KiB scratch marker.
. "$(dirname "$0")/../../lib.sh"
need_cmd gzip
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-layout
keep_files: true
defaults:
  engine: psync
  direct: false
  size: 4MiB
devices:
  - name: d
    path: /nonexistent
include:
  - {pattern: randread, bs: 4k, requests: 10}
Y
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet
f=$(ls "$T/scratch"/iomatrix.* 2>/dev/null | head -n 1)
[ -n "$f" ] || fail "keep_files: true but no file left in $T/scratch"
size=$(stat -c %s "$f")
[ "$size" = $((4194304 + 4096)) ] && ok "file has the suite's size + marker" || not_ok "file is $size bytes"
tail -c 4096 "$f" | head -n 1 | grep -q '^iomatrix scratch file v1$' && ok "marker at the end" || not_ok "no scratch marker"
blocks=$(stat -c %b "$f"); bsz=$(stat -c %B "$f")
[ $((blocks * bsz)) -ge "$size" ] && ok "file is not sparse" || not_ok "file is sparse ($blocks blocks)"
size=4194304
gz=$(head -c $size "$f" | gzip -c | wc -c)
# ratio > 0.99 <=> 100 * gz > 99 * size
[ $((gz * 100)) -gt $((size * 99)) ] && ok "gzip ratio > 0.99 ($gz/$size)" || not_ok "compressible: $gz/$size"
tap_end
