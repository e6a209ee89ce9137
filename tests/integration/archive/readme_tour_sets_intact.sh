#!/bin/sh
# The README tour end to end: every command README.md shows,
# in order, on a small null-engine suite in a scratch results/ directory,
# and then every set verifies intact, measurement and derived output alike:
# no command changes a finished set (compare OLD NEW wrote NEW/compare/,
# which made NEW fail verify with 'extra compare/...', list say FAILS
# VERIFY and history and site drop it).  The fleet commands (--hosts) need
# ssh to other machines and are left to tests/integration/fleet; make demo
# and make test are the build's.  The suite follows the README's example
# (devices hdd and ssd, a matrix, repeat: 3) at a size and time a test
# affords.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
cd "$T" || fail "cd $T"
export IOMATRIX_RESULTS="$T/results"
mkdir -p hdd ssd other results
cat >my-disks.yaml <<EOS
suite: my-disks
title: "Home server: SSD vs HDD"
defaults:
  engine: null
  size: 1MiB
  runtime: 50ms
  repeat: 3
devices:
  - {name: hdd, path: $T/hdd}
  - {name: ssd, path: $T/ssd}
matrix:
  pattern: [randread, read]
  bs: [4k]
  iodepth: [1, 4]
EOS
step() { # what, expected exit, command...
	w=$1; e=$2; shift 2
	"$@" >"$T/step.out" 2>"$T/step.err"; got=$?
	[ "$got" = "$e" ] && ok "$w" || not_ok "$w: exit $got: $(tail -3 "$T/step.err")"
}
sets() { ls -d "$T"/results/*/ 2>/dev/null | sed 's|/$||'; }
newest() { ls -dt "$T"/results/*my-disks*/ | head -1 | sed 's|/$||'; }

# 2. check it and see what it will do
step "validate" 0 "$IOMATRIX" validate my-disks.yaml
step "plan" 0 "$IOMATRIX" plan my-disks.yaml
step "export fio" 0 "$IOMATRIX" export fio my-disks.yaml -o fio-jobs/
# 3. run it
step "run" 0 "$IOMATRIX" run my-disks.yaml --quiet
first=$(newest)
step "run --scale 0.1" 0 "$IOMATRIX" run my-disks.yaml --scale 0.1 --quiet
step "run --device ssd=other" 0 "$IOMATRIX" run my-disks.yaml --device ssd="$T/other" --quiet
last=$(newest)
# 4. read the report
step "report SET" 0 "$IOMATRIX" report "$first"
step "report A B -o out/ --baseline hdd" 0 "$IOMATRIX" report "$first" "$last" -o out/ --baseline hdd
step "compare OLD NEW --threshold 5" 0 "$IOMATRIX" compare "$first" "$last" --threshold 5
step "list" 0 "$IOMATRIX" list
grep -q "FAILS VERIFY" "$T/step.out" && not_ok "list after compare: $(grep 'FAILS' "$T/step.out")" \
	|| ok "list after report and compare: no set fails verify"
# 5. keep an archive
step "history" 0 "$IOMATRIX" history
grep -q "failing verification" "$T/step.out" && not_ok "history left a set out: $(tail -3 "$T/step.out")" \
	|| ok "history leaves no set out"
step "history --device --workload" 0 "$IOMATRIX" history --device ssd --workload "RND4K Q1T1"
step "history --format json" 0 "$IOMATRIX" history --format json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(1 if j.get("failed_verification") else 0)' "$T/step.out" \
	&& ok "history json: no set failing verification" || not_ok "history json: $(head -c 300 "$T/step.out")"
step "site results/ -o site/" 0 "$IOMATRIX" site results/ -o site/ --charts none
# sharing and reproducing sets
step "verify SET" 0 "$IOMATRIX" verify "$last"
step "pack SET -o set.tar.gz" 0 "$IOMATRIX" pack "$last" -o set.tar.gz
mkdir -p unpacked
step "unpack set.tar.gz -o unpacked" 0 "$IOMATRIX" unpack set.tar.gz -o unpacked
step "reproduce SET --device ..." 0 "$IOMATRIX" reproduce "$first" --device hdd="$T/hdd" --device ssd="$T/ssd" --quiet
step "import fio" 0 "$IOMATRIX" import fio "$ROOT/tests/data/fio/randread-4k-qd16.json" --device ssd
# reproducing published write-ups
step "import csv" 0 "$IOMATRIX" import csv "$ROOT/tests/data/seed-003-published.csv" -o results/seed-003
step "report seed-003 --baseline" 0 "$IOMATRIX" report results/seed-003 --baseline "640G SATA (Local)"

# every set the tour made or touched verifies intact, its derived output too
n=0
for s in $(sets) "$T"/unpacked/*; do
	n=$((n + 1))
	"$IOMATRIX" verify "$s" >"$T/v" 2>&1; rc=$?
	if [ $rc = 0 ] && grep -q ": intact (" "$T/v" && ! grep -q "FAILED\|extra" "$T/v"; then
		ok "intact after the tour: $(basename "$s")$(grep -o 'derived [a-z]*/' "$T/v" | tr '\n' ' ' | sed 's/^/ (/;s/ $/)/')"
	else
		not_ok "after the tour: $(cat "$T/v")"
	fi
done
[ "$n" -ge 7 ] && ok "the tour made $n sets" || not_ok "only $n sets"
"$IOMATRIX" verify "$last" | grep -q "^  derived compare/: intact (" && ok "compare's output is derived, with its own list" \
	|| not_ok "compare/: $("$IOMATRIX" verify "$last")"
tap_end
