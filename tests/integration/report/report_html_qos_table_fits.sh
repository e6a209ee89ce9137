#!/bin/sh
# The HTML's QoS table fits a 1,200 px window (its last
# column, the knee and overload notes, was scrolled out of view): headless
# Chromium lays the report out at 1,200 px and a script in a copy of the
# page lists every table wrapper whose content is wider than it; none may
# be.  At phone width (390 px) the wide tables scroll, as they should, so
# the check there must find some (else it could not find any).
. "$(dirname "$0")/../../lib.sh"
CHROME=
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { CHROME=$c; break; }
done
[ -n "$CHROME" ] || skip "chromium not installed"
cat >"$T/s.yaml" <<YAML
suite: qosfit
defaults: {engine: model, size: 16MiB, runtime: 100ms, iodepth: 16, bs: 4k, model_latency: 1ms,
           model_parallel: 4, load_sweep: {from: 20%, to: 120%, steps: 4}, qos: {p99: 5ms},
           pattern: randread}
devices: [{name: a, path: $T/a}]
include: [{label: q}]
YAML
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/r" --charts none --format html
grep -q '<h2>Latency under load: a' "$T/r/report.html" || fail "no QoS section"
sed 's#</body>#<script>var o=[];document.querySelectorAll(".tw").forEach(function(e,i){if(e.scrollWidth>e.clientWidth+1)o.push(i+":"+e.scrollWidth+">"+e.clientWidth+":"+e.textContent.trim().slice(0,24))});document.body.setAttribute("data-overflow",o.length?o.join(" / "):"none");</script></body>#' \
	"$T/r/report.html" >"$T/r/probe.html"
dom() { # WIDTH
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/prof" \
		--window-size="$1",1600 --dump-dom "file://$T/r/probe.html" 2>/dev/null |
		sed -n 's/.*data-overflow="\([^"]*\)".*/\1/p'
}
wide=$(dom 1200)
[ "$wide" = none ] && ok "1,200 px: every table fits" || not_ok "1,200 px: wider than the page: $wide"
phone=$(dom 390)
[ -n "$phone" ] && [ "$phone" != none ] && ok "390 px: the wide tables scroll (the check sees them)" \
	|| not_ok "390 px: '$phone'"
tap_end
