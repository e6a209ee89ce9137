#!/bin/sh
# `mpirun -np 3 iomatrix run SUITE --mpi --aggregate` on a shared file
# that does not exist yet: every rank created it at once and the losers
# failed the set (5 of 10 runs here: "an existing file of 0 bytes that
# iomatrix did not make", or EEXIST called a symbolic link).  Now rank 0's
# host lays it out, the others get the cell once it is ready: every run
# completes.  IOMATRIX_RACE_RUNS runs (default 3; the CI runs 20);
# fleet_aggregate_fresh_shared_file does the same over ssh.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
need_cmd jq
mpi_start
runs=${IOMATRIX_RACE_RUNS:-3}
cat >"$T/s.yaml" <<Y
suite: mpi-fresh-shared
defaults: {engine: psync, direct: false, size: 256KiB, requests: 32}
devices:
  - {name: shared, path: "$T/fs/shared.dat"}
matrix: {pattern: [randread, read], bs: [4k]}
Y
i=0; good=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	rm -rf "$T/fs" "$T/set" && mkdir "$T/fs"
	if mpi_run -np 3 "$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --aggregate --quiet \
		--out "$T/set" >"$T/out" 2>"$T/err" &&
	   [ "$(jq -s '[.[] | select(.status == "ok")] | length' "$T"/set/cells/*.json)" = 8 ] &&
	   [ -z "$(ls -A "$T/fs")" ]; then
		good=$((good + 1))
	else
		not_ok "run $i: $(grep "^iomatrix\|: cell" "$T/err" | grep -v warning | head -3) $(ls -A "$T/fs")"
	fi
done
[ "$good" = "$runs" ] && ok "$runs of $runs aggregate runs of 3 ranks on a fresh shared file complete"
[ -z "$(mpi_procs)" ] && ok "no rank left behind" || not_ok "left: $(mpi_procs)"
tap_end
