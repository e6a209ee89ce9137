#!/bin/sh
# A device named with quotes, <, &, an ESC sequence, a pipe, a newline and
# backquotes, compared: JUnit stays well-formed XML whose class name reads
# the name back (controls as text: \e, \n), BMF stays JSON with the name
# in its key, the step summary's row stays one table row with the markup
# escaped; no format holds the raw ESC byte.  Before, compare had neither
# format nor summary.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd xmllint
G=$ROOT/tests/report/gen_synthetic.py
# a"b'<x>&y ESC[31m |z NEWLINE `w`
N='["a\"b'"'"'<x>&y\u001b[31m|z\n`w`", "plain"]'
python3 "$G" "$T/a" --cells 1 --repeat 3 --seed 1 --names-json "$N" >/dev/null &&
python3 "$G" "$T/b" --cells 1 --repeat 3 --seed 2 --perf plain=0.7 --names-json "$N" >/dev/null ||
	fail "generator failed"
expect_exit 0 env GITHUB_STEP_SUMMARY="$T/sum.md" "$IOMATRIX" compare "$T/a" "$T/b" -o "$T/c" \
	--format junit,bmf
xmllint --noout "$T/c/compare.junit.xml" 2>"$T/xl" && ok "JUnit is well-formed" || not_ok "$(cat "$T/xl")"
python3 - "$T/c/compare.junit.xml" "$T/c/compare.bmf.json" >"$T/j" 2>&1 <<'PY' || not_ok "$(cat "$T/j")"
import json, sys, xml.etree.ElementTree as ET
shown = "a\"b'<x>&y\\e[31m|z\\n`w`"   # what termesc makes of the name
names = {c.get("classname") for c in ET.parse(sys.argv[1]).getroot().iter("testcase")}
assert names == {shown, "plain"}, names
bmf = json.load(open(sys.argv[2]))
assert any(k.startswith(shown + ": ") for k in bmf), list(bmf)
PY
[ -s "$T/j" ] || ok "JUnit's class name and BMF's key read the name back"
for f in "$T/c/compare.junit.xml" "$T/c/compare.bmf.json" "$T/sum.md"; do
	printf '\033' | grep -qF -f - "$f" && not_ok "raw ESC in ${f##*/}" || ok "no raw ESC in ${f##*/}"
done
grep -q '&lt;x&gt;&amp;y' "$T/c/compare.junit.xml" && grep -q 'a&quot;b&#39;' "$T/c/compare.junit.xml" &&
	ok "JUnit escapes < & and quotes" || not_ok "junit: $(grep testcase "$T/c/compare.junit.xml")"
row=$(grep -F 'a"b' "$T/sum.md")
[ "$(printf '%s\n' "$row" | wc -l)" = 1 ] &&
	printf '%s\n' "$row" | grep -qF '| a"b'"'"'\<x\>\&y\\e\[31m\|z\\n\`w\` | 4K random read' &&
	ok "summary: one row, markup escaped" || not_ok "summary row: $row"
tap_end
