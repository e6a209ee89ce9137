#!/bin/sh
# `run --mpi` has a usage line of its own (it appeared only at
# the end of the --hosts line, as if it needed --hosts): "run SUITE.yaml
# --mpi [--aggregate]", in run --help, in iomatrix --help and in the man
# page's synopsis; the --hosts line no longer lists it.  A form's required
# option comes first on its line.
. "$(dirname "$0")/../../lib.sh"
"$IOMATRIX" run --help >"$T/run" 2>&1
grep -q '^       iomatrix run SUITE.yaml --mpi \[--aggregate\]$' "$T/run" \
	&& ok "run --help: a line of its own" || not_ok "$(sed -n 1,8p "$T/run")"
sed -n '/--hosts H1/,/^ *iomatrix run SUITE.yaml --mpi/p' "$T/run" | grep -q '\[--mpi\]' \
	&& not_ok "the --hosts line still lists --mpi" || ok "the --hosts line does not list it"
"$IOMATRIX" --help >"$T/main" 2>&1
grep -q '^  iomatrix run SUITE.yaml --mpi \[--aggregate\]$' "$T/main" \
	&& ok "iomatrix --help: the synopsis has it" || not_ok "$(grep 'iomatrix run' "$T/main")"
tap_end
