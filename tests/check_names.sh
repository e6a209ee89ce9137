#!/bin/sh
# check_names.sh - a name says one thing in the whole tree: no static
# function, in cmd/, bench/, report/ or tests/, has the name of a function
# or data that an object of the build exports (a static helper is named
# for its file, as git's are).  A reader, grep
# and every drawing of the code then find one definition for a name (a
# static fleet_host_read in rset_manifest.c drew an arrow from the result
# set up to the fleet, whose fleet_host.c exports the name).
#
#   exported: nm over the objects of BUILD (T, D, B, R).
#   static:   every line at column 0 that starts "static" and names a
#             function (a definition or a prototype), and nm's local text
#             symbols (t; not gcc's clones, .isra.0, .part.0: those of
#             an exported function are local too).
#             The source is read because gcc -O2 inlines a static called
#             once, and nm never sees it: it did not list rset_manifest.c's
#             fleet_host_read.
#
# Exit 1 with one line per static namesake (file:line, the name, the file
# that exports it), 0 when none, 77 when BUILD holds no objects yet.
# Arguments: [TREE [BUILD]]; BUILD is relative to TREE unless absolute.
cd "${1:-$(dirname "$0")/..}" || exit 2
B=${2:-build/default}
command -v nm >/dev/null 2>&1 || { echo "check-names: nm not installed (binutils)"; exit 77; }
objs=$(find "$B/cmd" "$B/bench" "$B/report" -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || { echo "check-names: no objects under $B (build first)"; exit 77; }
{
	# shellcheck disable=SC2086
	nm -A $objs 2>/dev/null | awk -v B="$B/" '
		NF == 3 && $2 ~ /^[TDBRt]$/ {
			split($1, a, ":"); o = a[1]; if (index(o, B) == 1) o = substr(o, length(B) + 1)
			sub(/\.o$/, ".c", o)
			if ($2 != "t") print "E", $3, o
			else if ($3 !~ /\./) print "S", $3, o # not a clone (.part.0) of any
		}'
	find cmd bench report tests -name node_modules -prune -o -name '*.[ch]' -print | sort |
		xargs awk '
		/^static[ \t]/ {
			l = $0; sub(/=.*/, "", l)        # an initialiser: data
			if (l !~ /\(/) next
			sub(/\(.*/, "", l)
			if (l ~ /[ \t*]$/) next          # "static int (*fp)(...)": a pointer
			n = split(l, w, /[ \t*]+/)
			if (w[n] ~ /^[A-Za-z_][A-Za-z0-9_]*$/) print "S", w[n], FILENAME ":" FNR
		}'
} | awk '
	$1 == "E" { ex[$2] = $3; next }
	{ f = $3; sub(/:.*/, "", f)             # one line for nm and the source
	  if (!(($2, f) in at) || $3 ~ /:/) at[$2, f] = $3 }
	END {
		for (k in at) {
			split(k, p, SUBSEP)
			if (p[1] in ex)
				out[++n] = sprintf("check-names: %s: static %s has the name that %s exports: name it for its file",
					at[k], p[1], ex[p[1]])
		}
		for (i = 1; i <= n; i++) print out[i] | "sort"
		close("sort")
		if (!n) print "check-names: no static function has the name of an exported one"
		exit n > 0
	}'
