# Sourced by the MPI tests after tests/lib.sh: `iomatrix run --mpi` under
# Open MPI's mpirun on this machine (ranks on one node, as
# `mpirun --allow-run-as-root --oversubscribe -np 3`).
#
#   mpi_start         skip (77) unless mpirun and the MPI helper are here;
#                     copy the binary under test and its helper into
#                     $T/bin, so that this test's processes are told apart
#                     by path ($MPI_BIN/iomatrix) from anyone else's
#   mpi_run ARGS...   mpirun with the options this machine needs
#   mpi_run_bg ARGS...  the same in the background ($! is mpirun), with
#                     SIGINT at its default: a shell starts background
#                     jobs with SIGINT ignored, and mpirun keeps it so
#   mpi_procs         pids of this test's iomatrix processes (none is the
#                     goal once mpirun returned)
MPI_BIN=$T/bin

mpi_start() {
	command -v mpirun >/dev/null 2>&1 || skip "mpirun not installed (Debian: openmpi-bin libopenmpi-dev)"
	helper=$(dirname "$IOMATRIX")/iomatrix-mpi
	[ -x "$helper" ] || skip "no $helper: built only where mpicc is (Debian: libopenmpi-dev)"
	mkdir -p "$MPI_BIN"
	cp "$IOMATRIX" "$MPI_BIN/iomatrix" && cp "$helper" "$MPI_BIN/iomatrix-mpi" || fail "copy binaries"
	MPI_ROOT_OPT=""
	[ "$(id -u)" = 0 ] && MPI_ROOT_OPT=--allow-run-as-root
	# shared memory without cross-memory attach, which a container or a
	# hardened kernel refuses with a warning on every run
	export OMPI_MCA_btl_vader_single_copy_mechanism=none
	export IOMATRIX_RESULTS="$T/results"
}

mpi_run() {
	# shellcheck disable=SC2086
	mpirun $MPI_ROOT_OPT --oversubscribe "$@"
}

mpi_run_bg() {
	need_cmd python3
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' mpirun $MPI_ROOT_OPT --oversubscribe "$@" &
}

mpi_procs() {
	pgrep -f "^$MPI_BIN/" || true
}
