#!/bin/sh
# Several reports into one -o at the same time all finish: the directory is
# locked and a second writer waits for the first (it says so on stderr)
# instead of failing.  Every run exits 0, and afterwards the directory
# holds one complete report: report.json parses and equals the one a lone
# run writes, every file the list names exists, no temp file is left.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 2 >/dev/null || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/ref" --charts none
bad=0; waited=0
for round in 1 2 3 4 5 6 7 8; do
	charts=none
	[ "$round" -ge 7 ] && command -v gnuplot >/dev/null 2>&1 && charts=svg
	[ "$round" = 1 ] || [ "$round" = 7 ] && rm -rf "$T/out"   # also race the mkdir
	pids=""
	for k in 1 2 3 4; do
		"$IOMATRIX" report "$T/set" -o "$T/out" --charts "$charts" >/dev/null 2>"$T/e$k" &
		pids="$pids $!"
	done
	k=0
	for p in $pids; do
		k=$((k + 1))
		wait "$p"; rc=$?
		grep -q "waiting for it to finish" "$T/e$k" && waited=$((waited + 1))
		[ "$rc" = 0 ] || { bad=1; echo "# round $round report $k: exit $rc: $(cat "$T/e$k")"; }
	done
	python3 - "$T/out" "$T/ref" <<'PY' || { bad=1; echo "# round $round: incomplete report"; }
import json, os, sys
out, ref = sys.argv[1], sys.argv[2]
a = json.load(open(os.path.join(out, "report.json")))
b = json.load(open(os.path.join(ref, "report.json")))
assert a == b, "report.json differs from a lone run's"
for line in open(os.path.join(out, ".iomatrix-files")):
    name = line.rstrip("\n").split("  ", 1)[-1]
    assert os.path.isfile(os.path.join(out, name)), "listed file missing: " + name
for need in ("report.md", "report.html", "report.csv", "fio-commands.txt"):
    assert os.path.getsize(os.path.join(out, need)) > 0, need + " empty"
PY
done
[ $bad = 0 ] && ok "every concurrent report exited 0; the result is one complete report" ||
	not_ok "a concurrent report failed or left an incomplete report"
find "$T/out" -name '.iomatrix-tmp.*' | grep -q . && not_ok "temp litter" || ok "no temp litter"
echo "# $waited of 32 reports waited for the lock"
tap_end
