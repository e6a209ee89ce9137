#!/bin/sh
# check_json_reads.sh - JSON is parsed once at the edge and written once at
# the edge: report code between them works on typed structs (the set
# reader's, bench/resultset/rset.h, and report/model/), never on a cJSON
# tree it built itself or was handed.  A file under report/ outside
# render/ (the writers: template contexts, report.json, CSV) and outside
# the edges listed below may not read cJSON: no cJSON_Get*, cJSON_Is*,
# cJSON_Parse*, cJSON_ArrayForEach, cJSON_Compare, nor a node's
# valuestring, valuedouble, valueint or child.  Writing (cJSON_Create*,
# cJSON_Add*, cJSON_Print) is the writers' edge and is not checked.
#
# An edge that reads no cJSON any more is a stale exemption: it fails too.
# Exit 1 with one line per read (file:line and the line), 0 when none.
# Arguments: [TREE].
cd "${1:-$(dirname "$0")/..}" || exit 2
# The edges: files under report/ that parse bytes read from disk, one
# line each 'FILE<TAB>why'.  None today: every reader of bytes from disk
# lives in bench/resultset/ (the site's manifest too).  A new entry is a
# new edge, and needs the same kind of why.
edges='
'
pat='cJSON_(Get|Is|Parse)[A-Za-z]*[[:space:]]*\(|cJSON_ArrayForEach|cJSON_Compare[[:space:]]*\(|->[[:space:]]*(valuestring|valuedouble|valueint|child)([^A-Za-z0-9_]|$)'
# a comment may name them: lines that open or continue one
code='^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)'
stale=$(printf '%s\n' "$edges" | cut -f1 | while read -r f; do
	[ -n "$f" ] || continue
	[ -f "$f" ] && grep -nHE "$pat" "$f" | grep -qvE "$code" ||
		echo "check-json-reads: $f is listed as an edge but reads no cJSON: remove it from the list"
done)
hits=$(find report -name node_modules -prune -o -name '*.[ch]' -print 2>/dev/null | sort |
	grep -v '^report/render/' |
	while read -r f; do
		printf '%s\n' "$edges" | cut -f1 | grep -qxF "$f" || echo "$f"
	done | xargs -r grep -nHE "$pat" | grep -vE "$code")
[ -z "$stale" ] || echo "$stale"
if [ -n "$hits" ]; then
	echo "$hits" | sed 's/^/check-json-reads: /'
	echo "check-json-reads: report code reads a cJSON tree; give what it carries a typed struct" \
		"(report/model/, or the owner's header) and let a writer make the JSON from it," \
		"or list a true edge in tests/check_json_reads.sh with its why"
	exit 1
fi
[ -z "$stale" ] || exit 1
echo "check-json-reads: no report code outside render/ and the edges reads cJSON"
