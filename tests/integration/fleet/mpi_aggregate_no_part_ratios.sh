#!/bin/sh
# An aggregate's report compared each rank with the sum it is part of:
# "Ratios against all · shared", vm:0 0.33x, "1.00x slower".  A part is
# never compared with its whole, nor with another aggregate's whole, and
# two ranks of one aggregate are not a ratio either (their spread is the
# fleet section's).  One aggregate set: no ratio table, the fleet section
# says the sum.  Two aggregate sets: the ratio table holds the second
# set's "all" against the first's, and nothing else.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
need_cmd jq
mpi_start
head -c 262144 /dev/urandom >"$T/shared.dat" || fail "cannot write the shared file"
cat >"$T/s.yaml" <<Y
suite: mpi-ratios
defaults: {engine: psync, direct: false, size: 256KiB, requests: 64, repeat: 2}
devices:
  - {name: shared, path: "$T/shared.dat"}
matrix: {pattern: [randread], bs: [4k]}
Y
for s in a b; do
	mpi_run -np 3 "$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --aggregate --quiet --out "$T/$s" \
		>"$T/out" 2>"$T/err" || fail "run $s: $(grep '^iomatrix' "$T/err" | head -3)"
done
expect_exit 0 "$MPI_BIN/iomatrix" report "$T/a" -o "$T/r1" --charts none --format md
! grep -q "^## Ratios" "$T/r1/report.md" && grep -q "the 3 hosts together did" "$T/out" &&
	ok "one aggregate: no ratio of a rank to its sum; the summary gives the sum" ||
	not_ok "one aggregate: $(grep -A8 '^## Ratios' "$T/r1/report.md")"
expect_exit 0 "$MPI_BIN/iomatrix" report "$T/a" "$T/b" -o "$T/r2" --charts none --format md
rows=$(sed -n '/^## Ratios/,/^## /p' "$T/r2/report.md" | grep -c '^| 4K random read')
sed -n '/^## Ratios/,/^## /p' "$T/r2/report.md" | grep '^| 4K random read' >"$T/rows"
[ "$rows" = 1 ] && grep -q '| all · shared' "$T/rows" &&
	ok "two aggregates: the one row is a sum against a sum" || not_ok "two aggregates: $(cat "$T/rows")"
tap_end
