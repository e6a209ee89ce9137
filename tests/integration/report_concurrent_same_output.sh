#!/bin/sh
# Two reports into one -o at the same time: the directory is locked, so
# each either finishes (exit 0) or stops at once with a message saying
# another report is writing there (exit 1); the result is never a corrupt
# report.json, and no temp file is left.
. "$(dirname "$0")/../lib.sh"
need_cmd python3
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 2 >/dev/null || fail "generator failed"
bad=0; locked=0
for round in 1 2 3 4 5 6; do
	"$IOMATRIX" report "$T/set" -o "$T/out" --charts none >/dev/null 2>"$T/e1" & p1=$!
	"$IOMATRIX" report "$T/set" -o "$T/out" --charts none >/dev/null 2>"$T/e2" & p2=$!
	wait $p1; r1=$?; wait $p2; r2=$?
	for k in 1 2; do
		eval "rc=\$r$k"
		if [ "$rc" = 1 ] && grep -q "another iomatrix report is writing" "$T/e$k"; then
			locked=$((locked + 1))
		elif [ "$rc" != 0 ]; then
			bad=1; echo "round $round report $k: exit $rc: $(cat "$T/e$k")"
		fi
	done
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out/report.json" ||
		{ bad=1; echo "round $round: report.json corrupt"; }
done
[ $bad = 0 ] && ok "every report finished or was told the directory is busy; report.json valid" ||
	not_ok "a concurrent report failed otherwise"
ls -a "$T/out" | grep -q '^\.iomatrix-tmp\.' && not_ok "temp litter" || ok "no temp litter"
echo "# $locked of 12 reports found the directory locked"
tap_end
