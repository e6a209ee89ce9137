#!/bin/sh
# check-layers ranks the report rooms (model < render < charts < compare <
# reproduce < archive < the commands room, cmd/): it passes on this tree and fails on copies with
# a planted cycle between two rooms, e.g. the model including the charts
# again (ssd.c -> charts/chart.h while charts/ssd_chart.c -> model/ssd.h).
. "$(dirname "$0")/../../lib.sh"
sh "$ROOT/tests/check_layers.sh" "$ROOT" >/dev/null || fail "the tree itself violates the layers"

# one copy of the tree; each plant restores the file the one before changed
# (a copy of the three trees per plant cost most of this test)
cp -r "$ROOT/bench" "$ROOT/report" "$ROOT/cmd" "$T/" || fail "cannot copy the tree"
planted=""
plant() { # file include -> the check's output in $T/out; fails when it passes
	[ -n "$planted" ] && cp "$ROOT/$planted" "$T/$planted"
	planted=$1
	printf '#include "%s"\n' "$2" >> "$T/$1"
	if sh "$ROOT/tests/check_layers.sh" "$T" > "$T/out" 2>&1; then
		not_ok "$1 including $2 passed"
		return
	fi
	if grep -q "$1 (layer [0-9]*) includes $2 .*must point down" "$T/out"; then
		ok "$1 including $2 is refused"
	else
		not_ok "$1 including $2: unexpected message: $(cat "$T/out")"
	fi
}
plant report/model/ssd.c charts/chart.h       # model <-> charts, the old cycle
plant report/model/load.c render/escape.h     # model <-> render
plant report/render/render.c charts/chart.h   # render <-> charts
plant report/charts/chart_render.c archive/site.h # charts <-> archive (site_chart.c)
plant report/compare/ratio.c archive/history.h
plant report/reproduce/repro.c archive/history.h
plant report/archive/history.c cli.h          # nothing includes the commands
plant bench/runner/runner.c cli.h
tap_end
