#!/bin/sh
# iomatrix site on a generated archive: two hosts, a device whose name and a
# suite whose name are hostile HTML, a set with its own report (copied,
# linked back) and sets without (made): every page exists, a link check finds
# no broken internal link and no external one, and the hostile names are
# text on every page that shows them.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
GEN="$ROOT/tests/report/gen_archive.py"
EVIL_DEV='<script>alert("dev")</script>&amp;'
EVIL_SUITE="x'><img src=x onerror=alert(1)>"
python3 "$GEN" "$T/a" --sets 8 --cells 3 --hosts web1,web2 --step-at 6 --seed 2 || fail "generator failed"
python3 "$GEN" "$T/a" --sets 2 --first 9 --cells 2 --seed 3 --suite "$EVIL_SUITE" \
	--names-json "[\"$(printf '%s' "$EVIL_DEV" | sed 's/"/\\"/g')\"]" || fail "generator failed"
# one set has its own report (so the site draws its charts too); another
# carries a planted report.html with an external script, which must not
# reach the site
first=$(ls "$T/a" | head -n 1)
expect_exit 0 "$IOMATRIX" report "$T/a/$first" --format html,csv --charts svg
planted=$(ls "$T/a" | sed -n 2p)
mkdir -p "$T/a/$planted/report"
echo '<html><body><script src="http://evil.example/x.js"></script></body></html>' \
	>"$T/a/$planted/report/report.html"

expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site"
grep -q "18 sets" "$T/out" && ok "18 sets read" || not_ok "summary: $(cat "$T/out")"
[ -f "$T/site/index.html" ] && ok "index.html" || not_ok "no index"
ndev=$(ls "$T/site/devices/"*.html | wc -l)
[ "$ndev" = 3 ] && ok "3 device pages (web1, web2, the hostile one)" || not_ok "$ndev device pages"
nsuite=$(ls "$T/site/suites/"*.html | wc -l)
[ "$nsuite" = 2 ] && ok "2 suite pages" || not_ok "$nsuite suite pages"
nrep=$(ls "$T/site/sets/"*/report.html | wc -l)
[ "$nrep" = 18 ] && ok "a report page per set" || not_ok "$nrep report pages"
made="$T/site/sets/$first"
[ -f "$made/report.csv" ] && grep -q 'href="../../index.html"' "$made/report.html" &&
	ok "a set's report is made with its CSV and links back" || not_ok "report page"
if command -v gnuplot >/dev/null 2>&1; then
	grep -q '<svg' "$made/report.html" && ok "a set with a report of its own gets charts" ||
		not_ok "no charts in $first's report"
fi
grep -rq 'evil.example' "$T/site" && not_ok "a planted report reached the site" ||
	ok "a planted report.html does not reach the site"
n=$(grep -l 'href="../../index.html"' "$T/site/sets/"*/report.html | wc -l)
[ "$n" = 18 ] && ok "every report links back to the index" || not_ok "$n reports link back"

python3 "$ROOT/tests/report/check_site.py" "$T/site" >"$T/links" 2>&1 &&
	ok "link check: $(tail -n 1 "$T/links")" || { cat "$T/links"; not_ok "link check"; }

# hostile names: never raw, always there as escaped text
raw=$(grep -rlF -e '<script>alert' -e '<img src=x' "$T/site" --include='*.html' | wc -l)
[ "$raw" = 0 ] && ok "no hostile name raw in any page" || not_ok "$raw pages carry a hostile name raw"
esc_dev='&lt;script&gt;alert(&quot;dev&quot;)&lt;/script&gt;&amp;amp;'
esc_suite='x&#39;&gt;&lt;img src=x onerror=alert(1)&gt;'
grep -qF "$esc_dev" "$T/site/index.html" && grep -qF "$esc_suite" "$T/site/index.html" &&
	ok "index shows both as text" || not_ok "index escaping"
dpage=$(grep -lF "$esc_dev" "$T/site/devices/"*.html | head -n 1)
[ -n "$dpage" ] && ok "device page shows the device name as text" || not_ok "device page escaping"
spage=$(grep -lF "$esc_suite" "$T/site/suites/"*.html | head -n 1)
[ -n "$spage" ] && grep -qF "$esc_dev" "$spage" && ok "suite page shows both as text" || not_ok "suite page escaping"
case "$(ls "$T/site/devices" "$T/site/suites")" in
*'<'*|*'>'*|*"'"*|*'"'*) not_ok "a file name carries a hostile character" ;;
*) ok "file names are slugs" ;;
esac

# the suite page ranks both hosts on the workloads they share
sp=$(grep -l ">nightly<" "$T/site/suites/"*.html | head -n 1)
grep -q "Geometric mean vs" "$sp" && [ "$(grep -c 'devices/web[12]-ssd' "$sp")" -ge 2 ] &&
	ok "suite page ranks web1 and web2" || not_ok "suite ranking"
# the device page names the change and the environment change
web1=$(ls "$T/site/devices/"web1-ssd-*.html)
grep -q "kernel 6.1.0-synthetic → 6.6.0-synthetic" "$web1" && ok "device page names the kernel change" ||
	not_ok "no kernel change on the device page"
if command -v gnuplot >/dev/null 2>&1; then
	nsvg=$(ls "${web1%.html}"/*.svg | wc -l)
	[ "$nsvg" = 3 ] && grep -q "<img src=\"web1-ssd-[0-9a-f]*/w1.svg\"" "$web1" &&
		ok "a trend chart per workload" || not_ok "$nsvg charts"
fi
expect_exit 2 "$IOMATRIX" site "$T/a"
grep -q -- "-o SITE" "$T/err" && ok "no -o: exit 2 with the fix" || not_ok "no -o message"
tap_end
