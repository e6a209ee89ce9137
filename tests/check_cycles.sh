#!/bin/sh
# check_cycles.sh - no cycle between files, of references (calls and data)
# or of includes, of any size, in one folder or across folders (DESIGN.md);
# and references, like includes, point down the layers of check_layers.sh
# (a declaration in a lower room's header can hide an upward reference from
# the include check).  No file is exempt: two files that need each other are one
# concern in two files, or a third file below both is missing (the pattern
# names under the cell and the key table; the fleet's transport under its
# state machine).
#
#   references: object files of BUILD (default build/default): file A
#             refers to file B when A's object uses (nm: U) a symbol that
#             B's object defines, a function (T) or data (D, B, R): a
#             table is a reference like a call, so a lower room that
#             iterates a table a higher one fills (report_sections[]) is
#             a cycle.  A lower room gets such a table as an argument
#             (report_load's sections) instead.
#   includes: every cmd/, bench/ and report/ .c and .h file, each a node.
#
# Exit 1 with one line per offending cycle (its files), 0 when none, 77
# when BUILD holds no objects yet (build first: make iomatrix).
# Arguments: [TREE [BUILD]]; BUILD is relative to TREE unless absolute.
here=$(cd "$(dirname "$0")" && pwd)
# the layer table, from the one place that ranks the folders
eval "$(sed -n '/^layer() {/,/^}/p' "$here/check_layers.sh")"
cd "${1:-$here/..}" || exit 2
B=${2:-build/default}
command -v nm >/dev/null 2>&1 || { echo "check-cycles: nm not installed (binutils)"; exit 77; }
objs=$(find "$B/cmd" "$B/bench" "$B/report" -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || { echo "check-cycles: no objects under $B (build first)"; exit 77; }
tmp=$(mktemp -d /tmp/check-cycles.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# edges "FROM TO" between files: one nm over every object (-A names the
# object on each line), one awk over every source for the includes; a
# process per object or per file made this check take seconds
# shellcheck disable=SC2086
nm -A $objs 2>/dev/null | awk -v B="$B/" '
	{ split($1, a, ":"); o = a[1]; if (index(o, B) == 1) o = substr(o, length(B) + 1)
	  sub(/\.o$/, ".c", o) }
	NF == 3 && $2 ~ /^[TDBR]$/ { print "D", $3, o } # code, data, bss, rodata
	NF == 3 && $2 == "U" { print "U", $3, o }' | while read -r k sym f; do
	[ -f "$f" ] && echo "$k $sym $f" # not the object of a moved or deleted source
done > "$tmp/syms"
awk '$1 == "D" { def[$2] = $3; next }
     { use[NR] = $3 " " $2 }
     END { for (i in use) { split(use[i], p, " "); if (p[2] in def && def[p[2]] != p[1]) print p[1], def[p[2]] } }' \
	"$tmp/syms" | sort -u > "$tmp/calls"

ls cmd/*.[ch] cmd/*/*.[ch] bench/*.[ch] bench/*/*.[ch] report/*.[ch] report/*/*.[ch] 2>/dev/null > "$tmp/files"
# shellcheck disable=SC2046
awk 'NR == FNR { have[$0]; next }
	FNR == 1 { dir = FILENAME; sub(/\/[^\/]*$/, "", dir) }
	/^[ \t]*#[ \t]*include[ \t]*"/ {
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
		n = split(dir "/" inc " bench/" inc " report/" inc " cmd/" inc, t, " ")
		for (i = 1; i <= n; i++) if (t[i] in have) { print FILENAME, t[i]; break }
	}' "$tmp/files" $(cat "$tmp/files") | sort -u > "$tmp/incs"

# Strongly connected components (Tarjan), one line per cycle: its files.
scc() {
	awk '
	function visit(v,   i, w) {
		idx[v] = low[v] = n++; stack[++sp] = v; on[v] = 1
		for (i = 1; i <= deg[v]; i++) {
			w = adj[v, i]
			if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
			else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
		}
		if (low[v] == idx[v]) {
			line = ""; k = 0
			do { w = stack[sp--]; on[w] = 0; line = line (k++ ? " " : "") w } while (w != v)
			if (k > 1) print line
		}
	}
	{ adj[$1, ++deg[$1]] = $2; node[$1]; node[$2] }
	END { n = 0; sp = 0; for (v in node) if (!(v in idx)) visit(v) }' "$1"
}

bad=0
report() { # kind file-of-cycles: every cycle fails
	while read -r line; do
		nf=$(echo "$line" | wc -w)
		nd=$(for f in $line; do dirname "$f"; done | sort -u | wc -l)
		echo "check-cycles: $1 cycle of $nf files in $nd folder(s): $line"
		bad=1
	done < "$2"
}
# the layer of each folder that a call leaves or enters, then one awk
awk '{ f = $1; t = $2; sub(/\/[^\/]*$/, "", f); sub(/\/[^\/]*$/, "", t); print f; print t }' \
	"$tmp/calls" | sort -u | while read -r d; do echo "$d $(layer "$d")"; done > "$tmp/layers"
awk 'NR == FNR { if (NF == 2) lay[$1] = $2; next }
	{ f = $1; t = $2; sub(/\/[^\/]*$/, "", f); sub(/\/[^\/]*$/, "", t)
	  if (f != t && (f in lay) && (t in lay) && lay[t] + 0 >= lay[f] + 0)
		printf "check-cycles: %s (layer %s) refers to %s (layer %s): references must point down\n", $1, lay[f], $2, lay[t] }' \
	"$tmp/layers" "$tmp/calls" > "$tmp/upward"
[ -s "$tmp/upward" ] && { cat "$tmp/upward"; bad=1; }
scc "$tmp/calls" > "$tmp/call-cycles"
scc "$tmp/incs" > "$tmp/inc-cycles"
report reference "$tmp/call-cycles"
report include "$tmp/inc-cycles"
[ "$bad" = 0 ] && echo "check-cycles: $(wc -l < "$tmp/calls") references (calls and data) between files," \
	"$(wc -l < "$tmp/incs") includes, references point down, no cycle"
exit $bad
