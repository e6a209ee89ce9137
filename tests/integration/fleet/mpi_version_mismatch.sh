#!/bin/sh
# Every rank must run the same iomatrix: a rank whose agent is another
# version (MPMD, rank 2 started with --remote-iomatrix pointing at an agent
# that says 9.9.9) is refused by rank 0 before any IO, naming both versions
# and the rank: exit 2, no set, nothing left running.  A helper that is not
# the build of the iomatrix that starts it is refused too (exit 2).
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/mpi_lib.sh"
mpi_start
mkdir -p "$T/d"
cat >"$T/s.yaml" <<Y
suite: mpi-version
defaults: {engine: psync, direct: false, size: 1MiB, runtime: 100ms}
devices:
  - {name: d, path: "$T/d/{rank}"}
matrix:
  pattern: [randread]
Y
cat >"$T/old-agent" <<'A'
#!/bin/sh
echo '{"op":"hello","proto":1,"version":"9.9.9","git_commit":"0000","schema_version":1,"hostname":"old","pid":1}'
cat >/dev/null
A
chmod +x "$T/old-agent"
X=$MPI_BIN/iomatrix
mpi_run -np 2 "$X" run "$T/s.yaml" --mpi --out "$T/set" : \
	-np 1 "$X" run "$T/s.yaml" --mpi --out "$T/set" --remote-iomatrix "$T/old-agent" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] && ok "exit 2" || not_ok "exit $rc: $(tail -3 "$T/err")"
node=$(hostname -s)
grep "$node:2" "$T/err" | grep -q '9\.9\.9' && ok "the refusal names the rank and its version" ||
	not_ok "message: $(grep -v warning "$T/err" | tail -3)"
[ ! -e "$T/set" ] && ok "no set written" || not_ok "a set was written: $(ls "$T/set")"
[ -z "$(find "$T/d" -type f)" ] && ok "no IO anywhere" || not_ok "files: $(find "$T/d" -type f)"
left=$(mpi_procs); [ -z "$left" ] && ok "nothing left running" || not_ok "left: $left"
"$MPI_BIN/iomatrix-mpi" --iomatrix "$X" --caller 0.0.1+0000 -- run "$T/s.yaml" --mpi >/dev/null 2>"$T/err2"
rc=$?
[ $rc = 2 ] && grep -q '0\.0\.1' "$T/err2" && ok "a helper of another build is refused (exit 2)" ||
	not_ok "helper mismatch: exit $rc: $(cat "$T/err2")"
tap_end
