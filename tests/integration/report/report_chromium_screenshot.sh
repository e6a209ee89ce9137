#!/bin/sh
# The HTML report renders in a real browser (headless Chromium, no network):
# a screenshot is produced and is not blank.  Skips when Chromium is absent.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
CHROME=
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { CHROME=$c; break; }
done
[ -n "$CHROME" ] || skip "chromium not installed"
python3 "$ROOT/tests/report/gen_synthetic.py" "$T/set" --cells 4 --repeat 3 >/dev/null || fail "generator failed"
charts=svg
command -v gnuplot >/dev/null 2>&1 || charts=none
expect_exit 0 "$IOMATRIX" report "$T/set" --charts "$charts" --format html

timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/prof" \
	--screenshot="$T/shot.png" --window-size=900,2000 "file://$T/set/report/report.html" \
	>"$T/chrome.log" 2>&1
[ -s "$T/shot.png" ] || { tail -n 5 "$T/chrome.log"; fail "no screenshot"; }
# a blank page compresses to a few KiB; a rendered report with tables and
# charts is far larger
size=$(wc -c <"$T/shot.png")
[ "$size" -gt 30000 ] && ok "screenshot rendered ($size bytes)" || not_ok "screenshot looks blank ($size bytes)"
# a phone-width render works too
timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/prof" \
	--screenshot="$T/phone.png" --window-size=390,1600 "file://$T/set/report/report.html" \
	>"$T/chrome.log" 2>&1
[ -s "$T/phone.png" ] && ok "phone-width screenshot" || not_ok "phone screenshot"
# kept as test artefacts (CI uploads build/test-artefacts/)
shots=${TEST_ARTEFACTS:-$ROOT/build/test-artefacts}/report_chromium_screenshot
mkdir -p "$shots" && cp "$T/shot.png" "$T/phone.png" "$shots/"
tap_end
