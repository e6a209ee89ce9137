#!/bin/sh
# Ctrl-C on mpirun while 3 ranks run a cell (sent once rank 0's agent is
# at the test hook, two intervals into the cell, so it lands mid-cell
# without a sleep; the cell lasts 3 s since mpirun forwards it as SIGTERM
# only a second later): every rank stops and removes its scratch files, rank 0
# marks the set interrupted with the finished cells kept, mpirun exits
# non-zero, nothing is left running, and --resume under a new launch
# completes the set.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
need_cmd jq
mpi_start
for i in 0 1 2; do mkdir -p "$T/d/$i"; done
cat >"$T/s.yaml" <<Y
suite: mpi-sigint
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 3s, rate_iops: 200}
devices:
  - {name: d, path: "$T/d/{rank}"}
matrix:
  pattern: [randread]
Y
X=$MPI_BIN/iomatrix
mkfifo "$T/fifo"
mpi_run_bg -np 1 env IOMATRIX_TEST_HOOK="interval:2,fifo=$T/fifo" \
	"$X" run "$T/s.yaml" --mpi --out "$T/set" : -np 2 "$X" run "$T/s.yaml" --mpi --out "$T/set" \
	>"$T/out" 2>"$T/err"
job=$!
ev=$(hook_wait "$T/fifo") || { kill $job; fail "the run never reached its first cell"; }
kill -INT $job
hook_go "$T/fifo"
wait $job
rc=$?
[ $rc != 0 ] && ok "mpirun exits non-zero ($rc) after '$ev'" || not_ok "exit 0 after Ctrl-C"
[ "$(jq -r .status "$T/set/manifest.json")" = interrupted ] && ok "set marked interrupted" ||
	not_ok "status $(jq -r .status "$T/set/manifest.json"); $(tail -3 "$T/err")"
grep -q 'continue with: iomatrix run --resume' "$T/err" && ok "says how to resume" || not_ok "no resume hint"
left=$(mpi_procs); [ -z "$left" ] && ok "nothing left running" || not_ok "left: $left"
[ -z "$(find "$T/d" -type f)" ] && ok "scratch files removed on every rank" || not_ok "scratch: $(find "$T/d" -type f)"
mpi_run -np 3 "$X" run --resume "$T/set" --mpi >/dev/null 2>"$T/err2"
rc=$?
[ $rc = 0 ] && [ "$(jq -r .status "$T/set/manifest.json")" = complete ] && "$X" verify "$T/set" >/dev/null &&
	ok "--resume under a new launch completes it, intact" || not_ok "resume exit $rc: $(tail -3 "$T/err2")"
tap_end
