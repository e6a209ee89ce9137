#!/bin/sh
# `run --hosts h1,h2,h3 --aggregate` on a shared file that does not exist
# yet: every host tried O_CREAT|O_EXCL at once, the losers failed ("is a
# symbolic link", EEXIST taken for ELOOP, or "an existing file of 0 bytes
# that iomatrix did not make"), and so did the set (5 of 10 runs under
# mpirun here, 4 of 5 in the report).  Now the first host alone lays the
# file out, the others get the cell once it is ready and open it as it is;
# every run completes, and the file is iomatrix's and gone afterwards.
# IOMATRIX_RACE_RUNS runs (default 3; the CI runs 20): mpi_aggregate_fresh_
# shared_file does the same under mpirun.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
fleet_start 3
need_cmd jq
runs=${IOMATRIX_RACE_RUNS:-3}
cat >"$T/s.yaml" <<Y
suite: fleet-fresh-shared
defaults: {engine: psync, direct: false, size: 256KiB, requests: 32}
devices:
  - {name: shared, path: $T/fs/shared.dat}
matrix: {pattern: [randread, read], bs: [4k]}
Y
i=0; good=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	rm -rf "$T/fs" "$T/set" && mkdir "$T/fs"
	if "$IOMATRIX" run "$T/s.yaml" --hosts h1,h2,h3 --aggregate --ssh-config "$SSHCFG" \
		--remote-iomatrix "$IOMATRIX" --out "$T/set" --quiet >"$T/out" 2>"$T/err" &&
	   [ "$(jq -s '[.[] | select(.status == "ok")] | length' "$T"/set/cells/*.json)" = 8 ] &&
	   [ -z "$(ls -A "$T/fs")" ]; then
		good=$((good + 1))
	else
		not_ok "run $i: $(grep -v warning "$T/err" | head -3) $(ls -A "$T/fs")"
	fi
done
[ "$good" = "$runs" ] && ok "$runs of $runs aggregate runs on a fresh shared file complete, the file removed"
tap_end
