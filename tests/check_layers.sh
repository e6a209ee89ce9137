#!/bin/sh
# check_layers.sh - includes point down the layers, never up or sideways:
#
#   bench/util       0  errors, units, sha256, strings, files, options,
#                       the test hook: utilities with no domain in them
#   bench/stats      1  the domain math: histograms and Welford moments,
#                       the repetition structure, Student-t, plateaus and
#                       cliffs, steady state, QoS schedules and knees,
#                       random distributions and the random map
#   bench/engines    2  the IO engines behind struct engine and their
#                       registry (names, capabilities)
#   bench/suite      3  key table, YAML, expansion, cell, fio mapping
#                       (validates engine names against the registry)
#   bench/host       3  fingerprint, safety checks
#   bench/runner     4  runner, layout, workers
#   bench/resultset  5  the one reader and writer of result sets, and
#                       their checksums
#   bench/import     6  fio / sysbench / CSV importers
#   bench/fleet      6  ssh transport, the agent protocol, run's fleet options
#   bench/pts        6  SNIA PTS orchestration: the SSD plan and run_ssd
#   bench/reproduce  6  what a received set may decide: device mapping,
#                       imported sets' parameters
#   bench/share      6  pack and unpack: sets as one file
#   bench/run        7  `run` behind one function: the suite, the checks
#                       before IO, the set, the cell loop, the hand-over to
#                       the fleet (beside report/model: neither includes
#                       the other)
#   bench/export     7  `export fio`: job files and run-all.sh of a suite
#                       (its purge and preconditioning steps are pts/'s)
#   report/model     7  the report model: sets loaded into devices, workload
#                       groups, warnings, summary; the optional sections
#                       (fleet, SSD) and their table, model/section.h
#   report/render    8  escaping, templates, the output directory, and the
#                       template context / CSV / JSON of a model and of its
#                       sections (render/section_out.h)
#   report/charts    9  gnuplot charts of a model (section charts through
#                       the table's charts hook)
#   report/reproduce 10 a reproduction's verdicts, its report section, and
#                       reproduce's one orchestrator (unpack, the received-set
#                       rule, run handed in by cmd, the verdicts)
#   report/compare  11  compare: two sets paired and judged (compare_run)
#   report/archive  12  history, change points, the static site
#   report/build    13  one report or comparison written: sets, charts,
#                       documents, SHA256SUMS (report_build, compare_build)
#   cmd             14  the commands room above both halves: main.c, the
#                       command table, every cmd_*.c, and sections.c, the
#                       one file that names every optional report section
#   cmd/mpi         15  iomatrix-mpi, what `run --mpi` becomes on a rank:
#                       it calls cmd_run (rank 0) and links MPI
#
# A file may include its own folder's headers and any header of a lower
# layer.  Exit 1 with one line per offending include.  Argument: the tree
# to check (default: this repository).
cd "${1:-$(dirname "$0")/..}" || exit 2
layer() { # folder -> layer number, or "" when unknown (check_cycles.sh reads this too)
	case "$1" in
	bench/util) echo 0 ;; bench/stats) echo 1 ;; bench/engines) echo 2 ;;
	bench/suite|bench/host) echo 3 ;; bench/runner) echo 4 ;;
	bench/resultset) echo 5 ;;
	bench/import|bench/fleet|bench/pts|bench/reproduce|bench/share) echo 6 ;;
	bench/run|bench/export|report/model) echo 7 ;; report/render) echo 8 ;;
	report/charts) echo 9 ;; report/reproduce) echo 10 ;;
	report/compare) echo 11 ;; report/archive) echo 12 ;;
	report/build|report) echo 13 ;; cmd) echo 14 ;; cmd/mpi) echo 15 ;; *) echo "" ;;
	esac
}
# the folders' layers, for awk
map=$(find cmd bench report -type d | sort | while read -r d; do echo "$d=$(layer "$d")"; done)
# One awk pass over every include, one process for every file (the shell
# loop forked a few processes per include: 1.5 s a run; then a sed per
# file: 400 processes a run, and the tests run it a dozen times).
set -- cmd/*.[ch] cmd/*/*.[ch] bench/*.[ch] bench/*/*.[ch] report/*.[ch] report/*/*.[ch]
for f; do shift; [ -f "$f" ] && set -- "$@" "$f"; done
{
	find cmd bench report -name '*.[ch]' | sed 's/^/F /'
	for f; do echo "S $f"; done
	awk '/^[ \t]*#[ \t]*include[ \t]*"/ {
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc); print "I", FILENAME, inc }' "$@"
} | awk -v map="$map" '
BEGIN {
	n = split(map, row, "\n")
	for (i = 1; i <= n; i++) {
		k = index(row[i], "=")
		if (k) L[substr(row[i], 1, k - 1)] = substr(row[i], k + 1)
	}
	n = 0
}
function layer(d) { return (d in L) ? L[d] : "" }
function dirname(p) { sub(/\/[^\/]*$/, "", p); return p }
# "a/b/../c" -> "a/c" for includes written with ..
function norm(p,    n, i, k, part, out) {
	n = split(p, part, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "..") { if (k) k--; continue }
		if (part[i] == "." || part[i] == "") continue
		out[++k] = part[i]
	}
	p = out[1]
	for (i = 2; i <= k; i++) p = p "/" out[i]
	return p
}
$1 == "F" { exists[$2] = 1; next }
$1 == "S" {
	dir = dirname($2)
	if (layer(dir) == "") {
		print "check-layers: " $2 ": folder \x27" dir "\x27 has no layer; add it to tests/check_layers.sh"
		bad = 1
	}
	next
}
$1 == "I" {
	f = $2; inc = $3; dir = dirname(f); own = layer(dir)
	if (own == "") next
	n++
	if (norm(dir "/" inc) in exists) tdir = dirname(norm(dir "/" inc))
	else if (norm("bench/" inc) in exists) tdir = dirname(norm("bench/" inc))
	else if (dir ~ /^(report|cmd)/ && norm("report/" inc) in exists) tdir = dirname(norm("report/" inc))
	else if (norm("cmd/" inc) in exists) tdir = dirname(norm("cmd/" inc))
	else {
		print "check-layers: " f ": include \"" inc "\" not found under " dir "/, bench/, report/ or cmd/"
		bad = 1; next
	}
	if (tdir == dir) next
	tl = layer(tdir)
	if (tl == "" || tl + 0 >= own + 0) {
		print "check-layers: " f " (layer " own ") includes " inc " from " tdir " (layer " (tl == "" ? "?" : tl) "): includes must point down"
		bad = 1
	}
}
END {
	if (!bad) print "check-layers: " n " includes, all point down"
	exit bad
}'
