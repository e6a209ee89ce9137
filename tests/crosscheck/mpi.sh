#!/bin/sh
# make crosscheck, the MPI part: one aggregate cell on one shared file from
# three clients at once, measured by `mpirun -np 3 iomatrix run --mpi
# --aggregate` and by fio's own client/server (three `fio --server` on
# loopback ports, one `fio --client` per server, each running the job
# `iomatrix export fio` writes for the cell), alternating the tools.  The
# aggregate IOPS of the two must agree within +-10 %; printed side by side.
# Not a test: exit 0 unless a tool failed to run; 77 when mpirun, the MPI
# helper or fio is missing.
#
#   sh tests/crosscheck/mpi.sh BUILD/iomatrix
#   env: CROSSCHECK_ROUNDS (default 2), CROSSCHECK_DIR (default /tmp),
#        CROSSCHECK_MPI_RUNTIME (seconds per cell, default 3)
set -u
BIN=${1:?usage: mpi.sh IOMATRIX_BINARY}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
ROUNDS=${CROSSCHECK_ROUNDS:-2}
RT=${CROSSCHECK_MPI_RUNTIME:-3}
for c in mpirun fio python3; do
	command -v $c >/dev/null 2>&1 || { echo "crosscheck mpi: '$c' is not installed (make deps with IOMATRIX_DEPS_EXTRA=1), skipped"; exit 77; }
done
[ -x "$(dirname "$BIN")/iomatrix-mpi" ] || { echo "crosscheck mpi: no iomatrix-mpi beside $BIN (built where mpicc is), skipped"; exit 77; }
W=$(mktemp -d "${CROSSCHECK_DIR:-/tmp}/iomatrix-crosscheck-mpi.XXXXXX") || exit 1
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$W"' EXIT INT TERM
root=""
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
cat >"$W/s.yaml" <<Y
suite: crosscheck-mpi
defaults: {engine: libaio, direct: true, size: 256MiB, runtime: ${RT}s, ramp: 500ms}
devices:
  - {name: shared, path: "$W/shared.dat"}
matrix:
  pattern: [randread]
  bs: [4k]
  iodepth: [16]
Y
# a shared file is laid out once beforehand (docs/fleet.md): three ranks
# must not race to create it
head -c 268435456 /dev/urandom >"$W/shared.dat" || exit 1
"$BIN" export fio "$W/s.yaml" -o "$W/fio" >/dev/null 2>&1 || { echo "crosscheck mpi: export fio failed"; exit 1; }
job=$(ls "$W"/fio/0001-*.fio)
# three fio servers on free loopback ports
port=$((20000 + $$ % 20000))
clients=""
for i in 1 2 3; do
	p=$((port + i))
	fio --server=ip:127.0.0.1,$p >"$W/server$i.log" 2>&1 &
	pids="$pids $!"
	clients="$clients --client=ip:127.0.0.1,$p $job"
done
echo "crosscheck mpi: 3 clients, 4K random reads QD16 O_DIRECT on one 256 MiB file, ${RT} s a round, $ROUNDS rounds per tool"
: >"$W/iops"
for r in $(seq 1 "$ROUNDS"); do
	rm -rf "$W/set"
	if ! mpirun $root --oversubscribe -np 3 "$BIN" run "$W/s.yaml" --mpi --aggregate --out "$W/set" \
		>/dev/null 2>"$W/err"; then
		echo "crosscheck mpi: iomatrix failed: $(tail -3 "$W/err")"; exit 1
	fi
	python3 - "$W/set" >>"$W/iops" <<'PY' || exit 1
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/cells/*.json"):
    c = json.load(open(f))
    if c.get("host") == "all":
        print("iomatrix", c["repetitions"][0]["read"]["iops"])
PY
	# shellcheck disable=SC2086
	if ! fio $clients --output-format=json --output="$W/fio.json" >/dev/null 2>"$W/ferr"; then
		echo "crosscheck mpi: fio --client failed: $(tail -3 "$W/ferr")"; exit 1
	fi
	python3 - "$W/fio.json" >>"$W/iops" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
jobs = [j for j in d.get("client_stats", []) if j.get("jobname") != "All clients"]
if len(jobs) != 3:
    sys.exit("fio --client gave %d client results, want 3" % len(jobs))
print("fio", sum(j["read"]["iops"] for j in jobs))
PY
done
python3 - "$W/iops" <<'PY'
import sys
v = {"iomatrix": [], "fio": []}
for line in open(sys.argv[1]):
    t, x = line.split()
    v[t].append(float(x))
a, b = sum(v["iomatrix"]) / len(v["iomatrix"]), sum(v["fio"]) / len(v["fio"])
r = a / b
print("   %-34s %12s %12s %7s" % ("cell", "iomatrix", "fio client", "ratio"))
print("   %-34s %12.0f %12.0f %7.2f  %s" % ("aggregate IOPS, 3 ranks / clients", a, b, r,
      "ok" if 0.9 <= r <= 1.1 else "outside +-10 %% (rounds: iomatrix %s, fio %s)" %
      (", ".join("%.0f" % x for x in v["iomatrix"]), ", ".join("%.0f" % x for x in v["fio"]))))
PY
