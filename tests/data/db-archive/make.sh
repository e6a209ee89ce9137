#!/bin/sh
# make.sh - (re)make tests/data/db-archive/sets/: a small REAL archive of
# every kind of set iomatrix writes, for the archive-database tests
# (tests/integration/archive/db_*.sh): a run with repetitions and time
# series (model engine), a load sweep with a QoS target, SNIA PTS rounds
# with preconditioning, a fleet survey over ssh (127.0.0.1 test hosts), an
# MPI survey (mpirun, 3 ranks), a reproduction, and imports of fio,
# sysbench and published CSV numbers.  Every set is made by the commands
# themselves; nothing is edited.  Run it by hand (as root: the ssh test
# hosts; mpirun for the MPI set) and commit what it writes:
#
#   IOMATRIX=$PWD/build/default/iomatrix sh tests/data/db-archive/make.sh
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/fleet_lib.sh"
. "$ROOT/tests/mpi_lib.sh"
OUT=$ROOT/tests/data/db-archive/sets
A=$T/results
export IOMATRIX_RESULTS=$A
mkdir -p "$A" "$T/d" "$T/d1" "$T/d2" "$T/fast" "$T/slow" "$T/m0"
run() { "$IOMATRIX" "$@" --quiet >/dev/null || fail "$*"; }

cat >"$T/run.yaml" <<Y
suite: db-run
defaults: {engine: model, model_latency: 100us, size: 8MiB, runtime: 300ms, interval: 100ms, repeat: 2}
devices:
  - {name: fast, path: $T/fast/}
  - {name: slow, path: $T/slow/, model_latency: 400us}
matrix:
  pattern: [randread, randwrite, randrw]
  bs: [4k, 64k]
Y
run run "$T/run.yaml"

cat >"$T/qos.yaml" <<Y
suite: db-qos
defaults: {engine: model, model_latency: 200us, size: 8MiB, runtime: 300ms, iodepth: 4}
devices:
  - {name: m, path: $T/m0/}
include:
  - {pattern: randread, load_sweep: {iops: [1000, 4000, 12000, 30000]}, qos: {p99: 20ms}}
Y
run run "$T/qos.yaml"

cat >"$T/pts.yaml" <<'Y'
suite: db-pts
defaults: {engine: psync, direct: false, size: 4MiB, runtime: 200ms}
devices:
  - name: d
    path: /nowhere/
    precondition: {pattern: write, bs: 1m, amount: 2x, iodepth: 1}
matrix:
  pattern: [randrw]
  rwmixread: [100, 0]
rounds: {max: 4, window: 3, track: ["RND4K Q1T1 R0"]}
Y
run run "$T/pts.yaml" --device d="$T/d/"

fleet_start 2
cat >"$T/fleet.yaml" <<Y
suite: db-fleet
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 200ms}
devices:
  - {name: scratch, path: $T/nowhere/}
matrix:
  pattern: [randread, write]
Y
run run "$T/fleet.yaml" --hosts h1,h2 --ssh-config "$SSHCFG" --remote-iomatrix "$IOMATRIX" \
	--device "h1:scratch=$T/d1/" --device "h2:scratch=$T/d2/"

mpi_start
export IOMATRIX_RESULTS=$A
node=$(hostname -s)
for i in 0 1 2; do mkdir -p "$T/m/$node-$i"; done
cat >"$T/mpi.yaml" <<Y
suite: db-mpi
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 200ms}
devices:
  - {name: d, path: "$T/m/{node}-{local_rank}"}
matrix:
  pattern: [randread, randwrite]
Y
mpi_run -np 3 "$MPI_BIN/iomatrix" run "$T/mpi.yaml" --mpi --quiet >/dev/null 2>&1 || fail "mpi run"

orig=$(ls -d "$A"/*_db-run_*)
"$IOMATRIX" reproduce "$orig" --device fast="$T/fast/" --device slow="$T/slow/" --quiet \
	>/dev/null || fail reproduce

imp() { "$IOMATRIX" import "$@" >/dev/null || fail "import $*"; }
imp fio "$ROOT/tests/data/fio/randread-4k-qd16.json" --device nvme --date 2026-11-01T10:00:00Z
imp sysbench "$ROOT/tests/data/sysbench/rndrd-bs4096-t16.log" --date 2026-11-02T10:00:00Z
imp csv "$ROOT/tests/data/seed-003-published.csv" --date 2026-11-03T10:00:00Z
for s in "$A"/*; do "$IOMATRIX" verify "$s" >/dev/null || fail "$s does not verify"; done
rm -rf "$OUT"
mkdir -p "$OUT"
cp -a "$A"/. "$OUT"/
ls "$OUT"
