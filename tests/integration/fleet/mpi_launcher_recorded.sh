#!/bin/sh
# The launcher a set records is the one that started it, judged from the
# variables each launcher sets, together: 'run --mpi' started by no
# launcher recorded "mpirun" (and "srun" when SLURM_STEP_ID alone was in
# the environment), and its report said "The hosts were the ranks of
# mpirun".  Now such a run records "singleton", warns on stderr that no
# launcher started it and that an aggregate of one host is no aggregate,
# and the report says so (its intro and its summary) instead of naming a
# launcher or a sum; under mpirun the set records "mpirun" (a stray
# SLURM_STEP_ID changes nothing) and the report names it.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
need_cmd jq
mpi_start
mkdir -p "$T/d"
cat >"$T/s.yaml" <<Y
suite: mpi-launcher
defaults: {engine: psync, direct: false, size: 64KiB, requests: 32}
devices:
  - {name: d, path: "$T/d/"}
matrix: {pattern: [randread], bs: [4k]}
Y
# no launcher: none of a launcher's variables, but SLURM_STEP_ID
env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u PMI_SIZE SLURM_STEP_ID=7 \
	"$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --aggregate --quiet --out "$T/single" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] && [ "$(jq -r .fleet.launch.launcher "$T/single/manifest.json")" = singleton ] &&
	ok "no launcher, SLURM_STEP_ID=7: the set records 'singleton'" ||
	not_ok "exit $rc, launcher $(jq -c .fleet.launch "$T/single/manifest.json" 2>&1) $(cat "$T/err")"
grep -q "warning: run --mpi was started by no launcher: one rank, a singleton" "$T/err" &&
	grep -q "warning: --aggregate of one host is no aggregate" "$T/err" &&
	ok "stderr: started by no launcher, an aggregate of one host is no aggregate" ||
	not_ok "warnings: $(cat "$T/err")"
expect_exit 0 "$MPI_BIN/iomatrix" report "$T/single" -o "$T/rep1" --charts none
grep -q "that no launcher started (a singleton)" "$T/rep1/report.md" &&
	! grep -q "ranks of mpirun\|ranks of srun" "$T/rep1/report.md" &&
	grep -q "which is no aggregate" "$T/rep1/report.md" &&
	grep -q "the one host did .* an aggregate of one host is no aggregate" "$T/out" &&
	ok "report: a singleton, no launcher named, no sum claimed" ||
	not_ok "report: $(grep -i "launcher\|ranks of\|aggregate" "$T/rep1/report.md" "$T/out" | head -5)"
# under mpirun, with the same stray variable
SLURM_STEP_ID=7 mpi_run -np 2 "$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --aggregate --quiet \
	--out "$T/two" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] && [ "$(jq -r .fleet.launch.launcher "$T/two/manifest.json")" = mpirun ] &&
	! grep -q "no launcher\|one host is no aggregate" "$T/err" &&
	ok "mpirun -np 2: the set records 'mpirun', no warning" ||
	not_ok "exit $rc, launcher $(jq -c .fleet.launch "$T/two/manifest.json" 2>&1) $(cat "$T/err")"
expect_exit 0 "$MPI_BIN/iomatrix" report "$T/two" -o "$T/rep2" --charts none
grep -q "The hosts were the ranks of mpirun (Open MPI" "$T/rep2/report.md" &&
	grep -q "the 2 hosts together did" "$T/out" &&
	ok "report: the ranks of mpirun, their sum" || not_ok "report: $(grep -i "ranks of" "$T/rep2/report.md")"
tap_end
