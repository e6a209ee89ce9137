#!/bin/sh
# Device names from a result set are hostile (HTML, Markdown, gnuplot
# backquotes and system()): every format escapes them and gnuplot runs
# nothing.  Uses a synthetic set (tests/report/gen_synthetic.py).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3

S="$T/set"
# shellcheck disable=SC2016
names=$(T="$T" python3 -c '
import json, os
t = os.environ["T"]
print(json.dumps(["<script>alert(1)</script>", "`touch %s/pwned1`" % t, "a|b",
                  "new\nline", "\"; system(\"touch %s/pwned2\"); \"" % t,
                  "x@y`touch %s/pwned3`'"'"'q" % t]))')
python3 "$ROOT/tests/report/gen_synthetic.py" "$S" --devices a:hdd,b:ssd --cells 3 \
	--repeat 2 --names-json "$names" || fail "generator failed"

charts=svg,png
command -v gnuplot >/dev/null 2>&1 || charts=none
expect_exit 0 "$IOMATRIX" report "$S" --charts "$charts"
R="$S/report"

ls "$T"/pwned* >/dev/null 2>&1 && not_ok "a command from a device name ran" || ok "nothing executed"

# even a renderer that passes raw HTML through must not produce a <script>
if command -v cmark-gfm >/dev/null 2>&1; then
	cmark-gfm --unsafe -e table "$R/report.md" | grep -qi '<script' \
		&& not_ok "rendered md holds <script" || ok "rendered md has no <script"
fi
grep -q '\\<script\\>alert(1)\\</script\\>' "$R/report.md" && ok "md shows the name escaped" \
	|| not_ok "md escaped name missing"
grep -q 'a\\|b' "$R/report.md" && ok "md escapes |" || not_ok "md | not escaped"

grep -qi '<script' "$R/report.html" && not_ok "html holds <script" || ok "html has no <script"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$R/report.html" && ok "html escapes the name" \
	|| not_ok "html escaped name missing"

# CSV: the name with quotes is one quoted field with doubled quotes
grep -q '"""; system(""touch' "$R/report.csv" && ok "csv quotes and doubles" || not_ok "csv quoting"
# a newline in a name stays inside a quoted field: every record parses to the same width
if python3 - "$R/report.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
w = {len(r) for r in rows}
sys.exit(0 if len(w) == 1 and len(rows) > 1 else 1)
PY
then ok "csv parses with one width"; else not_ok "csv records of different widths"; fi

if [ "$charts" != none ]; then
	# scripts hold none of the names; data files hold them quoted, no raw "
	if grep -l -e 'touch' -e 'system' -e 'script' "$R"/charts/*.gp >/dev/null 2>&1; then
		not_ok "a device name reached a gnuplot script"
	else ok "gnuplot scripts hold no names"; fi
	grep -q 'touch' "$R"/charts/iops-per-workload.dat && ok "names are in the data files" \
		|| not_ok "names missing from data"
	for f in "$R"/charts/*.svg; do
		xmllint --noout "$f" 2>/dev/null || { not_ok "invalid svg $f"; break; }
	done
	ok "every svg is valid XML"
	grep -c '<svg' "$R/report.html" | grep -qv '^0$' && ok "html inlines svg" || not_ok "no inline svg"
else
	echo "# gnuplot missing: chart checks skipped"
fi
ls "$T"/pwned* >/dev/null 2>&1 && not_ok "a command ran (after charts)" || ok "still nothing executed"
tap_end
