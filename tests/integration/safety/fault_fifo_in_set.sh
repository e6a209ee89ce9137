#!/bin/sh
# A FIFO planted anywhere in a set never hangs report, compare, list or
# --resume: each file is opened O_NONBLOCK and checked to be a regular
# file before it is read (resume also refuses a suite.yaml that is a link).
# Every command runs under a timeout.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd timeout
gen() { python3 "$ROOT/tests/report/gen_synthetic.py" "$1" --cells 2 >/dev/null || fail "generator failed"; }
mkdir "$T/arch"
gen "$T/arch/a"; gen "$T/arch/b"
rm "$T/arch/a/cells/0002.json"; mkfifo "$T/arch/a/cells/0002.json"
rm "$T/arch/a/plan.json"; mkfifo "$T/arch/a/plan.json"
rm "$T/arch/b/manifest.json"; mkfifo "$T/arch/b/manifest.json"
run() { # $1 label, rest: command; fail on a hang (exit 124)
	label=$1; shift
	timeout 20 "$@" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc != 124 ] && ok "$label returns (exit $rc)" || not_ok "$label hangs on a FIFO"
}
run "report" "$IOMATRIX" report "$T/arch/a" --charts none
grep -q "not a regular file" "$T/err" && ok "report names the FIFO" || not_ok "report: $(head -c 300 "$T/err")"
run "compare" "$IOMATRIX" compare "$T/arch/a" "$T/arch/a" -o "$T/cmp"
run "list" "$IOMATRIX" list "$T/arch"
grep -q "$T/arch/b" "$T/out" && ok "list shows the set with a FIFO manifest" || not_ok "list: $(cat "$T/out")"
mkdir -p "$T/scratch"
cat >"$T/s.yaml" <<'Y'
suite: t-fifo
defaults: {engine: psync, direct: false, size: 64KiB}
devices:
  - {name: d, path: /nonexistent}
include:
  - {pattern: randread, bs: 4k, requests: 8}
  - {pattern: read, bs: 4k, requests: 8}
Y
"$IOMATRIX" run "$T/s.yaml" --device d="$T/scratch" --out "$T/set" --quiet >/dev/null 2>&1 || fail "setup run"
rm "$T/set/suite.yaml"; mkfifo "$T/set/suite.yaml"
run "resume (suite.yaml a FIFO)" "$IOMATRIX" run --resume "$T/set" --quiet
grep -q "not a regular file" "$T/err" && ok "resume names the FIFO suite.yaml" || not_ok "resume: $(cat "$T/err")"
rm "$T/set/suite.yaml"; ln -s "$T/s.yaml" "$T/set/suite.yaml"
run "resume (suite.yaml a link)" "$IOMATRIX" run --resume "$T/set" --quiet
grep -q "symbolic link" "$T/err" && ok "resume refuses a linked suite.yaml" || not_ok "resume: $(cat "$T/err")"
rm "$T/set/suite.yaml"; cp "$T/s.yaml" "$T/set/suite.yaml"
rm "$T/set/cells/0001.json"; mkfifo "$T/set/cells/0001.json"
run "resume (a cell a FIFO)" "$IOMATRIX" run --resume "$T/set" --quiet
rm "$T/set/manifest.json"; mkfifo "$T/set/manifest.json"
run "resume (manifest a FIFO)" "$IOMATRIX" run --resume "$T/set" --quiet
tap_end
