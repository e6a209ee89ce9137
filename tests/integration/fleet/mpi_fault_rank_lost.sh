#!/bin/sh
# Faults of an MPI fleet, driven by the test hook (no sleeps):
#  1. rank 2's agent dies mid-cell (IOMATRIX_TEST_HOOK kill): only its part
#     fails; the other ranks finish; rank 0 writes the set and mpirun exits
#     non-zero; --resume under a new launch completes it.
#  2. rank 2 itself is killed mid-cell (SIGKILL to its iomatrix-mpi while
#     its agent is paused at the hook): mpirun ends the job, rank 0 marks
#     the set interrupted and exits non-zero; --resume completes it.
# Each time no iomatrix process is left once mpirun returned.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
need_cmd jq
mpi_start
node=$(hostname -s)
for i in 0 1 2; do mkdir -p "$T/d/$i"; done
cat >"$T/s.yaml" <<Y
suite: mpi-lost
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 400ms, rate_iops: 1000}
devices:
  - {name: d, path: "$T/d/{rank}"}
matrix:
  pattern: [randread, randwrite]
Y
X=$MPI_BIN/iomatrix
statuses() { jq -r '[.host, .status] | @tsv' "$1"/cells/*.json | sort | tr '\t\n' ': '; }

# 1. the agent of rank 2 dies in its first cell
mpi_run -np 2 "$X" run "$T/s.yaml" --mpi --out "$T/set1" : \
	-np 1 env IOMATRIX_TEST_HOOK=interval:2:kill "$X" run "$T/s.yaml" --mpi --out "$T/set1" \
	>"$T/out1" 2>"$T/err1"
rc=$?
[ $rc != 0 ] && ok "agent lost: mpirun exits non-zero ($rc)" || not_ok "agent lost: exit 0"
st=$(statuses "$T/set1")
case "$st" in
*"$node:0:ok $node:0:ok $node:1:ok $node:1:ok $node:2:failed $node:2:failed"*)
	ok "agent lost: only rank 2's cells failed" ;;
*) not_ok "agent lost: cells $st; $(tail -3 "$T/err1")" ;;
esac
grep -q "host '$node:2'.*lost" "$T/err1" && ok "agent lost: the message names the rank" ||
	not_ok "agent lost: stderr $(tail -3 "$T/err1")"
left=$(mpi_procs); [ -z "$left" ] && ok "agent lost: nothing left running" || not_ok "left: $left"
mpi_run -np 3 "$X" run --resume "$T/set1" --mpi >/dev/null 2>"$T/err1r"
rc=$?
[ $rc = 0 ] && ok "agent lost: --resume exit 0" || not_ok "resume exit $rc: $(tail -3 "$T/err1r")"
st=$(statuses "$T/set1")
case "$st" in *failed*) not_ok "resume left $st" ;; *) ok "agent lost: resumed, every cell ok" ;; esac
"$X" verify "$T/set1" >/dev/null && ok "agent lost: resumed set verifies" || not_ok "verify set1"

# 2. rank 2 itself dies while its agent waits at the hook
mkfifo "$T/fifo"
mpi_run -np 2 "$X" run "$T/s.yaml" --mpi --out "$T/set2" : \
	-np 1 env IOMATRIX_TEST_HOOK="interval:2,fifo=$T/fifo" \
	"$X" run "$T/s.yaml" --mpi --out "$T/set2" >"$T/out2" 2>"$T/err2" &
job=$!
read -r ev <"$T/fifo"
agent=""
for p in $(pgrep -f "^$MPI_BIN/iomatrix agent"); do
	tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q '^IOMATRIX_TEST_HOOK=.*,fifo=' && agent=$p
done
[ -n "$agent" ] || { kill $job; fail "no paused agent found after '$ev'"; }
rank=$(awk '/^PPid:/ { print $2 }' "/proc/$agent/status")
kill -KILL "$rank"
echo go >"$T/fifo" # the hook waits for a line: the agent goes on, sees its rank gone
wait $job
rc=$?
[ $rc != 0 ] && ok "rank killed: mpirun exits non-zero ($rc)" || not_ok "rank killed: exit 0"
s=$(jq -r .status "$T/set2/manifest.json" 2>/dev/null)
case "$s" in interrupted) ok "rank killed: set marked interrupted" ;;
*) not_ok "rank killed: status '$s'; $(tail -3 "$T/err2")" ;; esac
left=$(mpi_procs); [ -z "$left" ] && ok "rank killed: nothing left running" || not_ok "left: $left"
mpi_run -np 3 "$X" run --resume "$T/set2" --mpi >/dev/null 2>"$T/err2r"
rc=$?
[ $rc = 0 ] && ok "rank killed: --resume exit 0" || not_ok "resume exit $rc: $(tail -3 "$T/err2r")"
[ "$(jq -r .status "$T/set2/manifest.json")" = complete ] && "$X" verify "$T/set2" >/dev/null &&
	ok "rank killed: resumed set complete and intact" || not_ok "set2 $(jq -r .status "$T/set2/manifest.json")"
tap_end
