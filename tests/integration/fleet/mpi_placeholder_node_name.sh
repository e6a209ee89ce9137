#!/bin/sh
# {node}, {rank} and {local_rank} in a device path expand to one name
# each, never to a path: a rank whose host is named '../victimdir' turned
# SCR/{node}/ into SCR/../victimdir/, and the scratch files were written
# outside SCR.  Now that rank's agent refuses the suite, naming the rank
# and the value; the run exits 2 before any file or set is made.  The
# host name is set in a UTS namespace of this test (unshare -u), where
# mpirun runs; a sane name there still runs.
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
need_root
need_cmd unshare
need_cmd python3
mpi_start
unshare -u true 2>/dev/null || skip "no UTS namespace here (unshare -u)"
mkdir -p "$T/SCR" "$T/victimdir"
cat >"$T/s.yaml" <<Y
suite: mpi-placeholder
defaults: {engine: psync, direct: false, size: 64KiB, requests: 16, keep_files: true}
devices:
  - {name: d, path: "$T/SCR/{node}/"}
matrix: {pattern: [randread], bs: [4k]}
Y
named() {  # named HOSTNAME SET: mpirun -np 2 under that host name
	unshare -u sh -c 'python3 -c "import socket, sys; socket.sethostname(sys.argv[1])" "$1" &&
		shift && exec "$@"' _ "$1" mpirun $MPI_ROOT_OPT --oversubscribe -np 2 \
		"$MPI_BIN/iomatrix" run "$T/s.yaml" --mpi --out "$T/$2" >"$T/out" 2>"$T/err"
}
named ../victimdir bad
rc=$?
[ "$rc" != 0 ] && grep -q "rank 1: its node name '../victimdir' cannot fill {node} in '$T/SCR/{node}/'" "$T/err" &&
	ok "a node named '../victimdir': refused, the rank named (exit $rc)" ||
	not_ok "exit $rc: $(grep iomatrix "$T/err" | head -3)"
[ -z "$(ls -A "$T/victimdir")" ] && [ ! -e "$T/bad" ] &&
	ok "nothing written outside SCR, no set" || not_ok "victimdir: $(ls -A "$T/victimdir"); set: $(ls "$T/bad" 2>&1)"
mkdir -p "$T/SCR/n01"
named n01 good
rc=$?
[ "$rc" = 0 ] && ls "$T/SCR/n01" | grep -q '^iomatrix\.' &&
	ok "a node named n01: runs in SCR/n01" || not_ok "n01: exit $rc $(tail -3 "$T/err")"
tap_end
