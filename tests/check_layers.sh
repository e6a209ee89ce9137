#!/bin/sh
# check_layers.sh - includes point down the layers, never up or sideways:
#
#   bench/common     0  errors, units, sha256, statistics, strings, files,
#                       the repetition structure
#   bench/engines    1  the IO engines behind struct engine and their
#                       registry (names, capabilities)
#   bench/suite      2  key table, YAML, expansion, cell, fio mapping
#                       (validates engine names against the registry)
#   bench/host       2  fingerprint, safety checks
#   bench/runner     3  runner, layout, workers
#   bench/resultset  4  the one reader and writer of result sets
#   bench/import     5  fio / sysbench / CSV importers
#   bench/fleet      5  ssh transport, the agent protocol, run's fleet options
#   bench/pts        5  SNIA PTS orchestration: the SSD plan and run_ssd
#   bench/           6  the commands and main.c
#   report/model     7  the report model: sets loaded into devices, workload
#                       groups, warnings, summary; the optional sections
#                       (fleet, SSD) and their table, model/section.h
#   report/render    8  escaping, templates, the output directory, and the
#                       template context / CSV / JSON of a model
#   report/charts    9  gnuplot charts of a model (section charts through
#                       the table's charts hook)
#   report/compare  10  compare and the statistics of a verdict (cmpstat)
#   report/archive  11  history, change points, the static site
#   report          12  the report commands and report/sections.c, the one
#                       file that names every section (its rows point into
#                       model/ and charts/)
#
# A file may include its own folder's headers and any header of a lower
# layer.  Exit 1 with one line per offending include.  Argument: the tree
# to check (default: this repository).
cd "${1:-$(dirname "$0")/..}" || exit 2
layer() { # folder -> layer number, or "" when unknown
	case "$1" in
	bench/common) echo 0 ;; bench/engines) echo 1 ;;
	bench/suite|bench/host) echo 2 ;; bench/runner) echo 3 ;;
	bench/resultset) echo 4 ;; bench/import|bench/fleet|bench/pts) echo 5 ;;
	bench) echo 6 ;; report/model) echo 7 ;; report/render) echo 8 ;;
	report/charts) echo 9 ;; report/compare) echo 10 ;;
	report/archive) echo 11 ;; report) echo 12 ;; *) echo "" ;;
	esac
}
bad=0; n=0
for f in bench/*.[ch] bench/*/*.[ch] report/*.[ch] report/*/*.[ch]; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f"); own=$(layer "$dir")
	if [ -z "$own" ]; then
		echo "check-layers: $f: folder '$dir' has no layer; add it to tests/check_layers.sh"
		bad=1; continue
	fi
	for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
		n=$((n + 1))
		if [ -f "$dir/$inc" ]; then
			tdir=$(dirname "$dir/$inc")
		elif [ -f "bench/$inc" ]; then
			tdir=$(dirname "bench/$inc")
		elif [ -f "report/$inc" ] && [ "${dir#report}" != "$dir" ]; then
			tdir=$(dirname "report/$inc")
		else
			echo "check-layers: $f: include \"$inc\" not found under $dir/ or bench/"
			bad=1; continue
		fi
		[ "$tdir" = "$dir" ] && continue
		tl=$(layer "$tdir")
		if [ -z "$tl" ] || [ "$tl" -ge "$own" ]; then
			echo "check-layers: $f (layer $own) includes $inc from $tdir (layer ${tl:-?}): includes must point down"
			bad=1
		fi
	done
done
[ "$bad" = 0 ] && echo "check-layers: $n includes, all point down"
exit $bad
