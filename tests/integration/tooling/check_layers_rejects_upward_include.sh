#!/bin/sh
# make check-layers passes on this tree and fails on a copy where a bench/
# file includes a report/ header, or a lower room includes a higher one.
. "$(dirname "$0")/../../lib.sh"
sh "$ROOT/tests/check_layers.sh" "$ROOT" >/dev/null || fail "the tree itself violates the layers"
cp -r "$ROOT/bench" "$ROOT/report" "$ROOT/cmd" "$T/"
printf '#include "report.h"\n' >> "$T/bench/util/units.c"
out=$(sh "$ROOT/tests/check_layers.sh" "$T" 2>&1) && fail "bench/util including report.h passed"
echo "$out" | grep -q 'units.c' || fail "message does not name the file: $out"
rm -rf "$T/bench" "$T/report" "$T/cmd"; cp -r "$ROOT/bench" "$ROOT/report" "$ROOT/cmd" "$T/"
printf '#include "runner/runner.h"\n' >> "$T/bench/suite/cell_params.c"
out=$(sh "$ROOT/tests/check_layers.sh" "$T" 2>&1) && fail "bench/suite including runner/ passed"
echo "$out" | grep -q 'must point down' || fail "unexpected message: $out"
exit 0
