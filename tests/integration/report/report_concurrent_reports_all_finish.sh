#!/bin/sh
# Several reports into one -o at the same time all finish: the directory is
# locked and a second writer waits for the first (it says so on stderr)
# instead of failing.  Every run exits 0, and afterwards the directory
# holds one complete report: report.json is the one a lone run writes, every file the list names exists, no temp file is left.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 2 >/dev/null || fail "generator failed"
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/ref" --charts none
# complete OUT REF: OUT's report.json is REF's byte for byte (a lone run's,
# so it parses), every file the list names exists, the four outputs are
# not empty (in the shell: a python per round cost most of this test)
complete() {
	cmp -s "$1/report.json" "$2/report.json" || return 1
	[ -f "$1/.iomatrix-files" ] || return 1
	while IFS= read -r line; do
		[ -f "$1/${line#*  }" ] || return 1
	done <"$1/.iomatrix-files"
	for need in report.md report.html report.csv fio-commands.txt; do
		[ -s "$1/$need" ] || return 1
	done
}
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
	complete "$T/out" "$T/ref" || { bad=1; echo "# round $round: incomplete report"; }
done
[ $bad = 0 ] && ok "every concurrent report exited 0; the result is one complete report" ||
	not_ok "a concurrent report failed or left an incomplete report"
find "$T/out" -name '.iomatrix-tmp.*' | grep -q . && not_ok "temp litter" || ok "no temp litter"
echo "# $waited of 32 reports waited for the lock"
tap_end
