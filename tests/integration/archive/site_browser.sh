#!/bin/sh
# The site in a real browser: headless Chromium driven through puppeteer-core
# (tests/browser/site.mjs) sorts every sortable column of the index both ways
# and checks the order, filters, and follows every link of every page; any
# console error, page error, failed request or request leaving the site
# fails.  Screenshots are kept in build/test-artefacts/site_browser/ (or
# $TEST_ARTEFACTS/site_browser/).  Skips without chromium, node or
# puppeteer-core (.ci/install-deps installs all three in CI).
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd node
CHROME=
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { CHROME=$(command -v "$c"); break; }
done
[ -n "$CHROME" ] || skip "chromium not installed"
[ -d "$ROOT/tests/browser/node_modules/puppeteer-core" ] ||
	skip "puppeteer-core not installed (cd tests/browser && npm install)"
shots=${TEST_ARTEFACTS:-$ROOT/build/test-artefacts}/site_browser
rm -rf "$shots" && mkdir -p "$shots" || fail "cannot make $shots"

GEN="$ROOT/tests/report/gen_archive.py"
python3 "$GEN" "$T/a" --sets 4 --cells 3 --hosts web1,web2 --step-at 3 --seed 2 >/dev/null || fail "generator failed"
python3 "$GEN" "$T/a" --sets 2 --first 5 --cells 11 --seed 3 --suite other --scale-at 2:0.1 >/dev/null ||
	fail "generator failed"
first=$(ls "$T/a" | head -n 1)
expect_exit 0 "$IOMATRIX" report "$T/a/$first" --format html,csv --charts svg
expect_exit 0 "$IOMATRIX" site "$T/a" -o "$T/site"
CHROME=$CHROME timeout 240 node "$ROOT/tests/browser/site.mjs" "$T/site" "$shots"
rc=$?
n=$(ls "$shots" | wc -l)
[ "$n" -ge 4 ] && echo "# $n screenshots in $shots" || { echo "not ok - only $n screenshots"; exit 1; }
exit $rc
