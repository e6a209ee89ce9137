#!/bin/sh
# The measurement-window chart labels its band by what it is: the range
# rule (max - min <= R % of the average) is the band avg +- R/2 %, labelled
# with both; no band is called "+-R %".  Checked on the chart's script and
# data for R = 20 (PTS) and R = 30.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
SRC="$ROOT/results/reference/2026-11-30T034243Z_ref-fsync_vm"
for r in 20 30; do
	cp -r "$SRC" "$T/s$r" && rm -f "$T/s$r/SHA256SUMS" || fail "copy"
	python3 "$ROOT/tests/report/gen_steady.py" "$T/s$r" disk --range "$r" \
		--track RR=1000,1000,1000,1000,1000 || fail "gen_steady"
	expect_exit 0 "$IOMATRIX" report "$T/s$r" -o "$T/rep$r" --charts all,svg --format md
	gp="$T/rep$r/charts/steady-1-window-1.gp"
	[ -f "$gp" ] || { not_ok "range $r: no window chart script"; continue; }
	h=$((r / 2))
	grep -q "title 'avg +-$h % (range limit: max - min <= $r % of avg)'" "$gp" &&
		ok "range $r %: band labelled avg +-$h % and the rule" ||
		not_ok "range $r %: $(grep -o "title '[^']*'" "$gp" | head -3 | tr '\n' ' ')"
	grep -q "+-$r %" "$gp" && not_ok "range $r %: a band still called +-$r %" ||
		ok "range $r %: no band called +-$r %"
	# the band is avg * (1 -+ r/200) in the data
	awk -v h="$h" 'NR > 1 && ($4 != $3 * (1 - h / 100) || $5 != $3 * (1 + h / 100)) { bad = 1 }
		END { exit bad }' "$T/rep$r/charts/steady-1-window-1.dat" &&
		ok "range $r %: band data is avg +-$h %" ||
		not_ok "range $r %: band data $(sed -n 2p "$T/rep$r/charts/steady-1-window-1.dat")"
done
tap_end
