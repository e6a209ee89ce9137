#!/bin/sh
# Without the MPI helper (an iomatrix built where mpicc was missing),
# `run --mpi` exits 2 before anything else and says exactly what to
# install and that a rebuild follows; --mpi with --hosts is refused too.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/bin" "$T/d"
cp "$IOMATRIX" "$T/bin/iomatrix" || fail "copy"
[ -e /usr/local/libexec/iomatrix/iomatrix-mpi ] && skip "an installed helper in /usr/local/libexec would be found"
cat >"$T/s.yaml" <<Y
suite: mpi-none
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 100ms}
devices:
  - {name: d, path: "$T/d"}
matrix:
  pattern: [randread]
Y
IOMATRIX_RESULTS=$T/results "$T/bin/iomatrix" run "$T/s.yaml" --mpi >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] && ok "exit 2" || not_ok "exit $rc"
grep -q 'apt-get install openmpi-bin libopenmpi-dev' "$T/err" && grep -q "make" "$T/err" &&
	ok "says what to install and to build again" || not_ok "message: $(cat "$T/err")"
[ ! -e "$T/results" ] && [ -z "$(ls "$T/d")" ] && ok "nothing written" || not_ok "something was written"
if [ -x "$(dirname "$IOMATRIX")/iomatrix-mpi" ]; then
	"$IOMATRIX" run "$T/s.yaml" --mpi --hosts a,b >/dev/null 2>"$T/err2"
	rc=$?
	[ $rc = 2 ] && grep -q 'drop --hosts' "$T/err2" && ok "--mpi with --hosts: exit 2, says why" ||
		not_ok "--mpi --hosts: exit $rc: $(cat "$T/err2")"
fi
tap_end
