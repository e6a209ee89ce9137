#!/bin/sh
# --progress=plain: one progress line per second on stderr, newline-ended,
# even when stderr is a file; the default on a non-terminal prints only one
# line per finished cell; --progress none likewise.  "(1 cell)", not "(1 cells)".
. "$(dirname "$0")/../../lib.sh"
cat >"$T/s.yaml" <<EOS
suite: prog
defaults: {engine: "null", size: 4MiB, runtime: 3500ms, rate_iops: 10000}
devices:
  - {name: d, path: $T/d}
matrix: {pattern: [randread], bs: [4k]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/a" --progress=plain
n=$(grep -c '^cell 1/1 d RND4K Q1T1 randread rep 1/1 .* IOPS .* ETA' "$T/err")
[ "$n" -ge 2 ] && [ "$n" -le 5 ] && ok "plain: $n progress lines for a 3.5 s cell" || not_ok "plain lines: $n"
grep -q "$(printf '\r')" "$T/err" && not_ok "carriage returns in plain mode" || ok "no carriage returns"
grep -q "(1 cell)" "$T/err" && ok "'(1 cell)'" || not_ok "wording: $(head -1 "$T/err")"
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/b"
grep -q 'ETA' "$T/err" && not_ok "progress lines in a redirected default run" || ok "default: no progress when redirected"
grep -q '^cell 1/1 .*: [0-9]* IOPS' "$T/err" && ok "finished-cell line kept" || not_ok "cell line"
expect_exit 2 "$IOMATRIX" run "$T/s.yaml" --out "$T/c" --progress=fancy
ok "unknown --progress mode exits 2"
tap_end
