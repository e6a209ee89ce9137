#!/bin/sh
# compare --format junit and bmf, the formats CI systems read: one JUnit
# test case per workload (a regression a <failure>, an inconclusive change
# and too few repetitions <skipped/>, no change and an improvement pass)
# that xmllint accepts; BMF whose value, lower_value and upper_value are
# compare.json's mean and mean -/+ ci95 of the primary metric to the digit
# (the 15 significant digits cJSON prints); both files in the output directory's SHA256SUMS; -o - writes the
# one format to stdout and nothing to disk, and refuses several; the exit
# codes stay the verdicts'.  Before these formats, --format junit exited 2.
. "$(dirname "$0")/../../lib.sh"
need_cmd python3
need_cmd xmllint
G=$ROOT/tests/report/gen_synthetic.py
D=slow:ssd,fast:ssd,same:ssd,edge:ssd
python3 "$G" "$T/a" --devices $D --cells 1 --repeat 3 --seed 1 --noise 0.01 >/dev/null &&
python3 "$G" "$T/b" --devices $D --cells 1 --repeat 3 --seed 2 --noise 0.01 --perf slow=0.7 \
	--perf fast=1.3 --perf edge=0.94 >/dev/null || fail "generator failed"

expect_exit 3 "$IOMATRIX" compare "$T/a" "$T/b" --format json,junit,bmf --fail-on-regression
C=$T/b/compare
grep -q '^written: ' "$T/out" && ok "--fail-on-regression still exits 3" || not_ok "$(cat "$T/out")"
xmllint --noout "$C/compare.junit.xml" 2>"$T/xl" && ok "xmllint accepts compare.junit.xml" ||
	not_ok "xmllint: $(cat "$T/xl")"
# each device's one workload: its verdict in compare.json, its JUnit element
python3 - "$C/compare.junit.xml" "$C/compare.json" >"$T/j" 2>&1 <<'PY' || not_ok "junit: $(cat "$T/j")"
import json, sys, xml.etree.ElementTree as ET
suites = ET.parse(sys.argv[1]).getroot()
rows = {r["device_old"]: r["verdict"] for r in json.load(open(sys.argv[2]))["rows"]}
assert rows == {"slow": "regression", "fast": "improvement", "same": "no change",
                "edge": "inconclusive"}, rows
cases = {c.get("classname"): c for c in suites.iter("testcase")}
assert set(cases) == set(rows), cases
def kind(c):
    k = [e.tag for e in c if e.tag in ("failure", "skipped", "error")]
    return k[0] if k else "pass"
got = {d: kind(c) for d, c in cases.items()}
assert got == {"slow": "failure", "fast": "pass", "same": "pass", "edge": "skipped"}, got
assert cases["slow"].find("failure").get("message").startswith("regression: IOPS -")
assert cases["edge"].find("skipped").get("message").startswith("inconclusive: IOPS ")
s = suites.find("testsuite")
assert (s.get("tests"), s.get("failures"), s.get("skipped")) == ("4", "1", "1"), s.attrib
assert suites.get("tests") == "4"
PY
[ -s "$T/j" ] || ok "regression fails, inconclusive skipped, no change and improvement pass"
python3 - "$C/compare.bmf.json" "$C/compare.json" >"$T/j" 2>&1 <<'PY' || not_ok "bmf: $(cat "$T/j")"
import json, sys
# numbers as their text: the value is compare.json's mean, digit for digit;
# the bounds are mean -/+ ci95 at the 15 digits both files print
bmf = json.load(open(sys.argv[1]), parse_float=str)
cmp = json.load(open(sys.argv[2]), parse_float=str)
g = lambda x: "%.15g" % float(x)
assert len(bmf) == len(cmp["rows"]) == 4, bmf
for r in cmp["rows"]:
    pm = r["primary_metric"]
    new = r[pm]["new"]
    m = bmf["%s: %s" % (r["device_old"], r["workload"])]
    assert list(m) == [pm], m
    m = m[pm]
    mean, ci = float(new["mean"]), float(new["ci95"])
    assert m["value"] == new["mean"], (m, new)
    assert g(m["lower_value"]) == g(mean - ci), (m, new)
    assert g(m["upper_value"]) == g(mean + ci), (m, new)
    assert ci > 0 and len(new["mean"].replace(".", "").lstrip("0")) >= 12, new
PY
[ -s "$T/j" ] || ok "BMF: value and bounds are compare.json's mean -/+ ci95, to the digit"
for f in compare.junit.xml compare.bmf.json; do
	grep -q "  $f\$" "$C/SHA256SUMS" && ok "$f in SHA256SUMS" || not_ok "$f not in SHA256SUMS"
done
(cd "$C" && sha256sum --quiet -c SHA256SUMS) >"$T/s" 2>&1 && ok "compare/ checks" || not_ok "$(cat "$T/s")"
expect_exit 0 "$IOMATRIX" verify "$T/b"
grep -q "FAILED" "$T/out" && not_ok "verify: $(cat "$T/out")" || ok "the set and its compare/ verify"

# too few repetitions: skipped, and BMF has a value but no interval
python3 "$G" "$T/a1" --devices one:ssd --cells 1 --seed 1 >/dev/null &&
python3 "$G" "$T/b1" --devices one:ssd --cells 1 --seed 2 --perf one=0.5 >/dev/null || fail "generator"
expect_exit 0 "$IOMATRIX" compare "$T/a1" "$T/b1" -o "$T/c1" --format junit,bmf --fail-on-regression
python3 - "$T/c1/compare.junit.xml" "$T/c1/compare.bmf.json" >"$T/j" 2>&1 <<'PY' || not_ok "few: $(cat "$T/j")"
import json, sys, xml.etree.ElementTree as ET
c = list(ET.parse(sys.argv[1]).getroot().iter("testcase"))
assert len(c) == 1 and c[0].find("skipped") is not None, ET.tostring(c[0])
assert "not enough repetitions" in c[0].find("skipped").get("message")
m = list(json.load(open(sys.argv[2])).values())[0]["iops"]
assert "value" in m and "lower_value" not in m and "upper_value" not in m, m
PY
[ -s "$T/j" ] || ok "too few repetitions: skipped; BMF without bounds"

# -o -: the one format on stdout, the same bytes as the file; nothing on disk
mkdir "$T/cwd"
(cd "$T/cwd" && "$IOMATRIX" compare "$T/a" "$T/b" --format bmf -o - >"$T/bmf" 2>"$T/err"); rc=$?
[ "$rc" = 0 ] && cmp -s "$T/bmf" "$C/compare.bmf.json" && ok "-o - --format bmf: the file's bytes on stdout" ||
	not_ok "-o - bmf: exit $rc, $(head -c 300 "$T/bmf")"
grep -q '^  regression  slow' "$T/err" && ok "-o -: verdict lines on stderr" || not_ok "stderr: $(cat "$T/err")"
[ -z "$(ls -A "$T/cwd")" ] && ok "-o -: nothing written to disk" || not_ok "-o - wrote $(ls -A "$T/cwd")"
expect_exit 3 "$IOMATRIX" compare "$T/a" "$T/b" --format junit -o - --fail-on-regression
xmllint --noout "$T/out" 2>/dev/null && cmp -s "$T/out" "$C/compare.junit.xml" &&
	ok "-o - --format junit: the XML on stdout, exit 3 kept" || not_ok "junit on stdout"
expect_exit 2 "$IOMATRIX" compare "$T/a" "$T/b" -o -
[ ! -s "$T/out" ] && grep -q 'one document to standard output' "$T/err" &&
	ok "-o - with several formats: exit 2, stdout empty" || not_ok "$(cat "$T/err")"
tap_end
