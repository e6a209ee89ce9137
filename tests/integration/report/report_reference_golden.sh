#!/bin/sh
# The report of a committed reference set (a real run, results/reference/)
# matches its golden Markdown and CSV (tests/report/golden/) byte for byte,
# with the date pinned by SOURCE_DATE_EPOCH.  After an intended change of
# the report, regenerate the golden files with the command printed on failure.
# Also on real data: every table renders, the HTML parses, the SVGs are XML.
. "$(dirname "$0")/../../lib.sh"
cd "$ROOT" || fail "no root"
SET=results/reference/2026-11-30T033909Z_ref-tmp-vs-shm_vm
[ -d "$SET" ] || fail "reference set $SET missing"
G=tests/report/golden

SOURCE_DATE_EPOCH=1795000000 expect_exit 0 "$IOMATRIX" report "$SET" -o "$T/g" \
	--charts none --format md,csv
for f in md csv; do
	if cmp -s "$T/g/report.$f" "$G/ref-tmp-vs-shm.$f"; then
		ok "report.$f matches the golden file"
	else
		not_ok "report.$f differs from $G/ref-tmp-vs-shm.$f"
		diff -u "$G/ref-tmp-vs-shm.$f" "$T/g/report.$f" | head -n 30 | sed 's/^/# /'
		echo "# regenerate: SOURCE_DATE_EPOCH=1795000000 iomatrix report $SET -o /tmp/g --charts none --format md,csv && cp /tmp/g/report.md $G/ref-tmp-vs-shm.md && cp /tmp/g/report.csv $G/ref-tmp-vs-shm.csv"
	fi
done

charts=svg,png
command -v gnuplot >/dev/null 2>&1 || charts=none
expect_exit 0 "$IOMATRIX" report "$SET" -o "$T/full" --charts "$charts"
if command -v cmark-gfm >/dev/null 2>&1; then
	trs=$(cmark-gfm -e table "$T/full/report.md" | grep -c '<tr>')
	pipes=$(grep -c '^|' "$T/full/report.md")
	seps=$(grep -c '^|:\?-' "$T/full/report.md")
	[ $((pipes - seps)) = "$trs" ] && ok "every table row renders ($trs rows)" \
		|| not_ok "rows: $((pipes - seps)) lines vs $trs <tr>"
fi
if command -v xmllint >/dev/null 2>&1; then
	xmllint --html --noout "$T/full/report.html" 2>&1 | grep -E 'error' \
		| grep -v -E 'Tag [A-Za-z]+ invalid' >"$T/xl"
	[ -s "$T/xl" ] && not_ok "html errors: $(head -3 "$T/xl")" || ok "html parses"
	bad=0
	# charts were asked for: there must be SVGs to check
	[ "$charts" = none ] || ls "$T"/full/charts/*.svg >/dev/null 2>&1 || bad=1
	for f in "$T"/full/charts/*.svg; do
		[ -e "$f" ] || continue
		xmllint --noout "$f" 2>/dev/null || bad=1
	done
	[ $bad = 0 ] && ok "svgs are valid XML" || not_ok "invalid svg"
fi
# the disk ran direct with libaio, the tmpfs buffered with psync: no
# workload matches, so no ratio may be drawn between them
grep -q 'No workload ran with the same parameters on two devices' "$T/full/report.md" \
	&& ok "unlike workloads are not compared" || not_ok "summary sentence"
grep -q '^## Ratios' "$T/full/report.md" && not_ok "ratio table between unlike workloads" \
	|| ok "no ratio table"
grep -q 'shm: .*page cache likely' "$T/full/report.md" && ok "buffered tmpfs reads warned" \
	|| not_ok "page cache warning"
tap_end
