#!/bin/sh
# `mpirun -np 3 iomatrix run SUITE --mpi`: every rank is a host of one fleet
# set, named NODE:LOCAL_RANK; {node} and {local_rank} in a device path give
# each rank its own directory; the manifest records the launch (mpirun,
# Open MPI, 3 ranks, 1 node); the set verifies, reports and compares like a
# --hosts set; hosts on one node are flagged; nothing is left running.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
need_cmd jq
mpi_start
node=$(hostname -s)
for i in 0 1 2; do mkdir -p "$T/d/$node-$i"; done
cat >"$T/s.yaml" <<Y
suite: mpi-survey
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 200ms}
devices:
  - {name: d, path: "$T/d/{node}-{local_rank}"}
matrix:
  pattern: [randread, randwrite]
Y
mpi_run -np 3 "$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --out "$T/set" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] && ok "mpirun exit 0" || not_ok "mpirun exit $rc: $(grep -E "^(iomatrix|[^ ]+:[0-9]+:)" "$T/err" | grep -v warning | tail -4)"
[ "$(cat "$T/out")" = "$T/set" ] && ok "the set's directory on stdout, once" || not_ok "stdout: $(cat "$T/out")"
"$MPI_BIN/iomatrix" verify "$T/set" >/dev/null && ok "the set verifies" || not_ok "verify failed"
M=$T/set/manifest.json
hosts=$(jq -r '[.fleet.hosts[].name] | join(",")' "$M")
[ "$hosts" = "$node:0,$node:1,$node:2" ] && ok "hosts named NODE:LOCAL_RANK" || not_ok "hosts: $hosts"
paths=$(jq -r '[.fleet.hosts[].devices[0].path] | join(",")' "$M")
[ "$paths" = "$T/d/$node-0,$T/d/$node-1,$T/d/$node-2" ] && ok "{node}-{local_rank} filled per rank" ||
	not_ok "device paths: $paths"
jq -e '.fleet.launch | .kind == "mpi" and .launcher == "mpirun" and .ranks == 3 and .nodes == 1
	and (.implementation | test("MPI")) and (.mpi_standard | test("^[0-9]+[.][0-9]+$"))' "$M" >/dev/null &&
	ok "fleet.launch records mpirun, the library, 3 ranks on 1 node" || not_ok "launch: $(jq -c .fleet.launch "$M")"
n=$(ls "$T/set/cells" | wc -l)
[ "$n" = 6 ] && ok "6 cells (3 hosts x 2)" || not_ok "$n cells"
[ "$(jq -r '.status' "$M")" = complete ] && ok "status complete" || not_ok "status $(jq -r .status "$M")"
grep -q 'are one machine' "$T/err" && ok "ranks on one node are flagged" || not_ok "no same-machine warning"
"$MPI_BIN/iomatrix" report "$T/set" -o "$T/rep" --charts none >/dev/null 2>"$T/rerr" &&
	grep -q "^| $node:2 | " "$T/rep/report.md" && ok "report names the ranks" || not_ok "report: $(tail -3 "$T/rerr")"
grep -q 'The hosts were the ranks of mpirun (.*MPI.*): 3 ranks on 1 node, each named by its node and its rank on that node\.' \
	"$T/rep/report.md" && grep -q '^| host (node:local rank) |' "$T/rep/report.md" &&
	ok "the Fleet section says how the ranks were launched" ||
	not_ok "Fleet intro: $(grep -A2 '^## Fleet' "$T/rep/report.md" | tail -1 | cut -c1-300)"
"$MPI_BIN/iomatrix" compare "$T/set" "$T/set" -o "$T/cmp" >/dev/null 2>"$T/cerr" &&
	ok "compare reads it" || not_ok "compare: $(tail -3 "$T/cerr")"
left=$(mpi_procs)
[ -z "$left" ] && ok "no iomatrix process left" || not_ok "left running: $left"
[ -z "$(find "$T/d" -type f)" ] && ok "scratch files removed" || not_ok "scratch left: $(find "$T/d" -type f)"
tap_end
