#!/bin/sh
# A two-device synthetic set: every Markdown table renders as <table> under
# cmark-gfm with the expected rows, the HTML parses and references nothing
# external, every SVG is valid XML, the CSV has one row per cell x device x
# direction, report.json parses, and the ratio/summary wording is there.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3

S="$T/set"
python3 "$ROOT/tests/report/gen_synthetic.py" "$S" --devices hdd:hdd,ssd:ssd \
	--cells 6 --repeat 3 || fail "generator failed"
charts=svg,png
command -v gnuplot >/dev/null 2>&1 || charts=none
expect_exit 0 "$IOMATRIX" report "$S" --charts "$charts" --baseline hdd
R="$S/report"
for f in report.md report.html report.csv report.json fio-commands.txt; do
	[ -s "$R/$f" ] && ok "$f written" || not_ok "$f missing"
done

# 6 workloads + ratios + common params + 2 environment + data files = 11
if command -v cmark-gfm >/dev/null 2>&1; then
	cmark-gfm -e table "$R/report.md" >"$T/md.html"
	n=$(grep -c '<table>' "$T/md.html")
	[ "$n" = 11 ] && ok "11 markdown tables render" || not_ok "markdown tables: $n, want 11"
	# first results table: header + one row per device
	rows=$(awk '/<table>/{t++} t==1' "$T/md.html" | grep -c '<tr>')
	[ "$rows" = 3 ] && ok "results table has header + 2 rows" || not_ok "results rows: $rows"
	# every | row of the md is inside a rendered table (no table fell apart)
	pipes=$(grep -c '^|' "$R/report.md")
	trs=$(grep -c '<tr>' "$T/md.html")
	seps=$(grep -c '^|:\?-' "$R/report.md")
	[ $((pipes - seps)) = "$trs" ] && ok "every markdown table row renders" \
		|| not_ok "rows: $((pipes - seps)) lines vs $trs <tr>"
else
	echo "# cmark-gfm missing: markdown rendering not checked"
fi

grep -q "largest gap in favour of ssd: on 4K random reads at QD32, ssd did [0-9.,]*x the IOPS of hdd" "$R/report.md" \
	&& ok "summary sentence" || not_ok "summary sentence missing"
grep -q '^## Ratios against hdd' "$R/report.md" && ok "ratio section against --baseline" \
	|| not_ok "ratio heading"
grep -q 'x faster |' "$R/report.md" && ok "latency ratio says x faster" || not_ok "x faster"
grep -q ' ± [0-9.]* % |' "$R/report.md" && ok "CI shown for repeated cells" || not_ok "no CI"
grep -q '| hdd | [0-9]' "$R/report.md" && ok "device rows" || not_ok "device rows"
grep -q 'SYNTHETIC' "$R/report.md" && ok "synthetic source warned" || not_ok "synthetic warning"

if command -v xmllint >/dev/null 2>&1; then
	# libxml2's HTML parser is HTML4: it flags HTML5/SVG element names only
	xmllint --html --noout "$R/report.html" 2>&1 | grep -E 'error' \
		| grep -v -E 'Tag [A-Za-z]+ invalid' >"$T/xl"
	[ -s "$T/xl" ] && not_ok "html errors: $(head -3 "$T/xl")" || ok "html parses"
	if [ "$charts" != none ]; then
		bad=0
		for f in "$R"/charts/*.svg; do xmllint --noout "$f" 2>/dev/null || bad=1; done
		[ $bad = 0 ] && ok "every svg is valid XML" || not_ok "invalid svg"
	fi
fi
# self-contained: no script, no remote src/href, no @import
grep -qi '<script' "$R/report.html" && not_ok "html has script" || ok "html has no script"
grep -Eio '(src|href)=["'"'"']?(https?:|//)' "$R/report.html" >"$T/ext"
grep -qi '@import\|url(http' "$R/report.html" && echo x >>"$T/ext"
[ -s "$T/ext" ] && not_ok "external references: $(cat "$T/ext")" || ok "no external references"
if [ "$charts" != none ]; then
	[ "$(grep -c '<svg' "$R/report.html")" -ge 2 ] && ok "svg inlined" || not_ok "svg not inlined"
	grep -q '](charts/iops-per-workload-qd1.png)' "$R/report.md" && [ -s "$R/charts/iops-per-workload-qd1.png" ] \
		&& ok "markdown links png by relative path" || not_ok "png link"
	[ -s "$R/charts/iops-per-workload-qd1.gp" ] && [ -s "$R/charts/iops-per-workload-qd1.dat" ] \
		&& ok ".gp and .dat kept" || not_ok ".gp/.dat missing"
fi

# CSV: header + 6 cells x 2 devices, one of them randrw (2 directions) -> 12 + 2
python3 - "$R/report.csv" "$R/report.json" <<'PY' && ok "csv rows and json" || not_ok "csv/json"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
hdr, body = rows[0], rows[1:]
assert "iops_mean" in hdr and "bs_bytes" in hdr and "direction" in hdr, hdr
assert len(body) == 14, len(body)
j = json.load(open(sys.argv[2]))
assert j["kind"] == "iomatrix-report" and len(j["groups"]) == 6
PY
tap_end
