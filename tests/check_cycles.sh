#!/bin/sh
# check_cycles.sh - no cycle of any size, in one folder or across folders,
# and references point down the layers of check_layers.sh (a declaration
# in a lower room's header can hide an upward reference from the include
# check).  Two rooms that need each other are one concern in two rooms, or
# a third room below both is missing (the pattern names under the cell and
# the key table; the fleet's transport under its state machine).
#
# One graph, as a drawing of the tree has it.  A node is a room: a .c file
# with the header of its name (X.c including Y.h while Y.c includes X.h is
# a cycle).  An edge is either kind of use, so a loop of one include and
# one call is a cycle like any other:
#   references: object files of BUILD (default build/default): file A
#             refers to file B when A's object uses (nm: U) a symbol that
#             B's object defines, a function (T) or data (D, B, R): a
#             table is a reference like a call, so a lower room that
#             iterates a table a higher one fills (report_sections[]) is
#             a cycle.  A lower room gets such a table as an argument
#             (report_load's sections) instead.
#   includes: every cmd/, bench/ and report/ .c and .h file.
# Every .c file needs its object (cmd/mpi's are made with mpicc like the
# rest): a file that was never compiled has references nobody read.
#
# Exit 1 with the offending cycles (a line with the kind and the rooms,
# then one loop through them, an edge a line), 0 when none, 77 when BUILD
# holds no objects yet (build first: make iomatrix).
# Arguments: [TREE [BUILD [FOLDER...]]]; BUILD is relative to TREE unless
# absolute; each FOLDER is one this build leaves out (cmd/mpi without
# mpicc): its files' references are not read, and the pass says so.
# No list exempts a room: a header that its folder's lower files include
# while the .c of its name calls them is a loop like any other (the
# shared types go to a header of their own, or that .c is named for what
# it does).
here=$(cd "$(dirname "$0")" && pwd)
# the layer table, from the one place that ranks the folders
eval "$(sed -n '/^layer() {/,/^}/p' "$here/check_layers.sh")"
cd "${1:-$here/..}" || exit 2
B=${2:-build/default}
if [ $# -gt 2 ]; then shift 2; else set --; fi
unbuilt=" $* "
command -v nm >/dev/null 2>&1 || { echo "check-cycles: nm not installed (binutils)"; exit 77; }
objs=$(find "$B/cmd" "$B/bench" "$B/report" -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || { echo "check-cycles: no objects under $B (build first)"; exit 77; }
tmp=$(mktemp -d /tmp/check-cycles.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
bad=0

# every source has its object, or sits in a folder the build leaves out
for f in $(find cmd bench report -name '*.c' 2>/dev/null | sort); do
	[ -f "$B/${f%.c}.o" ] && continue
	case "$unbuilt" in *" $(dirname "$f") "*) continue ;; esac
	echo "check-cycles: $f has no object under $B: its references are unread (build it: make iomatrix)"
	bad=1
done

# edges between files: one nm over every object (-A names the object on
# each line), one awk over every source for the includes; a process per
# object or per file made this check take seconds
# shellcheck disable=SC2086
nm -A $objs 2>/dev/null | awk -v B="$B/" '
	{ split($1, a, ":"); o = a[1]; if (index(o, B) == 1) o = substr(o, length(B) + 1)
	  sub(/\.o$/, ".c", o) }
	NF == 3 && $2 ~ /^[TDBR]$/ { print "D", $3, o } # code, data, bss, rodata
	NF == 3 && $2 == "U" { print "U", $3, o }' | while read -r k sym f; do
	[ -f "$f" ] && echo "$k $sym $f" # not the object of a moved or deleted source
done > "$tmp/syms"
# "FROM TO SYMBOL", one line per pair of files; a symbol two objects
# define (main: iomatrix and iomatrix-mpi) is a reference to each
awk '$1 == "D" { def[$2] = def[$2] " " $3; next }
     { use[NR] = $3 " " $2 }
     END { for (i in use) { split(use[i], p, " "); if (!(p[2] in def)) continue
		n = split(def[p[2]], d, " ")
		for (j = 1; j <= n; j++) if (d[j] != p[1]) print p[1], d[j], p[2] } }' \
	"$tmp/syms" | sort -u -k1,2 > "$tmp/calls"

ls cmd/*.[ch] cmd/*/*.[ch] bench/*.[ch] bench/*/*.[ch] report/*.[ch] report/*/*.[ch] 2>/dev/null > "$tmp/files"
# shellcheck disable=SC2046
awk 'NR == FNR { have[$0]; next }
	FNR == 1 { dir = FILENAME; sub(/\/[^\/]*$/, "", dir) }
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
		n = split(dir "/" inc " bench/" inc " report/" inc " cmd/" inc, t, " ")
		for (i = 1; i <= n; i++) if (t[i] in have) { print FILENAME, t[i]; break }
	}' "$tmp/files" $(cat "$tmp/files") | sort -u > "$tmp/incs"

# the layer of each folder that a call leaves or enters, then one awk
awk '{ f = $1; t = $2; sub(/\/[^\/]*$/, "", f); sub(/\/[^\/]*$/, "", t); print f; print t }' \
	"$tmp/calls" | sort -u | while read -r d; do echo "$d $(layer "$d")"; done > "$tmp/layers"
awk 'NR == FNR { if (NF == 2) lay[$1] = $2; next }
	{ f = $1; t = $2; sub(/\/[^\/]*$/, "", f); sub(/\/[^\/]*$/, "", t)
	  if (f != t && (f in lay) && (t in lay) && lay[t] + 0 >= lay[f] + 0)
		printf "check-cycles: %s (layer %s) refers to %s (layer %s): references must point down\n", $1, lay[f], $2, lay[t] }' \
	"$tmp/layers" "$tmp/calls" > "$tmp/upward"
[ -s "$tmp/upward" ] && { cat "$tmp/upward"; bad=1; }

# The graph of rooms: "FROM-FILE TO-FILE KIND WHAT" (KIND calls or
# includes).  Strongly connected components (Tarjan); each of more than
# one room is printed with the kinds of its edges, and one loop through it
# found breadth-first from its first room.
{
	awk '{ print $1, $2, "calls", $3 }' "$tmp/calls"
	awk '{ w = $2; sub(/.*\//, "", w); print $1, $2, "includes", w }' "$tmp/incs"
} > "$tmp/edges"
awk -v files="$tmp/files" '
BEGIN { while ((getline f < files) > 0) have[f] }
# a room: the file without .c/.h
function room(p,   s) { s = p; sub(/\.[ch]$/, "", s); return s }
function visit(v,   i, w, k) {
	idx[v] = low[v] = n++; stack[++sp] = v; on[v] = 1
	for (i = 1; i <= deg[v]; i++) {
		w = adj[v, i]
		if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
		else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
	}
	if (low[v] == idx[v]) {
		ncomp++; k = 0
		do { w = stack[sp--]; on[w] = 0; comp[w] = ncomp; mem[ncomp, ++k] = w } while (w != v)
		size[ncomp] = k
	}
}
# the graph of the rooms as room() names them, then its components
function build(   e, f, t) {
	n = sp = ncomp = 0
	for (e = 1; e <= ne; e++) {
		f = room(E1[e]); t = room(E2[e])
		if (f == t) continue
		if (!((f, t) in what)) {
			adj[f, ++deg[f]] = t
			what[f, t] = E1[e] " " E3[e] " " E4[e] (E3[e] == "calls" ? " of " E2[e] : "")
		}
		kind[f, t, E3[e]] = 1; nodes[f]; nodes[t]
	}
	for (v in nodes) if (!(v in idx)) visit(v)
}
# the name of a room: X.[ch] for a .c with its header
function shown(v) { return (v in have) ? v : (v ".c" in have) && (v ".h" in have) ? v ".[ch]" : (v ".c" in have) ? v ".c" : v ".h" }
# the shortest loop from s back to s inside its component, an edge a line
function loop(s,   q, head, tail, v, i, w, path, parent, seen) {
	head = tail = 1; q[1] = s; seen[s] = 1
	while (head <= tail) {
		v = q[head++]
		for (i = 1; i <= deg[v]; i++) {
			w = adj[v, i]
			if (comp[w] != comp[s]) continue
			if (w == s) {
				path = "\t" what[v, w]
				while (v != s) { path = "\t" what[parent[v], v] "\n" path; v = parent[v] }
				return path
			}
			if (!(w in seen)) { seen[w] = 1; parent[w] = v; q[++tail] = w }
		}
	}
	return ""
}
{ ne++; E1[ne] = $1; E2[ne] = $2; E3[ne] = $3; E4[ne] = $4 }
END {
	build()
	for (c = 1; c <= ncomp; c++) {
		if (size[c] < 2) continue
		line = ""; inc = ref = 0; delete dirs; nd = 0
		for (k = size[c]; k >= 1; k--) {
			v = mem[c, k]; line = line " " shown(v)
			d = v; sub(/\/[^\/]*$/, "", d); if (!(d in dirs)) { dirs[d]; nd++ }
			for (i = 1; i <= deg[v]; i++) {
				w = adj[v, i]
				if (comp[w] != c) continue
				if ((v, w, "includes") in kind) inc = 1
				if ((v, w, "calls") in kind) ref = 1
			}
		}
		k = inc && ref ? "include and reference" : inc ? "include" : "reference"
		printf "check-cycles: %s cycle of %d rooms in %d folder(s):%s\n%s\n", k, size[c], nd, line, loop(mem[c, size[c]])
		bad = 1
	}
	exit bad
}' "$tmp/edges" || bad=1

if [ "$bad" = 0 ]; then
	skipped=""
	for d in $unbuilt; do skipped="$skipped; $d not built, its references unread"; done
	echo "check-cycles: $(wc -l < "$tmp/calls") references (calls and data) and" \
		"$(wc -l < "$tmp/incs") includes between files, rooms of a .c and its .h," \
		"references point down, no cycle$skipped"
fi
exit $bad
