#!/bin/sh
# Latency over time against a device whose keys say what it must be:
# the model device (engine: model) writing 64 KiB at QD4,
# one server of 1 ms, a write buffer of 1,000 writes, then 16,000 KiB/s.
# Before the cliff 1,000 IOPS, each write waiting for the 3 ahead of it:
# 4 ms; after it 250 IOPS (16,000 KiB/s / 64 KiB) and by Little's law
# 4 / 250 s = 16 ms.  Each interval's p50 from series.hist holds that
# (+-15 %), and the cell's cliff object finds the break near 1 s.  A
# latency outside that where other work competed for the CPUs (host_load)
# is said, not judged: a job the machine wakes late for a stretch holds
# its writes longer than the device does (an interval's p50 read 6.2 ms
# at load 12 with CPU hogs beside it).  The
# report's cliff sentence gives each level's latency beside its MB/s, and
# says none for the same cell without series.hist; its HTML has the
# "Latency over time" section with both charts, and headless Chromium
# renders the heatmap (the screenshot holds thousands of pixels of the
# heatmap's palette, tests/report/png_palette.py: at the quarter scale
# below, a page without the heatmap has about 300 (the bar charts' edges),
# the heatmap's colour box alone about 1,700, and its cells of this run
# about 1,900 more).
# test-lock: quiet
# (it runs alone in the pool: the model device's figures are the real
# clock's, and other tests beside it on a 2-CPU machine wake its job late)
. "$(dirname "$0")/../../lib.sh"
. "$ROOT/tests/lib_ivhist.sh"
need_cmd python3
need_cmd jq
cat >"$T/s.yaml" <<EOS
suite: model-cliff-latency
defaults: {engine: model, size: 256MiB, runtime: 3s, interval: 250ms, pattern: write,
           bs: 64k, iodepth: 4, model_latency: 1ms, model_parallel: 1,
           model_write_buffer: 64000KiB, model_write_rate: 16000KiB}
devices:
  - {name: m, path: $T/m}
matrix: {iodepth: [4]}
EOS
expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/set" --quiet
c=$T/set/cells/0001.json
out=$(ivhist_check "$T/set" 2>&1) && ok "the intervals add up ($out)" || not_ok "$out"
ivhist_pct "$c" 1 write 50 >"$T/p50"
echo "# per-interval p50 (interval ns): $(tr '\n' ' ' <"$T/p50")"
python3 - "$T/p50" "$c" <<'EOP'
import json, sys
p = [int(l.split()[1]) for l in open(sys.argv[1])]
busy = json.load(open(sys.argv[2]))["repetitions"][0]["host_load"].get("competed")
def check(ok, what):
    if not ok and busy:
        print("ok - # SKIP %s: other work competed for the CPUs, and a job woken late for a"
              " stretch holds its writes longer than the device does" % what)
        return True
    print("%s - %s" % ("ok" if ok else "not ok", what))
    return ok
before, after = p[0:3], p[5:11]
r = check(all(3.4e6 <= x <= 4.6e6 for x in before),
          "intervals 0-2 (0-0.75 s, the buffer): p50 %s ms, 4 ms" % ", ".join("%.2f" % (x / 1e6) for x in before))
r &= check(len(after) == 6 and all(13.6e6 <= x <= 18.4e6 for x in after),
           "intervals 5-10 (1.25-2.75 s, the sustained rate): p50 %s ms, 16 ms" %
           ", ".join("%.2f" % (x / 1e6) for x in after))
sys.exit(0 if r else 1)
EOP
[ $? = 0 ] || tap_failed=1
b=$(jq '.repetitions[0].write.cliff | select(.found) | .break_ns / 1e9' "$c")
if awk -v b="$b" 'BEGIN { exit !(b != "" && b >= 0.75 && b <= 1.5) }'; then
	ok "the cliff at $b s (the buffer's 1,000 writes at 1,000 IOPS)"
elif [ "$(competed "$T/set")" -gt 0 ]; then
	ok "# SKIP the cliff's time: other work competed for the CPUs: $(jq -c '.repetitions[0].write.cliff | {found, why_not, break_ns}' "$c")"
else
	not_ok "cliff: $(jq -c '.repetitions[0].write.cliff' "$c" | head -c 300)"
fi

# the report: the cliff sentence with each level's latency
expect_exit 0 "$IOMATRIX" report "$T/set" -o "$T/rep" --charts svg --format md,html
line=$(grep "sustained 64K sequential writes" "$T/rep/report.md")
echo "# $line"
if echo "$line" | grep -Eq "MB/s \(latency p50 (3\.[4-9][0-9]*|4\.[0-5][0-9]*) ms, p99 [0-9.]+ .s\) for the first .* then [0-9.]+ MB/s \(latency p50 (1[4-8]\.?[0-9]*) ms, p99 [0-9.]+ ms\) sustained \(write cliff"; then
	ok "the cliff sentence: p50 4 ms before, 16 ms after, beside the MB/s"
elif [ "$(competed "$T/set")" -gt 0 ]; then
	ok "# SKIP the cliff sentence: other work competed for the CPUs: '$line'"
else
	not_ok "cliff sentence: $line"
fi
cp -r "$T/set" "$T/old"
jq 'del(.repetitions[].write.series.hist)' "$T/old/cells/0001.json" >"$T/x" && mv "$T/x" "$T/old/cells/0001.json"
expect_exit 0 "$IOMATRIX" report "$T/old" -o "$T/oldrep" --charts none --format md
grep -q "sustained (write cliff" "$T/oldrep/report.md" && ! grep -q "latency p50" "$T/oldrep/report.md" &&
	ok "without series.hist the cliff sentence says no latency" ||
	not_ok "old: $(grep 'write cliff' "$T/oldrep/report.md")"
html=$T/rep/report.html
grep -q '<h2>Latency over time: m, ' "$html" && grep -q 'id="lattime-1-1-heatmap"' "$html" &&
	[ "$(grep -c 'data:image/png;base64' "$html")" -ge 1 ] &&
	ok "the HTML has the section with its heatmap inline" || not_ok "no heatmap in the HTML"
CHROME=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { CHROME=$b; break; }
done
if [ -z "$CHROME" ]; then
	ok "# skip the browser: chromium not installed"
else
	# a quarter of the pixels (device scale): the palette count stays telling
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/prof" \
		--force-device-scale-factor=0.25 --screenshot="$T/shot.png" --window-size=1000,3200 \
		"file://$html" >"$T/chrome.log" 2>&1
	n=$(python3 "$ROOT/tests/report/png_palette.py" "$T/shot.png" 2>&1)
	[ "$n" -gt 2500 ] 2>/dev/null && ok "Chromium renders the heatmap ($n pixels of its palette)" ||
		not_ok "screenshot: $n pixels of the heatmap's palette; $(tail -n 2 "$T/chrome.log")"
	shots=${TEST_ARTEFACTS:-$ROOT/build/test-artefacts}/ssd_cliff_latency_model
	mkdir -p "$shots" && cp "$T/shot.png" "$shots/"
fi
tap_end
