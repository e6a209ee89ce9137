#!/bin/sh
# A set that fails verification (a file changed or missing against its
# SHA256SUMS, as 'iomatrix verify' says FAILED) is named by report (a
# warning on stderr and a line in the Method section), by list (a mark in
# its row) and by compare (a warning); an intact set, and an older set
# without SHA256SUMS, draw no word.
. "$(dirname "$0")/../../lib.sh"
mkdir -p "$T/d" "$T/res"
cat >"$T/s.yaml" <<EOS
suite: sums
defaults: {engine: "null", size: 4MiB, runtime: 50ms}
devices:
  - {name: disk, path: $T/d}
matrix: {pattern: [randread, read], bs: [4k]}
EOS
for s in good bad old; do
	expect_exit 0 "$IOMATRIX" run "$T/s.yaml" --out "$T/res/$s" --quiet
	[ -f "$T/res/$s/SHA256SUMS" ] || fail "run wrote no SHA256SUMS in $s"
done
# bad: a number edited in a cell file; old: a set from before checksums
python3 - "$T/res/bad/cells/0001.json" <<'PY' || fail "cannot edit the cell"
import json, sys
c = json.load(open(sys.argv[1]))
c["status"] = c["status"]  # same content, new bytes: a changed file
open(sys.argv[1], "w").write(json.dumps(c, indent=1) + "\n")
PY
rm "$T/res/old/SHA256SUMS"
expect_exit 1 "$IOMATRIX" verify "$T/res/bad"

expect_exit 0 "$IOMATRIX" report "$T/res/bad" -o "$T/rbad" --charts none --format md,html,json
grep -q "fails verification (changed cells/0001.json)" "$T/err" \
	&& ok "report: a warning on stderr names the changed file" || not_ok "report stderr: $(cat "$T/err")"
grep -q "^- Result set .*\*\*fails verification: changed cells/0001.json\*\*" "$T/rbad/report.md" \
	&& ok "report: the Method line names what changed" || not_ok "no Method line in report.md"
grep -q "<strong>fails verification: changed cells/0001.json</strong>" "$T/rbad/report.html" \
	&& ok "report: the HTML says it too" || not_ok "no line in report.html"
grep -q '"fails_verification":[[:space:]]*"changed cells/0001.json"' "$T/rbad/report.json" \
	&& ok "report: report.json says it" || not_ok "no key in report.json"
# report.json gives every set's state (docs/reports.md, "A set in brief")
for s in good:intact old:no\ checksums; do
	expect_exit 0 "$IOMATRIX" report "$T/res/${s%%:*}" -o "$T/r${s%%:*}" --charts none --format md,json
	grep -qi "verif" "$T/err" "$T/r${s%%:*}/report.md" \
		&& not_ok "report of the ${s%%:*} set speaks of verification" || ok "report: ${s%%:*} set, no word"
	python3 - "$T/r${s%%:*}/report.json" "${s#*:}" <<'PY' \
		&& ok "report.json: the ${s%%:*} set is '${s#*:}', nothing fails" || not_ok "report.json: ${s%%:*}"
import json, sys
s = json.load(open(sys.argv[1]))["sets"][0]
assert s["verify"] == sys.argv[2] and "fails_verification" not in s, s
PY
done

expect_exit 0 "$IOMATRIX" list "$T/res"
grep "$T/res/bad\$" "$T/out" | grep -q "FAILS VERIFY" && ok "list: the failing set's row is marked" \
	|| not_ok "list: $(cat "$T/out")"
grep -E "$T/res/(good|old)\$" "$T/out" | grep -q "VERIFY" && not_ok "list marks an intact or older set" \
	|| ok "list: intact and older sets unmarked"
grep -q "^FAILS VERIFY: $T/res/bad: changed cells/0001.json" "$T/out" \
	&& ok "list: says what changed" || not_ok "list names no change"
expect_exit 0 "$IOMATRIX" list "$T/res" --format json
python3 - "$T/out" "$T/res" <<'PY' && ok "list --format json: verify of each set" || not_ok "list json: $(cat "$T/out")"
import json, sys
v = {e["path"].rsplit("/", 1)[-1]: (e.get("verify"), e.get("fails_verification")) for e in json.load(open(sys.argv[1]))}
assert v == {"bad": ("FAILED", "changed cells/0001.json"), "good": ("intact", None),
             "old": ("no checksums", None)}, v
PY

expect_exit 0 "$IOMATRIX" compare "$T/res/good" "$T/res/bad" -o "$T/c1"
grep -q "'$T/res/bad' fails verification (changed cells/0001.json)" "$T/err" \
	&& ok "compare: a warning names the set and the change" || not_ok "compare stderr: $(cat "$T/err")"
expect_exit 0 "$IOMATRIX" compare "$T/res/good" "$T/res/old" -o "$T/c2"
grep -qi "verif" "$T/err" && not_ok "compare warns about intact/older sets: $(cat "$T/err")" \
	|| ok "compare: intact and older sets, no warning"
tap_end
